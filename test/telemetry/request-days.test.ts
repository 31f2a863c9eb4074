/**
 * Which day a date parameter means (docs/reference/wire.md §2.3, §9): UTC unless X-Time-Zone is sent, for the
 * location history (v1 and v3), driver performance events, geofence events and fault codes'
 * `updated_after`; company-local days (the test company is on Eastern time) for idle events and
 * utilization, as observed. A fix at 02:00 UTC is the evening before in New York.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, type TestApp } from '../helper.js';
import { assertList } from '../http/fixtures.js';
import { addDays } from '../../src/core/time-zone.js';
import { DAY, engine, useRigApp, send, settle, T0, type Rig } from './fixtures.js';

const NEXT = addDays(DAY, 1);
/** Seconds from T0 (14:00 UTC on DAY) to 02:00 UTC on the next day. */
const S = 12 * 3600;
const EASTERN = { 'x-time-zone': 'Eastern Time (US & Canada)' };
const iso = (s: number) => new Date(T0 + s * 1000).toISOString();

eachDialect('date parameters: UTC days unless X-Time-Zone', (dialect) => {
  const setup = useRigApp(dialect);
  let t: TestApp;
  let v: Rig;
  before(async () => {
    ({ t, v } = await setup());
    const fix = (s: number, kph: number) => ({
      type: 'location',
      time: iso(s),
      lat: 39.8,
      lon: -89.65 + s / 100_000,
      speed_kph: kph,
      bearing_deg: 90,
    });
    await send(t, v, [
      engine(S, 'on', { lat: 39.8, lon: -89.65 }),
      fix(S + 10, 0),
      fix(S + 400, 0),
      fix(S + 410, 80),
      {
        type: 'acceleration',
        time: iso(S + 420),
        longitudinal_g: -0.5,
        duration_ms: 1000,
        speed_kph: 80,
        end_speed_kph: 60,
        lat: 39.8,
        lon: -89.6,
      },
      fix(S + 430, 80),
    ]);
    await settle(t);
  });
  const get = async (url: string, headers: Record<string, string> = {}) => {
    const res = await t.call({ method: 'GET', url, headers });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };

  test("location history v1 and v3: the UTC day without the header, the zone's day with it", async () => {
    const v1 = (date: string, h = {}) =>
      get(`/v1/vehicle_locations/${v.vehicle.id}?date=${date}`, h).then((b) => b.vehicle_locations.length);
    assert.equal(await v1(NEXT), 5);
    assert.equal(await v1(DAY), 0);
    assert.equal(await v1(DAY, EASTERN), 5);
    const v3 = (date: string, h = {}) =>
      get(`/v3/vehicle_locations/${v.vehicle.id}?start_date=${date}&end_date=${date}`, h).then(
        (b) => b.vehicle_locations.length,
      );
    assert.equal(await v3(NEXT), 5);
    assert.equal(await v3(DAY, EASTERN), 5);
  });

  test('driver performance events: UTC days without the header', async () => {
    const n = async (date: string, h = {}) =>
      assertList(
        {
          status: 200,
          body: await get(
            `/v1/driver_performance_events?vehicle_ids=${v.vehicle.id}&start_date=${date}&end_date=${date}`,
            h,
          ),
        },
        'driver_performance_events',
        'driver_performance_event',
      ).length;
    assert.equal(await n(NEXT), 1);
    assert.equal(await n(DAY), 0);
    assert.equal(await n(DAY, EASTERN), 1);
  });

  test('idle events stay on company-local days', async () => {
    const n = async (date: string, h = {}) =>
      (await get(`/v1/idle_events?vehicle_ids=${v.vehicle.id}&start_date=${date}&end_date=${date}`, h)).idle_events
        .length;
    assert.equal(await n(DAY), 1, 'the evening in New York');
    assert.equal(await n(NEXT, { 'x-time-zone': 'UTC' }), 1);
  });
});
