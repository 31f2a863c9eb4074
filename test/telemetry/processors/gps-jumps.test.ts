/**
 * A phone's bad fix (a position tens of kilometres off for a moment) is a GPS jump: a move between two
 * fixes faster than the device protocol's 400 km/h implies no speed and adds no distance to a driving
 * period measured by its fixes (no odometer). At 400 km/h exactly it is still driving.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEG_PER_KM, LAT, LON, fix, only, run } from './build.js';
import { haversineM } from '../../../src/telemetry/units.js';
import { speedOf } from '../../../src/telemetry/processors/motion.js';

/** A fix without a speed (as phones send), `km` east of LON. */
const at = (s: number, km: number) => fix(s, null, { lon: LON + km * DEG_PER_KM });
const km = (a: number, b: number) => haversineM(LAT, LON + a * DEG_PER_KM, LAT, LON + b * DEG_PER_KM) / 1000;

test('a 52 km jump in 3 s adds nothing to the period; the drive around it does', () => {
  // 60 km/h for two minutes (1 km per minute), a fix 52 km off for 3 s, and back on the road.
  const records = [at(0, 0), at(30, 0.5), at(60, 1), at(63, 53), at(66, 1.05), at(90, 1.5), at(120, 2)];
  // Then standing until the period has ended (stop + DRIVING_STOP_TIMEOUT_S).
  for (let s = 150; s <= 600; s += 30) records.push(at(s, 2));
  const periods = only(run(records).outputs, 'period').map((o) => o.row);
  const period = periods[periods.length - 1];
  assert.notEqual(period.end, null);
  assert.equal(new Set(periods.map((p) => p.start)).size, 1, 'one period: the jump did not split it');
  // The period opens at the first fix with a speed (the one at 30 s, 60 km/h implied); the road's own
  // segments count from there, the two legs to and from the bad fix do not.
  assert.equal(period.start, records[1].t);
  const road = km(0.5, 1) + km(1.05, 1.5) + km(1.5, 2);
  assert.ok(Math.abs(period.distanceKm! - road) < 1e-9, `${period.distanceKm} km for ${road} km of road`);
});

test('the speed a bad fix implies is unknown; at 400 km/h exactly it is still a speed', () => {
  const last = { t: 0, lat: LAT, lon: LON, km: null, description: null };
  const jump = { ...at(3, 52), lat: LAT, lon: LON + 52 * DEG_PER_KM, t: 3000 };
  assert.equal(speedOf(jump, last, 600), null);
  // 400 km/h: 1/9 km in 1 s.
  const fast = { ...at(1, 0), lat: LAT, lon: LON + (400 / 3600) * DEG_PER_KM, t: 1000 };
  const kph = speedOf(fast, last, 600)!;
  assert.ok(Math.abs(kph - 400) < 0.5, String(kph));
});
