/**
 * A vehicle's day in the console (/console/vehicles/:id/history and its JSON): for the seeded fleet of
 * ./reports-fixtures.ts, the track of A-1's driving day with its stops, idling, speeding and hard brake
 * exactly, a geofence visit, the day picker's bounds, a date that is not a day (400 with the API's message), and
 * vehicles the user does not see (another company's; outside a group-limited manager's groups): 404.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect } from '../../helper.js';
import { useOAuthApp, type OAuthTestApp } from '../../auth/oauth/flows.js';
import { startOfDay } from '../../../src/core/time-zone.js';
import { asCompany, consoleBrowser } from './kit.js';
import { send } from './dashboard-fixtures.js';
import { IANA, seedReportFleet, type ReportFleet } from './reports-fixtures.js';
import { MAX_POINTS, thin, type TrackPoint } from '../../../src/http/console/data/history-data.js';

const MIN = 60_000;

eachDialect('fleet console: a vehicle day and its replay data', (dialect) => {
  const getApp = useOAuthApp(dialect);
  let t: OAuthTestApp;
  let f: ReportFleet;

  before(async () => {
    t = await getApp();
    f = await seedReportFleet(t);
  });

  test("A-1's driving day: the track, its stops, idling, speeding and hard brake, in the company's zone", async () => {
    const { b } = await consoleBrowser(t, f.admin);
    const [d1] = f.days;
    const noon = startOfDay(d1, IANA).getTime() + 12 * 60 * MIN;
    const iso = (minutes: number) => new Date(noon + minutes * MIN).toISOString();

    const page = await b.get(`/console/vehicles/${f.vehicles.A1}/history?date=${d1}`);
    assert.equal(page.status, 200, page.body);
    assert.match(page.body, new RegExp(`<h1>A-1 · ${d1}</h1>`));
    assert.match(page.body, /<input id="history-date" name="date" type="date" value="[^"]+" max="[^"]+" required>/);
    assert.match(page.body, new RegExp(`value="${d1}" max="${f.today}"`));
    assert.match(page.body, new RegExp(`data-source="/console/api/vehicles/${f.vehicles.A1}/history\\?date=${d1}"`));
    assert.match(page.body, /data-zone="America\/Chicago"/);
    assert.match(page.body, /Times in Central Time \(US &amp; Canada\) \(America\/Chicago\)/);
    assert.match(page.body, /<input id="replay-scrub" type="range"/);
    assert.match(
      page.body,
      /<option value="1">1×<\/option><option value="10">10×<\/option><option value="60" selected>60×<\/option>/,
    );

    const res = await b.get(`/console/api/vehicles/${f.vehicles.A1}/history?date=${d1}`);
    assert.equal(res.status, 200, res.body);
    assert.equal(res.headers['cache-control'], 'no-store');
    const day = JSON.parse(res.body);
    assert.deepEqual(day.vehicle, { id: f.vehicles.A1, number: 'A-1' });
    assert.equal(day.date, d1);
    assert.deepEqual(day.zone, { name: 'Central Time (US & Canada)', iana: IANA });
    assert.equal(day.metric, false);
    // 12:00–12:03 at 130 km/h, 12:03:30–12:10:30 standing, 12:11–12:12 engine off, 12:30–12:32 at 90 km/h,
    // 12:32:30–12:40:30 standing: a fix every 30 s.
    assert.equal(day.fixes, 7 + 15 + 3 + 5 + 17);
    assert.equal(day.points.length, day.fixes);
    assert.deepEqual(day.points[0].slice(0, 3), [noon, 35, -95]);
    assert.equal(day.points[0][3], 130);
    assert.equal(day.points.at(-1)[0], noon + 40.5 * MIN);
    const stand = day.points[7][1];
    const stand2 = day.points.at(-1)[1];
    assert.deepEqual(day.stops, [
      { start: iso(3.5), end: iso(30), duration_s: 26.5 * 60, lat: stand, lon: -95 },
      { start: iso(32.5), end: iso(40.5), duration_s: 8 * 60, lat: stand2, lon: -95 },
    ]);
    // As /v1/idle_events and /v1/speeding_events have them (the reports read the same events).
    assert.deepEqual(day.idle, [
      { start: iso(3.5), end: iso(11), duration_s: 450, lat: stand, lon: -95, location: '21.3 mi W of Poteau, OK' },
    ]);
    assert.deepEqual(day.speeding, [
      {
        start: iso(0),
        end: iso(3.5),
        duration_s: 210,
        lat: 35,
        lon: -95,
        max_speed_kph: 130,
        location: '21.6 mi W of Poteau, OK',
      },
    ]);
    // The hard brake of 12:31:15, as /v1/driver_performance_events has it.
    assert.deepEqual(day.harsh, [
      {
        type: 'hard_brake',
        start: iso(31.25),
        lat: (day.points[25 + 2][1] + day.points[25 + 3][1]) / 2,
        lon: -95,
        peak_g: -0.45,
        speed_kph: 90,
        location: '21.3 mi W of Poteau, OK',
      },
    ]);
    assert.deepEqual(day.geofences, []);

    // The day after: A-1 did not move; B-2's day is its own.
    const quiet = JSON.parse((await b.get(`/console/api/vehicles/${f.vehicles.A1}/history?date=${f.days[1]}`)).body);
    assert.deepEqual(
      [quiet.fixes, quiet.points, quiet.stops, quiet.idle, quiet.speeding, quiet.harsh],
      [0, [], [], [], [], []],
    );
    // Without a date: today in the company's zone, and no "next day" past it.
    const today = await b.get(`/console/vehicles/${f.vehicles.B2}/history`);
    assert.equal(today.status, 200);
    assert.match(today.body, new RegExp(`<h1>B-2 · ${f.today}</h1>`));
    assert.doesNotMatch(today.body, /Next day/);
    assert.match(
      page.body,
      new RegExp(`href="/console/vehicles/${f.vehicles.A1}/history\\?date=${f.days[1]}" rel="next"`),
    );
  });

  test('a geofence visit of the day, with the geofence named', async () => {
    const api = asCompany(t, { companyId: f.companyId, apiKey: f.apiKey } as never);
    const fence = await api.call({
      method: 'POST',
      url: '/v1/geofences',
      payload: {
        name: 'Muskogee yard',
        location_points: [
          { lat: 37.0, lon: -95.005 },
          { lat: 37.0, lon: -94.995 },
          { lat: 37.01, lon: -94.995 },
          { lat: 37.01, lon: -95.005 },
        ],
      },
    });
    assert.equal(fence.status, 201, JSON.stringify(fence.body));
    const made = await api.call({ method: 'POST', url: '/v1/vehicles', payload: { number: 'G-5' } });
    const g5 = made.body.vehicle.id as number;
    const ten = startOfDay(f.days[1], IANA).getTime() + 10 * 60 * MIN;
    // North at 60 km/h, a fix every 30 s from 36.99°: the yard's edges (37.00° and 37.01°) are crossed
    // between fixes, at the instants the visit records.
    const step = 0.5 / 111.195;
    await send(
      t,
      f.companyId,
      g5,
      Array.from({ length: 8 }, (_, i) => ({
        at: ten + i * 30_000,
        type: 'location',
        lat: 36.99 + i * step,
        lon: -95,
        speed_kph: 60,
        bearing_deg: 0,
        ignition: true,
      })),
    );
    const { b } = await consoleBrowser(t, f.admin);
    const day = JSON.parse((await b.get(`/console/api/vehicles/${g5}/history?date=${f.days[1]}`)).body);
    assert.equal(day.fixes, 8);
    assert.deepEqual(day.stops, []);
    assert.deepEqual(day.geofences, [
      {
        geofence_id: fence.body.geofence.id,
        name: 'Muskogee yard',
        start: new Date(ten + Math.round((0.01 / step) * 30_000)).toISOString(),
        end: new Date(ten + Math.round((0.02 / step) * 30_000)).toISOString(),
      },
    ]);
  });

  test('a date that is not a day is a 400 with the API message; vehicles the user does not see are 404', async () => {
    const { b } = await consoleBrowser(t, f.admin);
    const bad = await b.get(`/console/api/vehicles/${f.vehicles.A1}/history?date=2026-02-30`);
    assert.equal(bad.status, 400);
    // The words the API answers for the same day as start_date.
    const apiKey = asCompany(t, { companyId: f.companyId, apiKey: f.apiKey } as never);
    const same = await apiKey.call({ method: 'GET', url: '/v1/idle_events?start_date=2026-02-30' });
    assert.equal(same.status, 400);
    const expected = (same.body as { error_message: string }).error_message.replace(/^start_date /, 'date ');
    assert.deepEqual(JSON.parse(bad.body), { error_message: expected });
    const badPage = await b.get(`/console/vehicles/${f.vehicles.A1}/history?date=yesterday`);
    assert.equal(badPage.status, 400);
    const api = await b.get(`/console/api/vehicles/${f.vehicles.A1}/history?date=yesterday`);
    assert.ok(badPage.body.includes(JSON.parse(api.body).error_message.replace(/"/g, '&quot;')), badPage.body);

    const other = await seedReportFleet(t);
    for (const url of [
      `/console/vehicles/${other.vehicles.A1}/history`,
      `/console/api/vehicles/${other.vehicles.A1}/history`,
      `/console/vehicles/x/history`,
    ])
      assert.equal((await b.get(url)).status, 404, url);

    // A group-limited manager: A-1 (group West) yes, B-2 (no group) no.
    const limited = (await consoleBrowser(t, f.limited)).b;
    assert.equal((await limited.get(`/console/vehicles/${f.vehicles.A1}/history?date=${f.days[0]}`)).status, 200);
    const a1 = JSON.parse((await limited.get(`/console/api/vehicles/${f.vehicles.A1}/history?date=${f.days[0]}`)).body);
    assert.equal(a1.stops.length, 2);
    assert.equal((await limited.get(`/console/vehicles/${f.vehicles.B2}/history`)).status, 404);
    const b2 = await limited.get(`/console/api/vehicles/${f.vehicles.B2}/history?date=${f.days[1]}`);
    assert.equal(b2.status, 404);
    assert.deepEqual(JSON.parse(b2.body), { error_message: `vehicle ${f.vehicles.B2} not found` });
  });
});

test('a day of one-second fixes is thinned evenly to MAX_POINTS, its first and last fix kept', () => {
  const day: TrackPoint[] = Array.from({ length: 86_400 }, (_, i) => [i * 1000, 35 + i * 1e-5, -95, 50]);
  const sent = thin(day);
  assert.ok(sent.length <= MAX_POINTS + 1 && sent.length > MAX_POINTS * 0.9, `${sent.length} points`);
  assert.equal(sent[0], day[0]);
  assert.equal(sent.at(-1), day.at(-1));
  const gaps = new Set(sent.slice(1, -1).map((p, i) => p[0] - sent[i][0]));
  assert.deepEqual([...gaps], [9000], 'evenly: every ninth fix');
  assert.equal(thin(day.slice(0, 500)).length, 500, 'a short day is sent whole');
});
