/**
 * PTO idling through the device API (docs/reference/domain-rules.md §7 D-3): the idle event carries `pto_active`, and
 * IDLE_EXCLUDE_PTO leaves PTO idling out of /v1/idle_events and utilization; by default it is included.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../helper.js';
import { assertList } from '../http/fixtures.js';
import { DAY, at, engine, rig, send, settle, track } from './fixtures.js';
import { telemetryConfig } from '../../src/telemetry/thresholds.js';

const UTC = { 'x-time-zone': 'UTC' };

/** PTO engaged at the engine start, standing to 400 s, disengaged at 405 s, driving from 410 s; idling again from 620 s to the engine stop. */
async function pumpDay(t: TestApp) {
  const v = await rig(t);
  const res = await send(t, v, [
    engine(0, 'on', { lat: 39.8, lon: -89.65, pto: true }),
    ...track({ fromS: 10, toS: 400, kph: 0 }),
    { type: 'location', time: at(405), lat: 39.8, lon: -89.65, speed_kph: 0, pto: false },
    ...track({ fromS: 410, toS: 610, kph: 60 }),
    ...track({ fromS: 620, toS: 1000, kph: 0, lon: -89.61 }),
    engine(1010, 'off', { lat: 39.8, lon: -89.61 }),
  ]);
  assert.equal(res.rejected, 0, JSON.stringify(res.results));
  await settle(t);
  const idle = assertList(
    await t.call({
      method: 'GET',
      url: `/v1/idle_events?vehicle_ids=${v.vehicle.id}&start_date=${DAY}&end_date=${DAY}`,
      headers: UTC,
    }),
    'idle_events',
    'idle_event',
  );
  const [u] = assertList(
    await t.call({
      method: 'GET',
      url: `/v1/vehicle_utilization?vehicle_ids=${v.vehicle.id}&start_date=${DAY}&end_date=${DAY}`,
      headers: UTC,
    }),
    'vehicle_utilizations',
    'vehicle_utilization',
  );
  return {
    idle: idle.map((i: any) => [i.start_time.slice(11, 19), i.end_time.slice(11, 19), i.pto_active]),
    idleTime: u.idle_time,
    drivingTime: u.driving_time,
  };
}

eachDialect('PTO idling, included (the default)', (dialect) => {
  const getApp = useApp(dialect, { TELEMETRY_REORDER_WINDOW_S: '0', TELEMETRY_SWEEP_MS: '0' });
  let t: TestApp;
  before(async () => (t = await getApp()));
  test('both idle events, the first flagged; PTO idle time counts', async () => {
    const day = await pumpDay(t);
    assert.deepEqual(day.idle, [
      ['14:00:00', '14:06:50', true],
      ['14:10:20', '14:16:50', false],
    ]);
    assert.deepEqual([day.idleTime, day.drivingTime], [410 + 390, 210]);
  });
});

eachDialect('PTO idling, excluded (IDLE_EXCLUDE_PTO=true)', (dialect) => {
  const getApp = useApp(dialect, {
    TELEMETRY_REORDER_WINDOW_S: '0',
    TELEMETRY_SWEEP_MS: '0',
    IDLE_EXCLUDE_PTO: 'true',
  });
  let t: TestApp;
  before(async () => (t = await getApp()));
  test('only the event without PTO; the 405 s idled with PTO engaged leave idle time', async () => {
    const day = await pumpDay(t);
    assert.deepEqual(day.idle, [['14:10:20', '14:16:50', false]]);
    assert.deepEqual([day.idleTime, day.drivingTime], [410 + 390 - 405, 210]);
  });
});

test('IDLE_EXCLUDE_PTO: true/false/1/0/on/off/yes/no, default false; anything else is refused by name', () => {
  const fail = (m: string) => new Error(m);
  assert.equal(telemetryConfig({}, fail).idleExcludePto, false);
  for (const [raw, want] of [
    ['true', true],
    ['1', true],
    ['on', true],
    ['yes', true],
    ['false', false],
    ['0', false],
    ['off', false],
    ['no', false],
  ] as const) {
    assert.equal(telemetryConfig({ IDLE_EXCLUDE_PTO: raw }, fail).idleExcludePto, want, raw);
  }
  assert.throws(
    () => telemetryConfig({ IDLE_EXCLUDE_PTO: 'yes please' }, fail),
    /IDLE_EXCLUDE_PTO must be 1 or 0 \(true or false\), got "yes please"/,
  );
});
