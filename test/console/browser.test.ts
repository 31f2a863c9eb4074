/**
 * The console in a real browser (Debian's chromium through playwright-core) on a real listening server:
 * sign in, watch a vehicle move on the map after the device API takes a new position, activate a
 * dispatch on the board, and remove an app whose token then fails. Screenshots of each page go to
 * test-results/ for a reviewer. Without /usr/bin/chromium this test fails: it never skips.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { eachDialect } from '../helper.js';
import { PASSWORD, tokensFor, useOAuthApp, vehicle, type OAuthTestApp } from '../oauth/helper.js';
import { createUser } from '../http/fixtures.js';
import { createDispatch, createLocation } from '../dispatch/fixtures.js';
import { asCompany, ingest, storeIftaTrack } from './helper.js';
import { recordDutyStatusEvents } from '../../src/domain/hos/service.js';

const SHOTS = 'test-results';
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

eachDialect('fleet console in a real browser', (dialect) => {
  const getApp = useOAuthApp(dialect);
  let t: OAuthTestApp;
  let browser: Browser;
  let base: string;

  before(async () => {
    assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: install it with "apt-get install -y chromium"`);
    mkdirSync(SHOTS, { recursive: true });
    t = await getApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
  });

  after(async () => {
    await browser?.close();
  });

  async function signedIn(email: string, path: string, viewport = { width: 1280, height: 800 }): Promise<Page> {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(base + path);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(base + path);
    (page as unknown as { problems: string[] }).problems = problems;
    return page;
  }
  const problemsOf = (page: Page) => (page as unknown as { problems: string[] }).problems;

  test('sign in and see a vehicle move on the map when the device reports', async () => {
    const id = await vehicle(t);
    await ingest(t, t.fleet, id, [{ lat: 39.8, lon: -89.7, kph: 80, agoS: 120 }]);
    const page = await signedIn(t.fleet.admin.email, '/console');
    const marker = page.locator(`#vehicles g[data-id="${id}"]`);
    await marker.and(page.locator('[data-lon="-89.7"]')).waitFor();
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    const before = await marker.getAttribute('transform');

    await ingest(t, t.fleet, id, [{ lat: 39.8, lon: -89.2, kph: 90, agoS: 10 }]);
    await page.locator(`#vehicles g[data-id="${id}"][data-lon="-89.2"]`).waitFor({ timeout: 10_000 });
    assert.notEqual(await marker.getAttribute('transform'), before, 'the marker moved');

    await marker.click();
    const details = page.locator('#details');
    await details.getByRole('heading', { name: /^Vehicle / }).waitFor();
    assert.match(await details.innerText(), /90 km\/h/);
    await page.locator('#track polyline').waitFor({ state: 'attached' });
    await page.locator('#map').focus();
    await page.keyboard.press('+');
    await page.keyboard.press('ArrowLeft');
    assert.notEqual(
      await page.locator('#map').getAttribute('viewBox'),
      await page.locator('#map').getAttribute('data-home'),
    );
    await page.screenshot({ path: `${SHOTS}/console-map-${dialect}.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/console-map-phone-${dialect}.png`, fullPage: true });
    assert.deepEqual(problemsOf(page), [], 'no script errors or CSP violations');
    await page.context().close();
  });

  test('activate a dispatch on the board and see it move to Active', async () => {
    const api = asCompany(t, t.fleet);
    const driver = await createUser(api);
    const veh = { id: await vehicle(t) };
    const locations = [];
    for (let i = 0; i < 3; i++) locations.push(await createLocation(api, { name: `Dock ${i}` }));
    const d = await createDispatch(api, { driver, driver2: driver, vehicle: veh, vehicle2: veh, locations });
    const page = await signedIn(t.fleet.manager.email, '/console/dispatches');
    const planned = page.locator('ul[data-status="planned"]');
    await planned.locator(`li[data-dispatch="${d.vendor_id}"]`).waitFor();
    await page.getByRole('button', { name: `Activate ${d.vendor_id}` }).click();
    await page.getByRole('status').filter({ hasText: 'The dispatch is now active.' }).waitFor();
    await page.locator(`ul[data-status="active"] li[data-dispatch="${d.vendor_id}"]`).waitFor();
    assert.equal(await planned.locator(`li[data-dispatch="${d.vendor_id}"]`).count(), 0);
    await page.screenshot({ path: `${SHOTS}/console-dispatches-${dialect}.png`, fullPage: true });
    assert.deepEqual(problemsOf(page), []);
    await page.context().close();
  });

  test("hours of service: clocks and today's log grid", async () => {
    const H = 3_600_000;
    const now = Date.now();
    await recordDutyStatusEvents(t.db, { companyId: t.fleet.companyId }, t.fleet.driver.id, [
      { at: now - 6 * H, status: 'on_duty' },
      { at: now - 5.5 * H, status: 'driving' },
      { at: now - 2 * H, status: 'off_duty' },
    ]);
    const page = await signedIn(t.fleet.manager.email, '/console');
    await page.getByRole('link', { name: 'Hours of service' }).click();
    await page.getByRole('heading', { name: 'Hours of service' }).waitFor();
    assert.ok(await page.getByLabel('Drive').first().isVisible());
    await page.getByRole('img', { name: /^Log of Pat driver/ }).waitFor();
    await page.screenshot({ path: `${SHOTS}/console-hos-${dialect}.png`, fullPage: true });
    assert.deepEqual(problemsOf(page), []);
    await page.context().close();
  });

  test('IFTA: distance by jurisdiction for a quarter, with the CSV link', async () => {
    await storeIftaTrack(t, t.fleet, await vehicle(t));
    const page = await signedIn(t.fleet.admin.email, '/console/ifta');
    await page.getByLabel('Year').selectOption('2024');
    await page.getByLabel('Quarter').selectOption('1');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('heading', { name: 'IFTA 2024 Q1' }).waitFor();
    await page.getByRole('rowheader', { name: 'IN' }).waitFor();
    assert.equal(
      await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href'),
      '/console/ifta.csv?year=2024&quarter=1',
    );
    await page.screenshot({ path: `${SHOTS}/console-ifta-${dialect}.png`, fullPage: true });
    assert.deepEqual(problemsOf(page), []);
    await page.context().close();
  });

  test('remove an installed app and its token answers 401', async () => {
    const tokens = await tokensFor(t, 'vehicles.read');
    const read = () => fetch(`${base}/v1/vehicles`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    assert.equal((await read()).status, 200);
    const page = await signedIn(t.fleet.admin.email, '/console');
    await page.getByRole('link', { name: 'Apps' }).click();
    await page.getByRole('heading', { name: /Apps installed for/ }).waitFor();
    await page.screenshot({ path: `${SHOTS}/console-apps-${dialect}.png`, fullPage: true });
    await page.getByRole('button', { name: `Remove ${t.client.name}` }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Removed ${t.client.name}` })
      .waitFor();
    assert.equal((await read()).status, 401);
    await page.context().close();
  });
});
