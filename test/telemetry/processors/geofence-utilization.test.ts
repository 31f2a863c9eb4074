/** Geofence entry/exit (confirmation, hysteresis, interpolation, gaps, first ping, the grid) and utilization buckets. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boundsOf, type GeofenceShape } from '../../../src/domain/geofences/geometry.js';
import type { GeofenceDef } from '../../../src/telemetry/processors/types.js';
import { spread } from '../../../src/telemetry/processors/utilization.js';
import { engineRec, fix, only, run, sec, DEG_PER_KM, LAT, LON, T, drive } from './build.js';
import { initialState, runPipeline } from '../../../src/telemetry/processors/pipeline.js';
import { DEFAULT_THRESHOLDS } from '../../../src/telemetry/thresholds.js';
import { geofenceGrid } from '../../../src/telemetry/processors/geofence-grid.js';

/** A circle of 1 km around (LAT, LON + 5 km), created long before the test data. */
const CENTER_LON = LON + 5 * DEG_PER_KM;
function def(id: number, shape: GeofenceShape): GeofenceDef {
  return { id, shape, bounds: boundsOf(shape) };
}
const circle = def(1, { shape: 'circle', center: { lat: LAT, lon: CENTER_LON }, radius_m: 1000 });
const square = def(2, {
  shape: 'polygon',
  points: [
    { lat: LAT - 0.005, lon: CENTER_LON - 0.01 },
    { lat: LAT + 0.005, lon: CENTER_LON - 0.01 },
    { lat: LAT + 0.005, lon: CENTER_LON + 0.01 },
    { lat: LAT - 0.005, lon: CENTER_LON + 0.01 },
  ],
});

/** A fix `km` east of LON at second `s`. */
const at = (s: number, km: number, extra = {}) => fix(s, 50, { lon: LON + km * DEG_PER_KM, ...extra });

const events = (records: ReturnType<typeof drive>, fences = [circle], th = {}) =>
  only(run(records, th, fences).outputs, 'geofence').map((o) => ({
    event: o.event,
    start: sec(o.row.start),
    end: sec(o.row.end),
  }));

test('geofence events: table of crossings', () => {
  const cases: Array<{
    name: string;
    records: ReturnType<typeof drive>;
    fences?: GeofenceDef[];
    want: Array<{ event: string; start: number | null; end: number | null }>;
  }> = [
    {
      name: 'entry confirmed by 2 pings, stamped at the interpolated crossing (km 4.0 between km 3.5 at 0 s and km 4.5 at 10 s)',
      records: [at(-10, 3), at(0, 3.5), at(10, 4.5), at(20, 4.8)],
      want: [{ event: 'entered', start: 5, end: null }],
    },
    {
      name: 'one ping inside is jitter: nothing',
      records: [at(0, 3.5), at(10, 4.5), at(20, 3.5), at(30, 3.5)],
      want: [],
    },
    {
      name: 'exit after a visit: interpolated at the boundary (km 6.0), with the visit start',
      records: [at(0, 3.5), at(10, 4.5), at(20, 4.8), at(30, 5.5), at(40, 6.5), at(50, 7)],
      want: [
        { event: 'entered', start: 5, end: null },
        { event: 'exited', start: 5, end: 35 },
      ],
    },
    {
      name: 'hysteresis: 30 m beyond the radius is still inside; leaving needs radius + 50 m',
      records: [at(0, 3.5), at(10, 4.5), at(20, 5), at(30, 6.03), at(40, 6.03), at(50, 5.5)],
      want: [{ event: 'entered', start: 5, end: null }],
    },
    {
      name: 'a gap of more than 10 min is not interpolated: entry at the first ping inside',
      records: [at(0, 3.5), at(1000, 4.5), at(1010, 4.6)],
      want: [{ event: 'entered', start: 1000, end: null }],
    },
    {
      name: 'a gap before leaving: exit at the last ping inside',
      records: [at(0, 3.5), at(10, 4.5), at(20, 5), at(2000, 7), at(2010, 7)],
      want: [
        { event: 'entered', start: 5, end: null },
        { event: 'exited', start: 5, end: 20 },
      ],
    },
    {
      name: 'the first ping inside sets the state silently, and that visit ends silently',
      records: [at(0, 5), at(10, 5.1), at(20, 7), at(30, 7.5)],
      want: [],
    },
    {
      name: 'inaccurate pings are ignored',
      records: [at(0, 3.5), at(10, 5, { data: { accuracy_m: 500 } }), at(20, 3.5), at(30, 3.5)],
      want: [],
    },
    {
      name: 'polygon entry (west edge at km 4.145)',
      records: [at(0, 3.5), at(10, 4.5), at(20, 5)],
      fences: [square],
      want: [{ event: 'entered', start: 6, end: null }],
    },
  ];
  for (const c of cases) {
    const got = events(c.records, c.fences);
    const rounded = got.map((e) => ({
      ...e,
      start: e.start === null ? null : Math.round(e.start),
      end: e.end === null ? null : Math.round(e.end),
    }));
    assert.deepEqual(rounded, c.want, c.name);
  }
});

test('a geofence that appears while the vehicle is inside starts silent', () => {
  const env = { th: DEFAULT_THRESHOLDS, geofences: [] as GeofenceDef[] };
  const first = runPipeline(initialState(), [at(0, 3), at(10, 5)], env);
  const next = runPipeline(first.state, [at(20, 5.1), at(30, 5.2), at(40, 8), at(50, 8.5)], {
    ...env,
    geofences: [circle],
  });
  assert.deepEqual(only(next.outputs, 'geofence'), []);
  // Known from then on: the next visit is announced.
  const again = runPipeline(next.state, [at(60, 3.5), at(70, 4.5), at(80, 4.8)], { ...env, geofences: [circle] });
  assert.deepEqual(
    only(again.outputs, 'geofence').map((o) => o.event),
    ['entered'],
  );
});

test('geofence confirmation count is a threshold', () => {
  // With one ping the jitter case of the table becomes a visit.
  const got = events([at(0, 3.5), at(10, 4.5), at(20, 3.5)], [circle], { geofenceConfirmPings: 1 });
  assert.deepEqual(
    got.map((e) => e.event),
    ['entered', 'exited'],
  );
  const three = events([at(0, 3.5), at(10, 4.5), at(20, 4.6), at(30, 4.7)], [circle], { geofenceConfirmPings: 3 });
  assert.deepEqual(
    three.map((e) => [e.event, Math.round(e.start!)]),
    [['entered', 5]],
  );
});

test('utilization: spans split over 15-minute buckets, driving vs idle, gaps count nothing', () => {
  const parts = spread(T + 10 * 60_000, T + 20 * 60_000, {
    driverId: 1,
    drivingS: 600,
    idleS: 0,
    drivingFuelL: 6,
    idleFuelL: 0,
    distanceKm: 10,
    ptoIdleS: 0,
    ptoIdleFuelL: 0,
  });
  assert.deepEqual(
    parts.map((p) => [sec(p.bucketStart), p.drivingS, p.drivingFuelL, p.distanceKm]),
    [
      [0, 300, 3, 5],
      [900, 300, 3, 5],
    ],
  );

  const { outputs } = run([
    engineRec(0, 'on'),
    ...drive(0, 600, 0),
    ...drive(610, 1210, 60, { km0: 100, fuel0: 10, fuelPerS: 0.01 }),
    ...drive(3000, 3010, 0),
  ]);
  const rows = only(outputs, 'utilization').map((o) => o.row);
  const sum = (k: 'drivingS' | 'idleS' | 'distanceKm' | 'drivingFuelL') =>
    Math.round(rows.reduce((a, r) => a + r[k], 0) * 1000) / 1000;
  assert.equal(sum('idleS'), 610 + 10); // standing from the engine start to the first moving fix, and the 10 s at the end
  assert.equal(sum('drivingS'), 600);
  assert.equal(sum('distanceKm'), 10);
  assert.equal(sum('drivingFuelL'), 6);
});

test('the geofence grid changes nothing: a wandering track over many geofences, with and without it', () => {
  let seed = 11;
  const rnd = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const records = [];
  let lat = LAT;
  let lon = LON;
  for (let s = 0; s < 20_000; s += 10) {
    lat += (rnd() - 0.45) * 0.004;
    lon += (rnd() - 0.45) * 0.005;
    // Now and then a jump of tens of kilometers: a geofence is left far behind (its zone must still be seen).
    if (s % 3000 === 0) lon += 0.4;
    records.push(fix(s, 50, { lat, lon }));
  }
  // Geofences scattered along the track (circles and squares, some overlapping), and one far wider than
  // the grid's cells, which is checked for every fix (entered late in the track).
  const fences: GeofenceDef[] = [];
  for (let i = 0; i < 150; i++) {
    const near = records[Math.floor(rnd() * records.length)];
    const flat = near.lat! + (rnd() - 0.5) * 0.02;
    const flon = near.lon! + (rnd() - 0.5) * 0.02;
    fences.push(
      i % 3 === 0
        ? def(i + 1, {
            shape: 'polygon',
            points: [
              { lat: flat, lon: flon },
              { lat: flat + 0.01, lon: flon },
              { lat: flat + 0.01, lon: flon + 0.015 },
              { lat: flat, lon: flon + 0.015 },
            ],
          })
        : def(i + 1, { shape: 'circle', center: { lat: flat, lon: flon }, radius_m: 300 + rnd() * 1500 }),
    );
  }
  fences.push(def(500, { shape: 'circle', center: { lat: LAT, lon: LON + 3 }, radius_m: 150_000 }));
  const th = DEFAULT_THRESHOLDS;
  const plain = runPipeline(initialState(), records, { th, geofences: fences });
  const gridded = runPipeline(
    initialState(),
    records.map((r) => ({ ...r })),
    { th, geofences: fences, geofenceGrid: geofenceGrid(fences) },
  );
  const visits = only(plain.outputs, 'geofence');
  assert.ok(visits.length > 50, `only ${visits.length} crossings`);
  assert.deepEqual(only(gridded.outputs, 'geofence'), visits);
  assert.deepEqual(gridded.state.geofences, plain.state.geofences);
});
