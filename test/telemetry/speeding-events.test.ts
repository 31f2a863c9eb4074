/**
 * GET /v1/speeding_events: speeding derived from fixes sent through the device API, answered in the
 * real API's item shape (docs/telemetry.md, "Speeding events and the scorecard summary"), with its
 * filters, date windows and paging at their edges, and its scope.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../helper.js';
import { assertError } from '../http/fixtures.js';
import { haversineM } from '../../src/telemetry/units.js';
import { addDays } from '../../src/core/time-zone.js';
import { at, DAY, DEG_PER_KM, login, rig, send, type Rig } from './fixtures.js';
import { oauthToken } from './oauth-token.js';

const w = (s: number) => `${at(s).slice(0, 19)}Z`;
const LAT = 39.8;
const LON0 = -89.65;
const NEXT = 86_400;
const r1 = (x: number) => Math.round(x * 10) / 10;

/** A fix at second `s`, `km` east of LON0, with an odometer when given. */
const fix = (s: number, kph: number, km: number, odometerKm?: number) => ({
  type: 'location',
  time: at(s),
  lat: LAT,
  lon: LON0 + km * DEG_PER_KM,
  speed_kph: kph,
  bearing_deg: 90,
  ...(odometerKm === undefined ? {} : { odometer_km: odometerKm }),
});
const path = (kms: number[]) =>
  kms.slice(1).reduce((m, km, i) => m + haversineM(LAT, LON0 + kms[i] * DEG_PER_KM, LAT, LON0 + km * DEG_PER_KM), 0) /
  1000;

eachDialect('/v1/speeding_events', (dialect) => {
  const getApp = useApp(dialect, { TELEMETRY_REORDER_WINDOW_S: '0', TELEMETRY_SWEEP_MS: '0' });
  let t: TestApp;
  let a: Rig;
  let b: Rig;
  /** The driver performance event of each speeding event (same id), for its place and embeds. */
  let perf: any[];

  before(async () => {
    t = await getApp();
    a = await rig(t);
    b = await rig(t);
    // Vehicle A, driver A: 130 kph from 0 s (125 at 30 s) to 90 s, 100 kph at 100 s; odometer 0.036 km/s; then a hard brake.
    const speeds = [130, 130, 130, 125, 130, 130, 130, 130, 130, 130];
    await send(t, a, [
      login(-1, a.driver.id),
      ...speeds.map((kph, i) => fix(i * 10, kph, i * 0.36, 1000 + i * 0.36)),
      fix(100, 100, 3.6, 1003.6),
    ]);
    await send(t, a, [
      {
        type: 'acceleration',
        time: at(110),
        longitudinal_g: -0.45,
        duration_ms: 2000,
        speed_kph: 90,
        end_speed_kph: 60,
        lat: LAT,
        lon: LON0 + 4 * DEG_PER_KM,
        bearing_deg: 90,
      },
    ]);
    // Vehicle B, driver B, the next day: 140 kph for 70 s, 90 kph at 80 s; no odometer.
    await send(t, b, [
      login(NEXT - 1, b.driver.id),
      ...[0, 10, 20, 30, 40, 50, 60, 70].map((s) => fix(NEXT + s, 140, s * 0.04)),
      fix(NEXT + 80, 90, 3.2),
    ]);
    perf = (
      await t.call({ method: 'GET', url: '/v1/driver_performance_events?event_types=speeding' })
    ).body.driver_performance_events.map((x: any) => x.driver_performance_event);
    assert.equal(perf.length, 2);
  });

  const item = (p: any, own: Record<string, unknown>) => ({
    ...own,
    id: p.id,
    start_lat: LAT,
    start_lon: p.lon,
    type: 'policy',
    start_time: p.start_time,
    end_time: p.end_time,
    coaching_status: 'pending_review',
    status: 'valid',
    driver: p.driver,
    eld_device: p.eld_device,
    vehicle: p.vehicle,
  });
  const eventA = () => {
    const p = perf[0];
    return {
      speeding_distance_in_km: 3.6,
      max_over_speed_in_kph: 9.3,
      avg_over_speed_in_kph: 8.8,
      min_posted_speed_limit_in_kph: 120.7,
      max_posted_speed_limit_in_kph: 120.7,
      avg_vehicle_speed: 129.5,
      min_vehicle_speed: 125,
      max_vehicle_speed: 130,
      id: p.id,
      duration: 100,
      start_lat: LAT,
      start_lon: LON0,
      end_lat: LAT,
      end_lon: LON0 + 3.6 * DEG_PER_KM,
      type: 'policy',
      start_time: w(0),
      end_time: w(100),
      coaching_status: 'pending_review',
      status: 'valid',
      driver: p.driver,
      eld_device: p.eld_device,
      vehicle: p.vehicle,
      metadata: { severity: 'medium', trigger: 'speeding' },
      location: p.location,
    };
  };
  const eventB = () => {
    const p = perf[1];
    // GPS path: the odometer is missing; the speed holds from each fix to the next, so 140 kph over 80 s.
    const km = path([0, 0.4, 0.8, 1.2, 1.6, 2, 2.4, 2.8, 3.2]);
    return item(p, {
      speeding_distance_in_km: Math.round(km * 100) / 100,
      max_over_speed_in_kph: 19.3,
      avg_over_speed_in_kph: 19.3,
      min_posted_speed_limit_in_kph: 120.7,
      max_posted_speed_limit_in_kph: 120.7,
      avg_vehicle_speed: 140,
      min_vehicle_speed: 140,
      max_vehicle_speed: 140,
      id: p.id,
      duration: 80,
      start_lat: LAT,
      start_lon: LON0,
      end_lat: LAT,
      end_lon: LON0 + 3.2 * DEG_PER_KM,
      type: 'policy',
      start_time: w(NEXT),
      end_time: w(NEXT + 80),
      coaching_status: 'pending_review',
      status: 'valid',
      driver: p.driver,
      eld_device: p.eld_device,
      vehicle: p.vehicle,
      metadata: { severity: 'high', trigger: 'speeding' },
      location: p.location,
    });
  };
  const list = (items: unknown[], page: { per_page: number; page_no: number; total: number }) => ({
    speeding_events: items.map((x) => ({ speeding_event: x })),
    pagination: page,
    ...page,
  });
  const get = async (query: string, headers: Record<string, string> = {}) =>
    t.call({ method: 'GET', url: `/v1/speeding_events${query}`, headers });

  test('every speeding event in id order, in the real shape; the hard brake is no speeding event', async () => {
    assert.deepEqual([perf[0].vehicle.id, perf[1].vehicle.id], [a.vehicle.id, b.vehicle.id]);
    assert.deepEqual([perf[0].driver.id, perf[1].driver.id], [a.driver.id, b.driver.id]);
    const res = await get('');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, list([eventA(), eventB()], { per_page: 25, page_no: 1, total: 2 }));
    assert.equal(res.raw.indexOf('"speeding_events"'), 1, 'the data key first');
    assert.equal(typeof perf[0].location, 'string');
  });

  test('paging: per_page 1, each page; past the end an empty page with the total', async () => {
    assert.deepEqual((await get('?per_page=1')).body, list([eventA()], { per_page: 1, page_no: 1, total: 2 }));
    assert.deepEqual(
      (await get('?per_page=1&page_no=2')).body,
      list([eventB()], { per_page: 1, page_no: 2, total: 2 }),
    );
    assert.deepEqual((await get('?per_page=1&page_no=3')).body, list([], { per_page: 1, page_no: 3, total: 2 }));
    assert.deepEqual(
      (await get('?per_page=500')).body,
      list([eventA(), eventB()], { per_page: 100, page_no: 1, total: 2 }),
      'clamped to 100',
    );
    assertError(await get('?per_page=0'), 400);
    assertError(await get('?page_no=0'), 400);
  });

  test('filters: driver_ids, vehicle_ids (both forms), together', async () => {
    assert.deepEqual(
      (await get(`?driver_ids=${b.driver.id}`)).body,
      list([eventB()], { per_page: 25, page_no: 1, total: 1 }),
    );
    assert.deepEqual(
      (await get(`?vehicle_ids[]=${a.vehicle.id}`)).body,
      list([eventA()], { per_page: 25, page_no: 1, total: 1 }),
    );
    assert.deepEqual(
      (await get(`?vehicle_ids=${a.vehicle.id},${b.vehicle.id}`)).body,
      list([eventA(), eventB()], { per_page: 25, page_no: 1, total: 2 }),
    );
    assert.deepEqual(
      (await get(`?driver_ids=${a.driver.id}&vehicle_ids=${b.vehicle.id}`)).body,
      list([], { per_page: 25, page_no: 1, total: 0 }),
    );
  });

  test('dates: inclusive days on the start time, UTC unless X-Time-Zone; one date alone spans 7 days; the limits', async () => {
    const day2 = addDays(DAY, 1);
    assert.deepEqual(
      (await get(`?start_date=${DAY}&end_date=${DAY}`)).body,
      list([eventA()], { per_page: 25, page_no: 1, total: 1 }),
    );
    assert.deepEqual(
      (await get(`?start_date=${day2}&end_date=${day2}`)).body,
      list([eventB()], { per_page: 25, page_no: 1, total: 1 }),
    );
    assert.deepEqual(
      (await get(`?start_date=${DAY}`)).body,
      list([eventA(), eventB()], { per_page: 25, page_no: 1, total: 2 }),
    );
    assert.deepEqual(
      (await get(`?end_date=${addDays(DAY, -1)}`)).body,
      list([], { per_page: 25, page_no: 1, total: 0 }),
    );
    // 14:00 UTC is 04:00 the next day at UTC+14: event A falls on day 2 there, event B on day 3.
    const kiritimati = { 'x-time-zone': 'Pacific/Kiritimati' };
    const kt = (sec: number) => `${new Date(Date.parse(at(sec)) + 14 * 3_600_000).toISOString().slice(0, 19)}+14:00`;
    assert.deepEqual(
      (await get(`?start_date=${day2}&end_date=${day2}`, kiritimati)).body,
      list([{ ...eventA(), start_time: kt(0), end_time: kt(100) }], { per_page: 25, page_no: 1, total: 1 }),
      'times in that zone too',
    );
    assertError(await get(`?start_date=${day2}&end_date=${DAY}`), 400);
    assertError(
      await get(`?start_date=${DAY}&end_date=${addDays(DAY, 367)}`),
      400,
      'Date range cannot be greater than 366 days',
    );
    assert.equal(
      (await get(`?start_date=${addDays(DAY, -359)}&end_date=${addDays(DAY, 7)}`)).status,
      200,
      'exactly 366 days',
    );
    assertError(await get('?start_date=2026-02-30'), 400);
  });

  test('scope: an OAuth token without speeding_events.read gets 403 naming it; with it, the same answer as an API key', async () => {
    const refused = await t.app.inject({
      method: 'GET',
      url: '/v1/speeding_events',
      headers: await oauthToken(t, ['driver_performance_events.read']),
    });
    assert.equal(refused.statusCode, 403);
    assert.deepEqual(refused.json(), {
      error_message: 'this request needs the speeding_events.read scope, which was not granted',
    });
    assert.equal(
      refused.headers['www-authenticate'],
      'Bearer realm="api", error="insufficient_scope", error_description="this request needs the speeding_events.read scope, which was not granted", scope="speeding_events.read"',
    );
    const allowed = await t.app.inject({
      method: 'GET',
      url: '/v1/speeding_events',
      headers: await oauthToken(t, ['speeding_events.read']),
    });
    assert.equal(allowed.statusCode, 200);
    assert.deepEqual(allowed.json(), list([eventA(), eventB()], { per_page: 25, page_no: 1, total: 2 }));
  });

  test('tenancy: another company sees none of them', async () => {
    const other = await t.newCompany('Other Co');
    assert.deepEqual(
      (await t.call({ method: 'GET', url: '/v1/speeding_events', as: other })).body,
      list([], { per_page: 25, page_no: 1, total: 0 }),
    );
  });
});
