/**
 * No phantom miles, on both databases, with records sent through the device API and no odometer: a
 * parked hour of 1-second fixes with 8 m of GPS error (per axis) between two drives adds nothing to
 * the day's miles, whether the fixes report speed 0 and their accuracy or only the ignition off.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { eachDialect, useApp, type TestApp } from '../../helper.js';
import { rig, send, settle, DAY, type Rig } from '../../telemetry/fixtures.js';
import { along, parked, type LatLon } from './tracks.js';
import { get, items, mi, near } from './http-fixtures.js';
import type { Track } from '../../../src/domain/ifta/rules.js';

const T0 = Date.parse(`${DAY}T14:00:00Z`);
const A: LatLon = [39.8, -89.75],
  B: LatLon = [39.8, -89.65],
  C: LatLon = [39.8, -89.55];

/** Device records of a track; `extra` adds fields to each (speed, accuracy, ignition). */
function records(tr: Track, extra: (i: number) => Record<string, unknown>) {
  const out = [];
  for (let i = 0; i < tr.n; i++)
    out.push({ type: 'location', time: new Date(tr.t[i]).toISOString(), lat: tr.lat[i], lon: tr.lon[i], ...extra(i) });
  return out;
}

async function sendAll(t: TestApp, r: Rig, recs: Array<Record<string, unknown>>) {
  for (let i = 0; i < recs.length; i += 1000) await send(t, r, recs.slice(i, i + 1000));
}

eachDialect('ifta stationary', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let stopAndGo: Rig, ignitionOff: Rig;
  let driven: number;
  const day = async (r: Rig) =>
    items(
      await get(t, `/v1/ifta/trips?start_date=${DAY}&end_date=${DAY}&vehicle_ids=${r.vehicle.id}`, {
        'X-Time-Zone': 'UTC',
      }),
    );

  before(async () => {
    t = await getApp();
    stopAndGo = await rig(t);
    ignitionOff = await rig(t);
    // Ten kilometres east, an hour parked at B (speed 0, accuracy 8 m), ten kilometres on.
    const first = along([A, B], { t0: T0, noOdo: true });
    const stop = parked(B, { t0: first.track.t[first.track.n - 1] + 1000, seconds: 3600, sigmaM: 8, seed: 11 });
    const second = along([B, C], { t0: stop.t[stop.n - 1] + 1000, noOdo: true });
    driven = first.km + second.km;
    await sendAll(t, stopAndGo, [
      ...records(first.track, () => ({ speed_kph: 90 })),
      ...records(stop, () => ({ speed_kph: 0, accuracy_m: 8 })),
      ...records(second.track, () => ({ speed_kph: 90 })),
    ]);
    // An hour parked, the fixes saying only that the ignition is off.
    await sendAll(
      t,
      ignitionOff,
      records(parked(B, { t0: T0, seconds: 3600, sigmaM: 8, seed: 12 }), () => ({ ignition: false })),
    );
    await settle(t);
  });

  test("a parked hour between two drives adds nothing: the day has the two drives' miles", async () => {
    const rows = await day(stopAndGo);
    assert.deepEqual(
      rows.map((r) => r.jurisdiction),
      ['IL'],
    );
    near(rows[0].distance, mi(driven), 0);
    assert.equal(rows[0].start_odometer, null);
  });

  test('a parked hour with the ignition off adds nothing', async () => {
    const rows = await day(ignitionOff);
    assert.ok(
      rows.every((r) => r.distance <= 0.01),
      JSON.stringify(rows.map((r) => r.distance)),
    );
    const summary = items(
      await get(t, `/v1/ifta/summary?start_date=${DAY}&end_date=${DAY}&vehicle_ids=${ignitionOff.vehicle.id}`, {
        'X-Time-Zone': 'UTC',
      }),
    );
    assert.ok(summary.reduce((s, r) => s + r.distance, 0) <= 0.01);
  });
});
