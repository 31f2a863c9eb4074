/**
 * The console's dashboard: exact figures for a seeded company (test/http/console/dashboard-fixtures.ts) —
 * vehicles by state, drivers on duty and near a limit, open fault codes with the three most recent,
 * today's distance and idle share from records sent through the device API, agreeing with
 * /v2/vehicle_utilization — in the company's units; a fleet manager limited to a group sees only that
 * group's; another company sees none of it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachDialect } from '../../helper.js';
import { Browser, useOAuthApp } from '../../auth/oauth/flows.js';
import { consoleBrowser } from './kit.js';
import { cardText, seedDashboardFleet } from './dashboard-fixtures.js';

const CARDS = ['vehicles', 'on-duty', 'near-limit', 'faults', 'distance', 'idle'];
const cards = (body: string) => Object.fromEntries(CARDS.map((k) => [k, cardText(body, k)]));

eachDialect('fleet console dashboard', (dialect) => {
  const getApp = useOAuthApp(dialect);

  test("a company's figures, exactly, with each card's link", async () => {
    const t = await getApp();
    const fleet = await seedDashboardFleet(t);
    const { b } = await consoleBrowser(t, fleet.admin);
    const page = await b.get('/console/dashboard');
    assert.equal(page.status, 200, page.body);
    assert.match(page.headers['content-security-policy'], /script-src 'self'/);
    assert.match(page.body, /<link rel="stylesheet" href="\/console\/assets\/dashboard.css">/);
    assert.match((await b.get('/console/assets/dashboard.css')).headers['content-type'], /^text\/css/);
    assert.match(
      page.body,
      /<nav aria-label="Console"><ul><li><a href="\/console\/dashboard" aria-current="page">Dashboard<\/a><\/li><li><a href="\/console">Map<\/a>/,
      'first in the navigation',
    );
    assert.match(page.body, new RegExp(`Today, \\d{4}-\\d{2}-\\d{2} \\(${fleet.zone}\\), as of \\d{2}:\\d{2}\\.`));
    assert.deepEqual(cards(page.body), {
      vehicles: 'Vehicles 8 active vehicles 1 moving 1 idling 2 stopped 1 offline 3 never reported Open the map',
      'on-duty': 'On duty 2 drivers on duty driving or on duty now, of 3 drivers Open hours of service',
      'near-limit':
        'Near a limit 2 drivers with less than 1 h of drive, shift or cycle time left ' +
        'Rex Rested: drive 0h 00m left Dana Near: drive 0h 30m left Open hours of service',
      faults:
        'Fault codes 4 open fault codes Most recent: ' +
        'P0420 Catalyst System Efficiency Below Threshold (Bank 1) · S-2 · since 6 min ago ' +
        'SPN 110 FMI 0 Engine Coolant Temperature · S-1 · since 7 min ago ' +
        'SPN 100 FMI 1 Engine Oil Pressure · S-1 · since 8 min ago ' +
        'Fault codes in the API reference',
      distance: 'Distance today 2.1 miles driven today Vehicle utilization in the API reference',
      idle:
        'Idling today 40% of engine-on time idle 0h 02m idle of 0h 05m with the engine on ' +
        'Vehicle utilization in the API reference',
    });
    const links = [...page.body.matchAll(/<p class="dash-more"><a href="([^"]+)">/g)].map((m) => m[1]);
    assert.deepEqual(links, [
      '/console',
      '/console/hos',
      '/console/hos',
      '/docs#/vehicles/get_v1_fault_codes',
      '/docs#/utilization/get_v2_vehicle_utilization',
      '/docs#/utilization/get_v2_vehicle_utilization',
    ]);

    // The same day through the API: its distance and its times add up to the dashboard's.
    const day = /Today, (\d{4}-\d{2}-\d{2})/.exec(page.body)![1];
    const util = await t.app.inject({
      url: `/v2/vehicle_utilization?start_date=${day}&end_date=${day}&per_page=100`,
      headers: { 'x-api-key': fleet.apiKey },
    });
    const rows = util.json().vehicle_utilizations.map((x: any) => x.vehicle_utilization);
    const sum = (k: string) => rows.reduce((a: number, r: any) => a + r[k], 0);
    assert.deepEqual([sum('driving_time'), sum('idle_time'), sum('total_distance').toFixed(1)], [180, 120, '2.1']);
    const faults = await t.app.inject({
      url: '/v1/fault_codes?status=open',
      headers: { 'x-api-key': fleet.apiKey },
    });
    assert.equal(faults.json().pagination.total, 4);
  });

  test("a fleet manager limited to a group sees only that group's vehicles, drivers and faults", async () => {
    const t = await getApp();
    const fleet = await seedDashboardFleet(t);
    const { b } = await consoleBrowser(t, fleet.limited);
    const page = await b.get('/console/dashboard');
    assert.equal(page.status, 200, page.body);
    assert.deepEqual(cards(page.body), {
      vehicles: 'Vehicles 3 active vehicles 1 moving 0 idling 1 stopped 0 offline 1 never reported Open the map',
      'on-duty': 'On duty 1 driver on duty driving or on duty now, of 1 driver Open hours of service',
      'near-limit':
        'Near a limit 1 driver with less than 1 h of drive, shift or cycle time left ' +
        'Dana Near: drive 0h 30m left Open hours of service',
      faults:
        'Fault codes 2 open fault codes Most recent: ' +
        'SPN 110 FMI 0 Engine Coolant Temperature · S-1 · since 7 min ago ' +
        'SPN 100 FMI 1 Engine Oil Pressure · S-1 · since 8 min ago ' +
        'Fault codes in the API reference',
      distance: 'Distance today 2.1 miles driven today Vehicle utilization in the API reference',
      idle:
        'Idling today 0% of engine-on time idle 0h 00m idle of 0h 03m with the engine on ' +
        'Vehicle utilization in the API reference',
    });
  });

  test('kilometres for a metric company; another company sees nothing of it; signed out goes to sign-in', async () => {
    const t = await getApp();
    const fleet = await seedDashboardFleet(t, { metric: true });
    const { b } = await consoleBrowser(t, fleet.admin);
    const page = await b.get('/console/dashboard');
    assert.equal(
      cardText(page.body, 'distance'),
      'Distance today 3.3 kilometres driven today Vehicle utilization in the API reference',
    );

    const other = await consoleBrowser(t, t.fleet.admin.email);
    const theirs = await other.b.get('/console/dashboard');
    assert.equal(theirs.status, 200);
    assert.deepEqual(cards(theirs.body), {
      vehicles: 'Vehicles 0 active vehicles 0 moving 0 idling 0 stopped 0 offline 0 never reported Open the map',
      'on-duty': 'On duty 0 drivers on duty driving or on duty now, of 1 driver Open hours of service',
      'near-limit':
        'Near a limit 0 drivers with less than 1 h of drive, shift or cycle time left Open hours of service',
      faults: 'Fault codes 0 open fault codes Fault codes in the API reference',
      distance: 'Distance today 0.0 miles driven today Vehicle utilization in the API reference',
      idle: 'Idling today No engine-on time today Vehicle utilization in the API reference',
    });

    const anonymous = await new Browser(t.app).get('/console/dashboard');
    assert.equal(anonymous.status, 303);
    assert.equal(anonymous.headers.location, '/sign-in?return_to=%2Fconsole%2Fdashboard');
  });
});
