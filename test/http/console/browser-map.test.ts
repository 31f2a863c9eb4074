/**
 * The console map in a real browser with the network cut off for everything but the server: the
 * outlines and place names of the offline base layer are drawn, trucks close together are one cluster
 * that splits as the map zooms in, and choosing a vehicle centres the map on it and marks it on the map
 * and in the list. Then a polygon geofence is drawn on the map, read back through the API, edited
 * (a point moved with the keyboard, renamed) and deleted after confirming. A vehicle's day is replayed:
 * play moves the marker along the track, the slider scrubs by keyboard. Screenshots at desktop
 * width and 390 px go to test-results/.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { eachDialect } from '../../helper.js';
import { useOAuthApp, type OAuthTestApp } from '../../auth/oauth/flows.js';
import { asCompany, ingest } from './kit.js';
import { openConsoleBrowser, shoot, type ConsoleBrowser } from './browser-kit.js';
import { startOfDay } from '../../../src/core/time-zone.js';
import { IANA, seedReportFleet } from './reports-fixtures.js';

/** Requests the page made anywhere but the server: each is refused, and listed here. */
async function offline(page: Page, base: string): Promise<string[]> {
  const elsewhere: string[] = [];
  await page.context().route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith(base + '/') || url === base) return route.continue();
    elsewhere.push(url);
    return route.abort('internetdisconnected');
  });
  return elsewhere;
}

const view = async (page: Page) =>
  JSON.parse((await page.locator('#map').getAttribute('data-view'))!) as { lat: number; lon: number; zoom: number };
const placeNames = (page: Page) => page.locator('.place-label').allInnerTexts();

eachDialect('console map in a real browser, offline', (dialect) => {
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

  test('outlines and place names without a network, clusters that split on zoom, a choice that centres the map', async () => {
    const fleet = await t.newFleet('Offline Map Freight');
    const api = asCompany(t, fleet);
    const make = async (number: string) => {
      const res = await api.call({ method: 'POST', url: '/v1/vehicles', payload: { number } });
      assert.equal(res.status, 201);
      return res.body.vehicle.id as number;
    };
    const near = [await make('C-1'), await make('C-2'), await make('C-3')];
    const far = await make('D-1');
    // Three trucks within a kilometre of each other in Joliet, IL; one near Deming, NM.
    for (const [i, id] of near.entries())
      await ingest(t, fleet, id, [{ lat: 41.525 + i * 0.004, lon: -88.08 - i * 0.004, kph: 0, agoS: 30 }]);
    await ingest(t, fleet, far, [
      { lat: 32.05, lon: -107.5, kph: 80, agoS: 90, bearing: 90 },
      { lat: 32.05, lon: -107.45, kph: 80, agoS: 20, bearing: 90 },
    ]);

    const page = await web.signedIn(fleet.admin.email, '/console');
    const elsewhere = await offline(page, web.base);
    await page.goto(web.base + '/console');
    const map = page.locator('#map');
    await map.and(page.locator('[data-outlines="65"]')).waitFor();
    assert.ok((await page.locator('#map path.land').count()) >= 60, 'every state, province and Mexico is drawn');
    await page.locator('.place-label').first().waitFor({ state: 'attached' });
    const wide = await placeNames(page);
    assert.ok(wide.includes('Chicago') && wide.includes('Houston'), `big cities on the whole view: ${wide.join(', ')}`);
    assert.ok(!wide.includes('Joliet'), 'a smaller city waits for a closer zoom');

    const cluster = page.locator('.cluster');
    await cluster.waitFor();
    assert.equal(await cluster.count(), 1, 'the three trucks in Joliet are one cluster');
    assert.equal(await cluster.innerText(), '3');
    assert.deepEqual((await cluster.getAttribute('data-ids'))!.split(',').map(Number).sort(), [...near].sort());
    assert.equal(await page.locator('.veh-marker').count(), 1, 'and the truck in New Mexico is alone');
    await shoot(page, 'console-map-offline', dialect);

    // By keyboard: the cluster is a button; Enter zooms in to its trucks, which then stand apart. It is
    // chosen while the map's own zoom animation (started with +, a quarter of a second) still runs:
    // Leaflet drops a view asked for then, so the choice must wait for the animation's end.
    await map.focus();
    await page.keyboard.press('Equal');
    await cluster.focus();
    await page.keyboard.press('Enter');
    await page.locator('.veh-marker').nth(3).waitFor();
    assert.equal(await cluster.count(), 0, 'zoomed in, the cluster has split');
    assert.ok((await view(page)).zoom >= 12);
    await page.waitForFunction(() =>
      [...document.querySelectorAll('.place-label')].some((e) => e.textContent === 'Joliet'),
    );
    assert.ok((await placeNames(page)).includes('Joliet'), 'closer in, smaller places are named');

    // Choosing a vehicle in the list centres the map on it and marks it on the map and in the list.
    await page.getByRole('button', { name: 'D-1', exact: true }).click();
    const marker = page.locator(`.veh-marker[data-id="${far}"]`);
    await marker.and(page.locator('.selected')).waitFor();
    await page.locator(`#vehicle-list li[data-id="${far}"][aria-current="true"]`).waitFor();
    await page.waitForFunction(() => {
      const v = JSON.parse(document.getElementById('map')!.dataset.view!) as { lat: number; lon: number };
      return Math.abs(v.lat - 32.05) < 0.01 && Math.abs(v.lon + 107.45) < 0.01;
    });
    await page.locator('path.track').waitFor({ state: 'attached' });
    // A marker is a button of its own: 36 px, reachable by keyboard, chosen with Enter.
    const box = (await page.locator(`.veh-marker[data-id="${near[0]}"]`).boundingBox()) ?? { width: 0, height: 0 };
    assert.ok(box.width >= 32 && box.height >= 32, `a marker a finger can hit: ${box.width}×${box.height}`);
    await page.locator(`.veh-marker[data-id="${near[0]}"]`).focus();
    await page.keyboard.press('Enter');
    await page.locator('#details').getByRole('heading', { name: 'Vehicle C-1' }).waitFor();
    await shoot(page, 'console-map-selected', dialect);
    assert.deepEqual(elsewhere, [], 'nothing was asked of any other host');
    assert.deepEqual(web.problemsOf(page), [], 'no script errors or CSP violations');
    await page.context().close();
  });

  test('draw a polygon geofence on the map, see it in the API, edit it, delete it after confirming', async () => {
    const fleet = await t.newFleet('Geofence Drawing Co');
    const api = asCompany(t, fleet);
    const page = await web.signedIn(fleet.manager.email, '/console/geofences');
    const elsewhere = await offline(page, web.base);
    await page.getByRole('link', { name: 'Draw a geofence' }).click();
    await page.getByRole('heading', { name: 'Draw a geofence' }).waitFor();
    await page.locator('#map[data-outlines]').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Yard');
    await page.getByLabel('Category', { exact: true }).fill('yard');
    const box = (await page.locator('#map').boundingBox())!;
    const at = (fx: number, fy: number) => ({ x: box.width * fx, y: box.height * fy });
    for (const [fx, fy] of [
      [0.3, 0.3],
      [0.7, 0.3],
      [0.7, 0.7],
      [0.3, 0.7],
    ])
      await page.locator('#map').click({ position: at(fx, fy) });
    await page.getByRole('status').filter({ hasText: '4 points drawn.' }).waitFor();
    await shoot(page, 'console-geofence-draw', dialect);
    await page.getByRole('button', { name: 'Create geofence' }).click();
    await page.getByRole('status').filter({ hasText: 'The geofence was created.' }).waitFor();
    await page.locator('#map[data-fences="1"]').waitFor();

    const list = await api.call({ method: 'GET', url: '/v1/geofences' });
    assert.equal(list.status, 200);
    assert.equal(list.body.geofences.length, 1);
    const g = list.body.geofences[0].geofence;
    assert.equal(g.name, 'Yard');
    assert.equal(g.category, 'yard');
    assert.equal(g.shape, 'polygon');
    assert.equal(g.location_points.length, 4);
    const [p1, p2] = g.location_points as Array<{ lat: number; lon: number }>;
    assert.ok(p2.lon > p1.lon && Math.abs(p1.lat - p2.lat) < 1e-6, 'the points in the order they were clicked');
    await shoot(page, 'console-geofences', dialect);

    // Edit: the first point moved west by keyboard, and a new name.
    await page.getByRole('link', { name: 'Edit Yard' }).click();
    await page.getByRole('heading', { name: 'Geofence Yard' }).waitFor();
    await page.getByLabel('Point 1 of 4').focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft');
    await page.getByLabel('Name', { exact: true }).fill('North yard');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'The geofence was saved.' }).waitFor();
    const edited = (await api.call({ method: 'GET', url: `/v1/geofences/${g.id}` })).body.geofence;
    assert.equal(edited.name, 'North yard');
    assert.ok(edited.location_points[0].lon < p1.lon, 'the first point moved west');
    assert.deepEqual(edited.location_points.slice(1), g.location_points.slice(1), 'the others stayed');

    // Delete: a confirmation first; cancelling keeps it.
    await page.getByRole('link', { name: 'Delete North yard' }).click();
    await page.getByRole('heading', { name: 'Delete North yard?' }).waitFor();
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.getByRole('heading', { name: 'Geofence North yard' }).waitFor();
    assert.equal((await api.call({ method: 'GET', url: `/v1/geofences/${g.id}` })).status, 200);
    await page.getByRole('link', { name: 'Delete…' }).click();
    await page.getByRole('button', { name: 'Delete North yard' }).click();
    await page.getByRole('status').filter({ hasText: 'The geofence was deleted.' }).waitFor();
    assert.equal((await api.call({ method: 'GET', url: `/v1/geofences/${g.id}` })).status, 404);
    assert.deepEqual(elsewhere, []);
    assert.deepEqual(web.problemsOf(page), [], 'no script errors or CSP violations');
    await page.context().close();
  });

  test("a vehicle's day: its stops and events marked, played, paused and scrubbed by keyboard", async () => {
    const f = await seedReportFleet(t);
    const day = f.days[0];
    const noon = startOfDay(day, IANA).getTime() + 12 * 3_600_000;
    const path = `/console/vehicles/${f.vehicles.A1}/history?date=${day}`;
    const page = await web.signedIn(f.admin, path);
    const elsewhere = await offline(page, web.base);
    await page.goto(web.base + path);
    const map = page.locator('#map');
    const at = async () => Number(await map.getAttribute('data-replay-at'));
    const clock = page.locator('#replay-time');
    await page.locator('#map[data-replay-at]').waitFor();
    assert.equal(await at(), noon);
    assert.equal(await clock.innerText(), '12:00:00', "times in the company's zone");
    assert.equal(await page.locator('path.history-dot.stop').count(), 2);
    assert.equal(await page.locator('path.history-dot.idle').count(), 1);
    assert.equal(await page.locator('path.history-dot.speeding').count(), 1);
    assert.equal(await page.locator('path.history-dot.harsh').count(), 1);
    await page.getByRole('button', { name: /^12:31:15 hard brake 0\.45 g at 56 mph$/ }).waitFor();
    const marker = page.locator('.replay-marker');
    const start = await marker.boundingBox();

    await page.getByLabel('Speed').selectOption('60');
    await page.getByRole('button', { name: 'Play' }).click();
    await page.waitForFunction((t0) => Number(document.getElementById('map')!.dataset.replayAt) > t0 + 60_000, noon);
    await page.getByRole('button', { name: 'Pause' }).click();
    const paused = await at();
    assert.ok(paused > noon + 60_000, 'the replay ran');
    const moved = await marker.boundingBox();
    assert.ok(start && moved && moved.y < start.y, 'northward: the marker went up the map');
    assert.equal(await at(), paused, 'paused, it stays');

    // The slider by keyboard: End, Home, then a second on.
    const scrub = page.getByLabel('Time of the replay');
    await scrub.focus();
    await page.keyboard.press('End');
    assert.equal(await clock.innerText(), '12:40:30');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    assert.equal(await clock.innerText(), '12:00:01');
    assert.equal(await scrub.getAttribute('aria-valuetext'), '12:00:01');
    // An event of the list moves the replay to its start.
    await page.getByRole('button', { name: /^12:32:30 stop, 8 min$/ }).click();
    assert.equal(await clock.innerText(), '12:32:30');
    await shoot(page, 'console-history', dialect);
    assert.deepEqual(elsewhere, [], 'nothing was asked of any other host');
    assert.deepEqual(web.problemsOf(page), [], 'no script errors or CSP violations');
    await page.context().close();
  });
});
