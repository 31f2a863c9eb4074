/**
 * Geofence rules at their boundaries (docs/reference/domain-rules.md §4.2, §7 D-4): the radius (inside at it), the exit
 * buffer of radius + 50 m, the accuracy limit of 100 m (kept at it), and the 10-minute gap (still
 * interpolated at exactly 600 s). Distances are placed exactly with the haversine formula turf uses.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boundsOf, contains, distanceM, type GeofenceShape } from '../../../src/domain/geofences/geometry.js';
import { fix, only, run, sec, LAT, LON } from './build.js';

const R = 6_371_008.8;
/** The longitude `m` meters east of the centre along LAT (great-circle distance). */
const lonAt = (m: number) =>
  LON + (2 * Math.asin(Math.sin(m / (2 * R)) / Math.cos((LAT * Math.PI) / 180)) * 180) / Math.PI;
const circle: GeofenceShape = { shape: 'circle', center: { lat: LAT, lon: LON }, radius_m: 1000 };
const fences = [{ id: 1, shape: circle, bounds: boundsOf(circle) }];
const ping = (s: number, m: number, extra = {}) => fix(s, 30, { lon: lonAt(m), ...extra });
/** Events with their times in whole seconds (crossings are interpolated to the millisecond). */
const events = (records: ReturnType<typeof fix>[]) =>
  only(run(records, {}, fences).outputs, 'geofence').map((o) => [
    o.event,
    Math.round(sec(o.row.start)!),
    o.row.end === null ? null : Math.round(sec(o.row.end)!),
  ]);

test('the placement is exact to a millimetre', () => {
  assert.ok(Math.abs(distanceM(circle.center, { lat: LAT, lon: lonAt(1000) }) - 1000) < 1e-3);
});

test('containment: the radius is inside, a decimetre beyond is not; the exit buffer adds 50 m', () => {
  assert.equal(contains(circle, { lat: LAT, lon: lonAt(999.9) }), true);
  assert.equal(contains(circle, { lat: LAT, lon: lonAt(1000.1) }), false);
  assert.equal(contains(circle, { lat: LAT, lon: lonAt(1049.9) }, 50), true);
  assert.equal(contains(circle, { lat: LAT, lon: lonAt(1050.1) }, 50), false);
});

test('a vehicle inside is not out until beyond radius + 50 m, twice', () => {
  const inside = [ping(0, 2000), ping(10, 900), ping(20, 800)];
  const out = events([...inside, ping(30, 1050.1), ping(40, 1050.1)]);
  assert.deepEqual(
    out.map((e) => e[0]),
    ['entered', 'exited'],
  );
  assert.deepEqual(
    events([...inside, ping(30, 1049.9), ping(40, 1049.9)]).map((e) => e[0]),
    ['entered'],
  );
});

test('accuracy: a ping at exactly 100 m counts, a worse one is ignored', () => {
  const approach = [ping(0, 2000), ping(10, 1500)];
  assert.deepEqual(
    events([
      ...approach,
      ping(20, 500, { data: { accuracy_m: 100 } }),
      ping(30, 400, { data: { accuracy_m: 100 } }),
    ]).map((e) => e[0]),
    ['entered'],
  );
  assert.deepEqual(
    events([
      ...approach,
      ping(20, 500, { data: { accuracy_m: 100.1 } }),
      ping(30, 400, { data: { accuracy_m: 100.1 } }),
    ]),
    [],
  );
});

test('gap: exactly 600 s between the sides is still interpolated; 601 s is not', () => {
  // Outside at km 2 at 0 s, inside at 0 m at 600 s (or 601 s): the crossing at 1 km is half-way.
  assert.deepEqual(events([ping(-10, 2000), ping(0, 2000), ping(600, 0), ping(610, 0)]), [['entered', 300, null]]);
  assert.deepEqual(events([ping(-10, 2000), ping(0, 2000), ping(601, 0), ping(611, 0)]), [['entered', 601, null]]);
});
