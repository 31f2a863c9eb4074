/**
 * The working pages in a real browser (Debian's chromium through playwright-core): the hours-of-service
 * day picker (previous day, a typed day, next day by keyboard) and its grid scrolling inside its own box
 * at 390 px; the IFTA totals and a chosen vehicle; the developer portal's select-all per scope group,
 * by keyboard with script and as a plain form field without. Screenshots at desktop width and 390 px go
 * to test-results/. Without /usr/bin/chromium this test fails: it never skips.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { eachDialect } from '../../helper.js';
import {
  Browser,
  PASSWORD,
  inputValue,
  uniq,
  useOAuthApp,
  vehicle,
  type OAuthTestApp,
} from '../../auth/oauth/flows.js';
import { recordDutyStatusEvents } from '../../../src/domain/hos/service.js';
import { createUser } from '../../../src/domain/users/service.js';
import { addDays, localDate, startOfDay } from '../../../src/core/time-zone.js';
import { SCOPE_GROUPS } from '../../../src/http/oauth/views/portal/scope-groups.js';
import { PHONE, openConsoleBrowser, shoot, type ConsoleBrowser } from './browser-kit.js';
import { storeIftaTrack } from './kit.js';

const H = 3_600_000;
const ZONE = 'America/New_York';
const longDate = (day: string) =>
  new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', {
    timeZone: 'UTC',
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  });

/** The scopes an app page lists. */
const listedScopes = async (page: Page) =>
  (await page.locator('ul.scopes li code').allInnerTexts()).map((s) => s.trim()).sort();

eachDialect('working pages in a real browser', (dialect) => {
  const getApp = useOAuthApp(dialect);
  let t: OAuthTestApp;
  let web: ConsoleBrowser;

  before(async () => {
    t = await getApp();
    web = await openConsoleBrowser(t);
  });

  after(async () => {
    await web?.close();
  });

  test('hours of service: the day picker, and the grid scrolls in its own box on a phone', async () => {
    const fleet = await t.newFleet('Picker Freight');
    const co = { companyId: fleet.companyId };
    const today = localDate(Date.now(), ZONE);
    let day = addDays(today, -2);
    while (startOfDay(addDays(day, 1), ZONE).getTime() - startOfDay(day, ZONE).getTime() !== 24 * H)
      day = addDays(day, -1);
    const start = startOfDay(day, ZONE).getTime();
    const now = Date.now();
    await recordDutyStatusEvents(t.db, co, fleet.driver.id, [
      { at: start + 6 * H, status: 'on_duty' },
      { at: start + 6.5 * H, status: 'driving' },
      { at: start + 18.5 * H, status: 'off_duty' },
      { at: now - 3 * H, status: 'on_duty' },
      { at: now - 2.5 * H, status: 'driving' },
    ]);
    // A few more drivers, so that the page looks like a fleet.
    for (const [first, hours] of [
      ['Lee', 9.5],
      ['Max', 4],
      ['Noor', 0],
    ] as const) {
      const u = await createUser(t.db, co, {
        role: 'driver',
        email: `${first.toLowerCase()}.${uniq()}@fleet.test`,
        password: PASSWORD,
        first_name: first,
        last_name: 'Driver',
      });
      if (hours)
        await recordDutyStatusEvents(t.db, co, u.id, [
          { at: now - (hours + 0.5) * H, status: 'on_duty' },
          { at: now - hours * H, status: 'driving' },
          { at: now - 0.25 * H, status: 'off_duty' },
        ]);
    }

    const page = await web.signedIn(fleet.manager.email, '/console/hos');
    await page.getByRole('heading', { name: 'Hours of service' }).waitFor();
    const log = (date: string) => page.getByRole('img', { name: new RegExp(`^Log of Pat driver for ${date}`) });
    await log(today).waitFor();
    assert.match(
      await page.locator('#hos-zone').innerText(),
      /^Times in America\/New_York \(Eastern Time \(US & Canada\)\)/,
    );
    assert.deepEqual(
      await page.locator('li.hos-driver h2').allInnerTexts(),
      ['Lee Driver', 'Max Driver', 'Pat driver', 'Noor Driver'],
      'least time left first',
    );
    await shoot(page, 'console-hos-work', dialect);
    await page.setViewportSize(PHONE);
    const box = await page
      .locator('.hos-scroll')
      .first()
      .evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    assert.ok(box.scroll > box.client, `the grid scrolls inside its box (${box.scroll} > ${box.client})`);
    assert.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      'the page does not',
    );
    await page.locator('.hos-scroll').first().focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.querySelector('.hos-scroll')!.scrollLeft > 0);
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('link', { name: 'Previous day' }).click();
    await page.waitForURL(`${web.base}/console/hos?date=${addDays(today, -1)}`);
    await log(addDays(today, -1)).waitFor();
    assert.equal(await page.locator('#hos-day').innerText(), longDate(addDays(today, -1)));

    await page.getByLabel('Log day').fill(day);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(new RegExp(`date=${day}`));
    await page
      .getByRole('img', {
        name: `Log of Pat driver for ${day}: Off duty 5h 30m, Sleeper 0h 00m, Driving 12h 00m, On duty 0h 30m`,
      })
      .waitFor();
    const violations = page.getByRole('list', { name: `Violations on ${day}` });
    assert.match(
      await violations.innerText(),
      /30 Minute Break Required[\s\S]*11 Hour Driving Limit \d\d:\d\d–\d\d:\d\d E[SD]T/,
    );
    await shoot(page, 'console-hos-day-work', dialect);

    await page.getByRole('link', { name: 'Next day' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${web.base}/console/hos?date=${addDays(day, 1)}`);
    await log(addDays(day, 1)).waitFor();
    assert.deepEqual(web.problemsOf(page), [], 'no script errors or CSP violations');
    await page.context().close();
  });

  test('IFTA: the totals row and one chosen vehicle', async () => {
    const fleet = await t.newFleet('Totals Freight');
    const ids = [await vehicle(t, fleet), await vehicle(t, fleet)];
    for (const id of ids) await storeIftaTrack(t, fleet, id);
    for (const [id, jurisdiction, fuel] of [
      [ids[0], 'IL', 12],
      [ids[1], 'IN', 9.5],
    ] as const) {
      const res = await fetch(`${web.base}/v1/fuel_purchases`, {
        method: 'POST',
        headers: { 'x-api-key': fleet.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({
          vehicle_id: id,
          jurisdiction,
          fuel,
          fuel_unit: 'gal',
          purchased_at: '2024-02-10T18:00:00Z',
        }),
      });
      assert.equal(res.status, 201);
    }
    const page = await web.signedIn(fleet.admin.email, '/console/ifta?year=2024&quarter=1');
    await page.getByRole('heading', { name: 'IFTA 2024 Q1' }).waitFor();
    const totals = page.getByRole('region', { name: 'By jurisdiction, unspecified' }).locator('tfoot tr');
    assert.match(await totals.innerText(), /^Total\s+[\d,.]+\s+[\d,.]+\s+21\.5\s+\d+\.\d\d$/);
    await shoot(page, 'console-ifta-work', dialect);

    const number = (await page.getByLabel('Vehicle', { exact: true }).locator('option').nth(2).innerText()).trim();
    await page.getByLabel('Vehicle', { exact: true }).selectOption({ label: number });
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('heading', { name: `IFTA 2024 Q1: ${number}` }).waitFor();
    assert.equal(await page.getByRole('region', { name: 'By vehicle, unspecified' }).count(), 0);
    await shoot(page, 'console-ifta-vehicle-work', dialect);
    assert.deepEqual(web.problemsOf(page), []);
    await page.context().close();
  });

  /** A developer account with the test password, signed up through the portal's form. */
  async function developer(): Promise<string> {
    const b = new Browser(t.app);
    const form = await b.get('/developers/sign-up');
    const email = `dev.${uniq()}@apps.test`;
    const res = await b.post('/developers/sign-up', {
      csrf_token: inputValue(form.body, 'csrf_token'),
      name: 'Dana Dev',
      email,
      password: PASSWORD,
    });
    assert.equal(res.status, 303, res.body);
    return email;
  }
  const group = (key: string) => SCOPE_GROUPS.find((g) => g.key === key)!;

  test("developer portal: a group's select-all by keyboard ticks the group; one box cleared shows it mixed", async () => {
    const page = await web.signedIn(await developer(), '/developers/apps');
    await page.getByRole('link', { name: 'Register an application' }).click();
    await page.getByRole('heading', { name: 'Register an application' }).waitFor();
    const hos = group('hos');
    const all = page.getByLabel(`All of Hours of service (${hos.scopes.length})`);
    const boxes = page.locator('input[name="scopes"][data-group="hos"]');
    const ticked = () => boxes.evaluateAll((els) => els.map((e) => (e as HTMLInputElement).checked));
    assert.deepEqual(
      await ticked(),
      hos.scopes.map(() => false),
    );

    await all.focus();
    await page.keyboard.press('Space');
    assert.deepEqual(
      await ticked(),
      hos.scopes.map(() => true),
      'Space on "All" ticks the group',
    );
    await page.locator('#scope-hos_logs-logs').uncheck();
    assert.equal(await all.isChecked(), false);
    assert.equal(await all.evaluate((e) => (e as HTMLInputElement).indeterminate), true, 'mixed');
    await all.focus();
    await page.keyboard.press('Space');
    assert.deepEqual(
      await ticked(),
      hos.scopes.map(() => true),
    );
    assert.equal(await all.evaluate((e) => (e as HTMLInputElement).indeterminate), false);
    await page.locator('#scope-vehicles-read').check();
    assert.equal(await page.locator('#group-vehicles').isChecked(), false, 'another group untouched');
    await shoot(page, 'portal-scopes', dialect);

    await page.getByLabel(/^Application name/).fill('Logbook Sync');
    await page.getByLabel(/^Redirect URIs/).fill('https://client.example/callback');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByRole('heading', { name: 'Logbook Sync' }).waitFor();
    assert.deepEqual(await listedScopes(page), [...hos.scopes, 'vehicles.read'].sort());
    assert.deepEqual(web.problemsOf(page), [], 'the inline script runs under its hash: no CSP violation');
    await page.context().close();
  });

  test('developer portal without script: the ticked "All" box asks for the whole group', async () => {
    const page = await web.signedIn(await developer(), '/developers/apps', { javaScriptEnabled: false });
    await page.goto(`${web.base}/developers/apps/new`);
    const ifta = group('ifta');
    await page.getByLabel(`All of IFTA and fuel (${ifta.scopes.length})`).check();
    assert.equal(await page.locator('input[name="scopes"][data-group="ifta"]:checked').count(), 0, 'no script ran');
    await page.getByLabel(/^Application name/).fill('Fuel Tax Helper');
    await page.getByLabel(/^Redirect URIs/).fill('https://client.example/callback');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByRole('heading', { name: 'Fuel Tax Helper' }).waitFor();
    assert.deepEqual(await listedScopes(page), [...ifta.scopes].sort());
    await page.context().close();
  });
});
