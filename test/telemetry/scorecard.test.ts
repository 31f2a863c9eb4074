/**
 * GET /v1/scorecard_summary: per-driver rollups of the events and kilometers derived from fixes sent
 * through the device API, the score (src/telemetry/queries/scorecard.ts), the window and paging at
 * their edges, and the scope.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../helper.js';
import { assertError, createUser } from '../http/fixtures.js';
import { addDays } from '../../src/core/time-zone.js';
import { safetyScore } from '../../src/telemetry/queries/scorecard.js';
import { userSummary } from '../../src/wire/summaries.js';
import { at, DAY, DEG_PER_KM, engine, login, rig, send, type Rig } from './fixtures.js';
import { oauthToken } from './oauth-token.js';

const LAT = 39.8;
const LON0 = -89.65;
const fix = (s: number, kph: number, odometerKm: number) => ({
  type: 'location',
  time: at(s),
  lat: LAT,
  lon: LON0 + (odometerKm - 1000) * DEG_PER_KM,
  speed_kph: kph,
  bearing_deg: 90,
  odometer_km: odometerKm,
});
const brake = (s: number, km: number) => ({
  type: 'acceleration',
  time: at(s),
  longitudinal_g: -0.45,
  duration_ms: 2000,
  speed_kph: 90,
  end_speed_kph: 60,
  lat: LAT,
  lon: LON0 + km * DEG_PER_KM,
  bearing_deg: 90,
});
const accel = (s: number, km: number) => ({ ...brake(s, km), longitudinal_g: 0.3, speed_kph: 60, end_speed_kph: 80 });

eachDialect('/v1/scorecard_summary', (dialect) => {
  const getApp = useApp(dialect, { TELEMETRY_REORDER_WINDOW_S: '0', TELEMETRY_SWEEP_MS: '0' });
  let t: TestApp;
  let a: Rig;
  let idle: any;

  before(async () => {
    t = await getApp();
    a = await rig(t);
    idle = await createUser(t, {});
    // Driver A: 36 km at 129.6 kph over 1,000 s (odometer), speeding throughout, two hard brakes and a hard acceleration.
    const fixes = Array.from({ length: 101 }, (_, i) => fix(i * 10, 129.6, 1000 + i * 0.36));
    await send(t, a, [login(-2, a.driver.id), engine(-1, 'on'), ...fixes.slice(0, 40)]);
    await send(t, a, [brake(400, 14.4), accel(402, 14.5), brake(405, 14.6)]);
    await send(t, a, [...fixes.slice(41), fix(1010, 50, 1036.4), fix(1020, 0, 1036.5), engine(1030, 'off')]);
  });

  const rollup = (
    driver: any,
    own: { accels?: number; brakes?: number; km?: number; score?: number; speeding?: number },
  ) => ({
    num_coached_events: 0,
    num_hard_accels: own.accels ?? 0,
    num_hard_brakes: own.brakes ?? 0,
    num_hard_corners: 0,
    score: own.score ?? 100,
    total_kilometers: own.km ?? 0,
    driver: userSummary(driver),
    num_speeding_events: own.speeding ?? 0,
  });
  const list = (items: unknown[], page: { per_page: number; page_no: number; total: number }) => ({
    driver_performance_rollups: items.map((x) => ({ driver_performance_rollup: x })),
    pagination: page,
  });
  const get = (query: string, headers: Record<string, string> = {}) =>
    t.call({ method: 'GET', url: `/v1/scorecard_summary${query}`, headers });
  const drivers = async () =>
    (await t.call({ method: 'GET', url: '/v1/users?role=driver&per_page=100' })).body.users.map((x: any) => x.user);

  test('one rollup per driver, id order: counts, kilometers and the score over the window', async () => {
    const km = (await get(`?start_date=${DAY}&end_date=${DAY}&driver_ids=${a.driver.id}`)).body
      .driver_performance_rollups[0].driver_performance_rollup.total_kilometers;
    assert.ok(km > 36.3 && km <= 36.5, `kilometers from the utilization buckets: ${km}`);
    // 2 brakes + 1 acceleration + 1 speeding (2 points) = 5 points over 22.6 mi, counted as 100 mi: 100 − 10 × 5 = 50.
    assert.equal(safetyScore({ hard_brake: 2, hard_accel: 1, hard_corner: 0, speeding: 1, coached: 0 }, km), 50);
    const [dA, dIdle] = (await drivers()).filter((d: any) => [a.driver.id, idle.id].includes(d.id));
    const res = await get(`?start_date=${DAY}&end_date=${DAY}`);
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body,
      list([rollup(dA, { accels: 1, brakes: 2, km, score: 50, speeding: 1 }), rollup(dIdle, {})], {
        per_page: 25,
        page_no: 1,
        total: 2,
      }),
    );
  });

  test('the window: inclusive days in UTC unless X-Time-Zone, default the last 7 days; its limits', async () => {
    const [dA, dIdle] = (await drivers()).filter((d: any) => [a.driver.id, idle.id].includes(d.id));
    const empty = list([rollup(dA, {}), rollup(dIdle, {})], { per_page: 25, page_no: 1, total: 2 });
    assert.deepEqual(
      (await get(`?start_date=${addDays(DAY, 1)}&end_date=${addDays(DAY, 1)}`)).body,
      empty,
      'the next day: nothing',
    );
    assert.deepEqual(
      (await get(`?start_date=${addDays(DAY, -1)}&end_date=${addDays(DAY, -1)}`)).body,
      empty,
      'the day before: nothing',
    );
    // 14:00 UTC is 04:00 the next day at UTC+14.
    const kiritimati = { 'x-time-zone': 'Pacific/Kiritimati' };
    assert.deepEqual((await get(`?start_date=${DAY}&end_date=${DAY}`, kiritimati)).body, empty);
    const next = (
      await get(`?start_date=${addDays(DAY, 1)}&end_date=${addDays(DAY, 1)}&driver_ids=${a.driver.id}`, kiritimati)
    ).body;
    assert.deepEqual(next.driver_performance_rollups[0].driver_performance_rollup.num_hard_brakes, 2);
    // The test day is 7 days ago: outside the default window (today and the 6 days before).
    assert.deepEqual((await get('')).body, empty);
    assert.equal(
      (await get(`?start_date=${DAY}`)).body.driver_performance_rollups[0].driver_performance_rollup.score,
      50,
      'start_date alone: 7 days from it',
    );
    assertError(await get(`?start_date=${DAY}&end_date=${addDays(DAY, -1)}`), 400);
    assertError(
      await get(`?start_date=${DAY}&end_date=${addDays(DAY, 367)}`),
      400,
      'Date range cannot be greater than 366 days',
    );
  });

  test('paging and driver_ids', async () => {
    const [dA, dIdle] = (await drivers()).filter((d: any) => [a.driver.id, idle.id].includes(d.id));
    const q = `start_date=${addDays(DAY, 1)}&end_date=${addDays(DAY, 1)}`;
    assert.deepEqual(
      (await get(`?${q}&per_page=1`)).body,
      list([rollup(dA, {})], { per_page: 1, page_no: 1, total: 2 }),
    );
    assert.deepEqual(
      (await get(`?${q}&per_page=1&page_no=2`)).body,
      list([rollup(dIdle, {})], { per_page: 1, page_no: 2, total: 2 }),
    );
    assert.deepEqual((await get(`?${q}&per_page=1&page_no=3`)).body, list([], { per_page: 1, page_no: 3, total: 2 }));
    assert.deepEqual(
      (await get(`?${q}&driver_ids[]=${idle.id}`)).body,
      list([rollup(dIdle, {})], { per_page: 25, page_no: 1, total: 1 }),
    );
    assertError(await get(`?${q}&per_page=0`), 400);
  });

  test('scope: an OAuth token without scorecard_summary.read gets 403 naming it; with it, 200', async () => {
    const refused = await t.app.inject({
      method: 'GET',
      url: '/v1/scorecard_summary',
      headers: await oauthToken(t, ['driver_performance_events.read']),
    });
    assert.equal(refused.statusCode, 403);
    assert.deepEqual(refused.json(), {
      error_message: 'this request needs the scorecard_summary.read scope, which was not granted',
    });
    assert.match(
      String(refused.headers['www-authenticate']),
      /error="insufficient_scope".*scope="scorecard_summary\.read"$/,
    );
    const url = `/v1/scorecard_summary?start_date=${DAY}&end_date=${DAY}`;
    const allowed = await t.app.inject({
      method: 'GET',
      url,
      headers: await oauthToken(t, ['scorecard_summary.read']),
    });
    assert.equal(allowed.statusCode, 200);
    const admins = (await drivers()).length;
    assert.deepEqual(allowed.json(), (await t.call({ method: 'GET', url })).body, 'the same answer as an API key');
    assert.equal(admins, 2, 'the admins the tokens needed are no drivers');
  });
});
