/**
 * The dashboard in a real browser (test/http/console/browser-kit.ts): it renders with no script error or CSP
 * violation, each card is a region named by its heading, the cards stack in one column at 390 px with
 * nothing scrolling sideways (screenshots at desktop width and 390 px under test-results/), and each
 * card's link leads where it says — the map listing the same vehicles, the hours-of-service page, and
 * the API reference opened at the fault-code operation (the utilization cards' links name an operation
 * of the same document).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { eachDialect } from '../../helper.js';
import { useOAuthApp, type OAuthTestApp } from '../../auth/oauth/flows.js';
import { PHONE, openConsoleBrowser, shoot, type ConsoleBrowser } from './browser-kit.js';
import { seedDashboardFleet } from './dashboard-fixtures.js';

eachDialect('fleet console dashboard in a real browser', (dialect) => {
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

  /** Follows the link of the card named `card`, checks where it leads with `arrived`, and returns. */
  async function follow(page: Page, card: string, link: string, href: string, arrived: () => Promise<void>) {
    const a = page.getByRole('region', { name: card }).getByRole('link', { name: link });
    assert.equal(await a.getAttribute('href'), href);
    await a.click();
    await page.waitForURL(web.base + href);
    await arrived();
    // Back by address: the API reference's deep links add history entries of their own.
    await page.goto(web.base + '/console/dashboard');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  }

  test('renders, reads by region, stacks at 390 px, and every card leads where it says', async () => {
    const fleet = await seedDashboardFleet(t);
    const page = await web.signedIn(fleet.admin, '/console/dashboard');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Console' }).getByRole('link');
    assert.equal(await nav.first().innerText(), 'Dashboard');
    assert.equal(await nav.first().getAttribute('aria-current'), 'page');

    const regions = ['Vehicles', 'On duty', 'Near a limit', 'Fault codes', 'Distance today', 'Idling today'];
    for (const name of regions) assert.ok(await page.getByRole('region', { name }).isVisible(), name);
    assert.match(await page.getByRole('region', { name: 'Vehicles' }).innerText(), /8 active vehicles/);
    assert.match(await page.getByRole('region', { name: 'Idling today' }).innerText(), /40%\s+of engine-on time idle/);

    await shoot(page, 'console-dashboard', dialect);
    await page.setViewportSize(PHONE);
    const lefts = await page
      .locator('.dash-card')
      .evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().left)));
    assert.equal(new Set(lefts).size, 1, `one column at 390 px: ${lefts.join(', ')}`);
    assert.deepEqual(web.problemsOf(page), [], 'no script errors or CSP violations');

    await follow(page, 'Vehicles', 'Open the map', '/console', async () => {
      await page
        .locator('#fleet-count')
        .filter({ hasText: /^8 vehicles$/ })
        .waitFor();
      assert.equal(await page.locator('#fleet-state option[value="never_reported"]').innerText(), 'Never reported (3)');
    });
    for (const card of ['On duty', 'Near a limit'])
      await follow(page, card, 'Open hours of service', '/console/hos', async () => {
        await page.getByRole('heading', { name: 'Hours of service', level: 1 }).waitFor();
        await page.getByRole('heading', { name: /^Dana Near/ }).waitFor();
      });
    assert.deepEqual(web.problemsOf(page), [], 'no script errors or CSP violations on the pages it leads to');
    await follow(
      page,
      'Fault codes',
      'Fault codes in the API reference',
      '/docs#/vehicles/get_v1_fault_codes',
      async () => {
        await page.locator('#operations-vehicles-get_v1_fault_codes.is-open').waitFor();
      },
    );
    // The reference opens a deep link as above (the page takes seconds to draw the whole API, so it is
    // drawn once); the utilization cards' links name an operation and tag of the same document.
    const doc = await (await page.request.get(web.base + '/openapi.json')).json();
    assert.deepEqual(doc.paths['/v2/vehicle_utilization'].get.tags, ['utilization']);
    for (const card of ['Distance today', 'Idling today']) {
      const a = page
        .getByRole('region', { name: card })
        .getByRole('link', { name: 'Vehicle utilization in the API reference' });
      assert.equal(await a.getAttribute('href'), '/docs#/utilization/get_v2_vehicle_utilization');
    }
    await page.context().close();
  });
});
