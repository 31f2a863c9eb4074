/** A polygon geofence with a hole (docs/reference/domain-rules.md §4.2): driving across the hole is an exit and a new entry. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boundsOf, contains, type GeofenceShape } from '../../../src/domain/geofences/geometry.js';
import { fix, only, run, sec, DEG_PER_KM, LAT, LON } from './build.js';

/** km east of LON along LAT. */
const lonAt = (km: number) => LON + km * DEG_PER_KM;
const ring = (fromKm: number, toKm: number, dLat: number) => [
  { lat: LAT - dLat, lon: lonAt(fromKm) },
  { lat: LAT + dLat, lon: lonAt(fromKm) },
  { lat: LAT + dLat, lon: lonAt(toKm) },
  { lat: LAT - dLat, lon: lonAt(toKm) },
];
/** A yard from km 2 to km 8, with a hole (a public road's right of way, say) from km 4 to km 6. */
const yard: GeofenceShape = { shape: 'polygon', points: ring(2, 8, 0.01), holes: [ring(4, 6, 0.005)] };

test("containment: inside the ring and outside the hole; the hole's edge counts as inside", () => {
  assert.equal(contains(yard, { lat: LAT, lon: lonAt(3) }), true);
  assert.equal(contains(yard, { lat: LAT, lon: lonAt(5) }), false);
  assert.equal(contains(yard, { lat: LAT, lon: lonAt(4) }), true);
  assert.equal(contains(yard, { lat: LAT, lon: lonAt(9) }), false);
});

test('a drive east across the yard: entry, exit into the hole, entry out of it, exit', () => {
  const records = Array.from({ length: 41 }, (_, i) => fix(i * 9, 100, { lon: lonAt(i / 4) })); // 100 kph: a fix every 250 m
  const visits = only(run(records, {}, [{ id: 1, shape: yard, bounds: boundsOf(yard) }]).outputs, 'geofence').map(
    (o) => [o.event, Math.round(sec(o.row.start)!), o.row.end === null ? null : Math.round(sec(o.row.end)!)],
  );
  // Crossings interpolated at km 2, 4, 6 and 8: 72 s, 144 s, 216 s, 288 s.
  assert.deepEqual(visits, [
    ['entered', 72, null],
    ['exited', 72, 144],
    ['entered', 216, null],
    ['exited', 216, 288],
  ]);
});
