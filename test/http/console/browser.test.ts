/**
 * The console in a real browser (Debian's chromium through playwright-core) on a real listening server:
 * sign in, watch a vehicle move on the map after the device API takes a new position, find vehicles of
 * the whole fleet with the search and filters and choose one, activate a dispatch on the board, and
 * remove an app whose token then fails. Screenshots of each page go to
 * test-results/ for a reviewer. Without /usr/bin/chromium this test fails: it never skips.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { eachDialect } from '../../helper.js';
import { tokensFor, useOAuthApp, vehicle, type OAuthTestApp } from '../../auth/oauth/flows.js';
import { createUser } from '../fixtures.js';
import { createDispatch, createLocation } from '../../domain/dispatch/fixtures.js';
import { asCompany, ingest, storeIftaTrack } from './kit.js';
import { SHOTS, openConsoleBrowser, type ConsoleBrowser } from './browser-kit.js';
import { recordDutyStatusEvents } from '../../../src/domain/hos/service.js';

/** What the map shows: its centre and zoom (the map writes them to its element after every move). */
const mapView = async (page: Page) =>
  JSON.parse((await page.locator('#map').getAttribute('data-view'))!) as { lat: number; lon: number; zoom: number };

eachDialect('fleet console in a real browser', (dialect) => {
  const getApp = useOAuthApp(dialect);
  let t: OAuthTestApp;
  let web: ConsoleBrowser;
  let base: string;

  before(async () => {
    t = await getApp();
    web = await openConsoleBrowser(t);
    base = web.base;
  });

  after(async () => {
    await web?.close();
  });

  const signedIn = (email: string, path: string) => web.signedIn(email, path);
  const problemsOf = (page: Page) => web.problemsOf(page);

  test('sign in and see a vehicle move on the map when the device reports', async () => {
    const id = await vehicle(t);
    await ingest(t, t.fleet, id, [{ lat: 39.8, lon: -89.7, kph: 80, agoS: 120 }]);
    const page = await signedIn(t.fleet.admin.email, '/console');
    const marker = page.locator(`.veh-marker[data-id="${id}"]`);
    await marker.and(page.locator('[data-lon="-89.7"]')).waitFor();
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    const before = await marker.boundingBox();

    await ingest(t, t.fleet, id, [{ lat: 39.8, lon: -89.2, kph: 90, agoS: 10 }]);
    await page.locator(`.veh-marker[data-id="${id}"][data-lon="-89.2"]`).waitFor({ timeout: 10_000 });
    assert.ok((await marker.boundingBox())!.x > before!.x, 'the marker moved east');

    await marker.click();
    const details = page.locator('#details');
    await details.getByRole('heading', { name: /^Vehicle / }).waitFor();
    assert.match(await details.innerText(), /56 mph/, "90 km/h in the company's miles");
    await page.locator('path.track').waitFor({ state: 'attached' });
    // Chosen, the map is centred on it; then the keyboard zooms and pans it.
    await page.waitForFunction(
      () => Math.abs(JSON.parse(document.getElementById('map')!.dataset.view!).lon + 89.2) < 1e-3,
    );
    const chosen = await mapView(page);
    await page.locator('#map').focus();
    await page.keyboard.press('+');
    await page.waitForFunction((z) => JSON.parse(document.getElementById('map')!.dataset.view!).zoom > z, chosen.zoom);
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(
      (lon) => JSON.parse(document.getElementById('map')!.dataset.view!).lon < lon,
      chosen.lon,
    );
    await page.screenshot({ path: `${SHOTS}/console-map-${dialect}.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/console-map-phone-${dialect}.png`, fullPage: true });
    // One event stream for the page: the map's vehicles and the header's alert count together.
    const streams: string[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname === '/console/api/stream') streams.push(u.search);
    });
    await page.reload();
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    assert.deepEqual(streams, ['?feeds=alerts%2Cvehicles']);
    assert.deepEqual(problemsOf(page), [], 'no script errors or CSP violations');
    await page.context().close();
  });

  test('the whole fleet: every vehicle listed, search and filters narrow it, choosing one centres the map on it', async () => {
    const fleet = await t.newFleet('Prairie Freight');
    const api = asCompany(t, fleet);
    const make = async (number: string, fields: Record<string, unknown> = {}) => {
      const res = await api.call({ method: 'POST', url: '/v1/vehicles', payload: { number, ...fields } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.vehicle.id as number;
    };
    const ids = {
      p1: await make('P-1', { year: '2021', make: 'Kenworth', model: 'T680' }),
      p2: await make('P-2'),
      p3: await make('P-3'),
      p4: await make('P-4'),
      p5: await make('P-5'),
    };
    const group = await api.call({ method: 'POST', url: '/v1/groups', payload: { name: 'West' } });
    const gid = group.body.group.id;
    const members = await api.call({
      method: 'POST',
      url: `/v1/groups/${gid}/vehicles`,
      payload: { ids: [ids.p1, ids.p4] },
    });
    assert.equal(members.status, 200);
    await ingest(t, fleet, ids.p1, [{ lat: 32, lon: -107.45, kph: 80, agoS: 20, bearing: 135 }], {
      driverId: fleet.driver.id,
    });
    await ingest(t, fleet, ids.p2, [{ lat: 39.8, lon: -89.7, kph: 0, agoS: 20 }]);
    await ingest(t, fleet, ids.p3, [{ lat: 41, lon: -95, kph: 94, agoS: 15 * 60 + 5 }]);

    const page = await signedIn(fleet.admin.email, '/console');
    const items = page.locator('#vehicle-list li.fleet-item');
    const item = (id: number) => page.locator(`#vehicle-list li[data-id="${id}"]`);
    const count = page.locator('#fleet-count');
    const listed = async () => await items.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-id'))));
    await count.filter({ hasText: /^5 vehicles$/ }).waitFor();
    assert.deepEqual(await listed(), [ids.p1, ids.p2, ids.p3, ids.p4, ids.p5], 'every active vehicle, by number');
    assert.equal(await page.locator('.veh-marker').count(), 3, 'on the map: the three with a position');
    assert.match(await item(ids.p1).innerText(), /Moving · 50 mph[\s\S]*Pat driver[\s\S]*25\.9 mi SE of Deming, NM/);
    assert.match(await item(ids.p3).innerText(), /Offline · last seen 15 min ago/);
    assert.doesNotMatch(await item(ids.p3).innerText(), /mph/, 'an offline vehicle shows no live speed');
    assert.match(await item(ids.p4).innerText(), /Never reported/);

    const narrowed = async (expected: number[], text: RegExp) => {
      await count.filter({ hasText: text }).waitFor();
      assert.deepEqual(await listed(), expected);
    };
    await page.getByLabel('Search', { exact: true }).fill('pat');
    await narrowed([ids.p1], /^1 of 5 vehicles$/);
    await page.locator('.veh-marker').nth(1).waitFor({ state: 'detached' });
    assert.equal(await page.locator('.veh-marker').count(), 1, 'the map shows what the list shows');
    await page.getByLabel('Search', { exact: true }).fill('p-3');
    await narrowed([ids.p3], /^1 of 5 vehicles$/);
    await page.getByLabel('Search', { exact: true }).fill('');
    await page.getByLabel('State', { exact: true }).selectOption('never_reported');
    await narrowed([ids.p4, ids.p5], /^2 of 5 vehicles$/);
    assert.equal(await page.locator('#fleet-state option[value="never_reported"]').innerText(), 'Never reported (2)');
    await page.getByLabel('State', { exact: true }).selectOption('');
    await page.getByLabel('Group', { exact: true }).selectOption({ label: 'West' });
    await narrowed([ids.p1, ids.p4], /^2 of 5 vehicles$/);
    await page.getByLabel('Group', { exact: true }).selectOption('');
    await page.getByLabel('Driver', { exact: true }).selectOption({ label: 'Pat driver' });
    await narrowed([ids.p1], /^1 of 5 vehicles$/);
    await page.getByLabel('Driver', { exact: true }).selectOption('none');
    await narrowed([ids.p2, ids.p3, ids.p4, ids.p5], /^4 of 5 vehicles$/);
    await page.getByLabel('Driver', { exact: true }).selectOption('');
    await narrowed([ids.p1, ids.p2, ids.p3, ids.p4, ids.p5], /^5 vehicles$/);

    // By keyboard: from the search field the filters come next, then the list.
    await page.getByLabel('Search', { exact: true }).focus();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'fleet-state');
    await page.getByRole('button', { name: 'P-1 · 2021 Kenworth T680' }).focus();
    await page.keyboard.press('Enter');
    await item(ids.p1).and(page.locator('[aria-current="true"]')).waitFor();
    assert.equal(await page.locator('#vehicle-list [aria-current="true"]').count(), 1);
    assert.equal(await page.locator('.veh-marker.selected').getAttribute('data-id'), String(ids.p1));
    await page.waitForFunction(() => {
      const v = JSON.parse(document.getElementById('map')!.dataset.view!) as { lat: number; lon: number };
      return Math.abs(v.lat - 32) < 1e-3 && Math.abs(v.lon + 107.45) < 1e-3;
    });
    assert.ok((await mapView(page)).zoom >= 9, 'the map is centred on P-1 and zoomed in to it');
    const details = page.locator('#details');
    await details.getByRole('heading', { name: 'Vehicle P-1' }).waitFor();
    const text = await details.innerText();
    assert.match(text, /25\.9 mi SE of Deming, NM/);
    assert.match(text, /50 mph/);
    await page.screenshot({ path: `${SHOTS}/console-fleet-${dialect}.png` });

    // Choosing on the map marks the list too; an offline vehicle's details show no speed.
    await page.locator(`.veh-marker[data-id="${ids.p3}"]`).press('Enter');
    await item(ids.p3).and(page.locator('[aria-current="true"]')).waitFor();
    assert.equal(await item(ids.p1).getAttribute('aria-current'), null);
    await details.getByRole('heading', { name: 'Vehicle P-3' }).waitFor();
    assert.match(await details.innerText(), /Offline · last seen 15 min ago[\s\S]*11\.8 mi E of Red Oak, IA/);
    assert.doesNotMatch(await details.innerText(), /Speed|mph/);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'P-4' }).click();
    await details.getByRole('heading', { name: 'Vehicle P-4' }).waitFor();
    assert.match(await details.innerText(), /Never reported/);
    await page.screenshot({ path: `${SHOTS}/console-fleet-phone-${dialect}.png`, fullPage: true });
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
