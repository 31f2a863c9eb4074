/**
 * The gateway's power (docs/device-protocol.md `power` records, docs/webhooks.md): the status processor
 * announces a disconnect when the gateway reports losing the vehicle's power, and its end when the power
 * is back, once each; reports of the state the vehicle is already in change nothing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LAT, LON, drive, engineRec, loginRec, only, rec, run, s, sec } from './build.js';
import { initialState, runPipeline } from '../../../src/telemetry/processors/pipeline.js';
import { DEFAULT_THRESHOLDS } from '../../../src/telemetry/thresholds.js';

const power = (at: number, state: 'disconnected' | 'connected', fields = {}) =>
  rec(at, 'power', { data: { state }, ...fields });
const gateway = (records: ReturnType<typeof rec>[]) =>
  only(run(records).outputs, 'gateway').map((g) => ({
    disconnected: g.disconnected,
    since: sec(g.since),
    t: sec(g.t),
    driverId: g.driverId,
    lat: g.lat,
  }));

test('a disconnect, then its end: the end carries when it started', () => {
  assert.deepEqual(
    gateway([loginRec(0, 42), power(100, 'disconnected', { lat: LAT, lon: LON }), power(700, 'connected')]),
    [
      { disconnected: true, since: 100, t: 100, driverId: 42, lat: LAT },
      { disconnected: false, since: 100, t: 700, driverId: 42, lat: null },
    ],
  );
});

test('repeated reports of the same state announce nothing more; a connected report without a disconnect announces nothing', () => {
  assert.deepEqual(gateway([power(0, 'connected'), power(50, 'connected')]), []);
  assert.deepEqual(
    gateway([power(100, 'disconnected'), power(160, 'disconnected'), power(400, 'connected'), power(500, 'connected')]),
    [
      { disconnected: true, since: 100, t: 100, driverId: null, lat: null },
      { disconnected: false, since: 100, t: 400, driverId: null, lat: null },
    ],
  );
  // A second disconnect after the end is a new one.
  assert.deepEqual(
    gateway([power(100, 'disconnected'), power(400, 'connected'), power(900, 'disconnected')]).map((g) => [
      g.disconnected,
      g.since,
      g.t,
    ]),
    [
      [true, 100, 100],
      [false, 100, 400],
      [true, 900, 900],
    ],
  );
});

test('the disconnect is kept in the persisted state across batches, and left out of it while connected', () => {
  const env = { th: DEFAULT_THRESHOLDS, geofences: [] };
  const first = runPipeline(initialState(), [engineRec(0, 'on'), power(10, 'disconnected')], env);
  assert.equal(first.state.status.unpluggedAt, s(10));
  const saved = JSON.parse(JSON.stringify(first.state));
  const second = runPipeline(saved, [...drive(20, 60, 50), power(70, 'connected')], env);
  assert.deepEqual(
    only(second.outputs, 'gateway').map((g) => [sec(g.since), sec(g.t)]),
    [[10, 70]],
  );
  assert.equal('unpluggedAt' in second.state.status, false);
  // A state saved before the field existed reads as connected.
  const old = runPipeline(
    { ...initialState(), status: { engine: 'on', driverId: null, special: null, pto: false } },
    [power(5, 'connected')],
    env,
  );
  assert.deepEqual(only(old.outputs, 'gateway'), []);
});

test('power records do not touch the engine state, driving periods or idling', () => {
  const records = [
    engineRec(0, 'on'),
    power(5, 'disconnected'),
    ...drive(10, 300, 60),
    power(310, 'connected'),
    ...drive(320, 400, 60, { lon0: LON + 0.1 }),
  ];
  const out = run(records).outputs;
  assert.deepEqual(
    only(out, 'engine').map((e) => e.on),
    [true],
  );
  const withoutPower = run(records.filter((r) => r.type !== 'power')).outputs.filter((o) => o.kind !== 'gateway');
  assert.deepEqual(
    out.filter((o) => o.kind !== 'gateway'),
    withoutPower,
  );
});
