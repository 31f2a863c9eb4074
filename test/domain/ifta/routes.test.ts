/**
 * The allocator on the shipped boundary data (src/domain/ifta/boundary-data/): known routes with known distances per
 * state, each within 0.5 % and summing to the odometer; the index agrees with turf's point-in-polygon;
 * the outlines cover every jurisdiction.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { allocate, DEFAULT_RULES } from '../../../src/domain/ifta/allocate.js';
import {
  jurisdictionAt,
  jurisdictionIndex,
  jurisdictionOutlines,
  loadShapes,
  nearestJurisdiction,
} from '../../../src/domain/ifta/boundaries.js';
import { JURISDICTIONS } from '../../../src/domain/jurisdictions.js';
import { along, byCode, concat, km, odoSpan, sum, within, type LatLon } from './tracks.js';

const idx = jurisdictionIndex();
const T0 = Date.parse('2024-05-06T12:00:00Z');
const run = (tr: Parameters<typeof allocate>[0]) => allocate(tr, idx, DEFAULT_RULES);
const close = (a: number, b: number, eps = 1e-6) => assert.ok(Math.abs(a - b) <= eps, `${a} ≠ ${b}`);

// The Colorado–Wyoming border (41° N) lies at 40.99835° on the 105th meridian in the data (the Census
// outlines); Utah–Colorado at 109.05994° W and Colorado–Kansas at 102.04486° W along 38.5° N.
const CO_WY = 40.99835;
const UT_CO = -109.05994;
const CO_KS = -102.04486;

test('northbound on the 105th meridian from Colorado into Wyoming: split at the border', () => {
  const a: LatLon = [40.5, -105],
    b: LatLon = [41.5, -105];
  const { track } = along([a, b], { t0: T0, kph: 105 });
  const got = byCode(run(track).fragments, idx.codes);
  assert.deepEqual(Object.keys(got).sort(), ['CO', 'WY']);
  assert.ok(within(got.CO, km(a, [CO_WY, -105])), `CO ${got.CO}`);
  assert.ok(within(got.WY, km([CO_WY, -105], b)), `WY ${got.WY}`);
  close(got.CO + got.WY, odoSpan(track));
});

test('eastbound on 38.5° N through Utah, Colorado and Kansas', () => {
  const a: LatLon = [38.5, -110.5],
    b: LatLon = [38.5, -101];
  const { track } = along([a, b], { t0: T0, kph: 110, odoFactor: 1.013 });
  const got = byCode(run(track).fragments, idx.codes);
  assert.deepEqual(Object.keys(got).sort(), ['CO', 'KS', 'UT']);
  assert.ok(within(got.UT, 1.013 * km(a, [38.5, UT_CO])), `UT ${got.UT}`);
  assert.ok(within(got.CO, 1.013 * km([38.5, UT_CO], [38.5, CO_KS])), `CO ${got.CO}`);
  assert.ok(within(got.KS, 1.013 * km([38.5, CO_KS], b)), `KS ${got.KS}`);
  close(got.UT + got.CO + got.KS, odoSpan(track), 1e-6);
});

test('across the Great Salt Lake: all of it in Utah', () => {
  const { track } = along(
    [
      [41.0, -112.9],
      [41.0, -112.2],
    ],
    { t0: T0 },
  );
  const got = byCode(run(track).fragments, idx.codes);
  assert.deepEqual(Object.keys(got), ['UT']);
  close(got.UT, odoSpan(track));
});

// Florida's outline ends at 79.99431° W on 26.5° N.
test('just off the Florida coast: snapped to Florida within 2 km; 15 km out it is unplaced', () => {
  assert.equal(jurisdictionAt(26.5, -79.98), null);
  assert.equal(nearestJurisdiction(26.5, -79.98)?.code, 'FL');
  assert.equal(nearestJurisdiction(26.5, -79.9), null);
  const near = along(
    [
      [26.5, -80.3],
      [26.5, -79.98],
    ],
    { t0: T0 },
  );
  const g1 = byCode(run(near.track).fragments, idx.codes);
  assert.deepEqual(Object.keys(g1), ['FL']);
  close(g1.FL, odoSpan(near.track));
  const far = along(
    [
      [26.5, -80.3],
      [26.5, -79.85],
    ],
    { t0: T0 },
  );
  const g2 = byCode(run(far.track).fragments, idx.codes);
  assert.ok(g2.FL > km([26.5, -80.3], [26.5, -79.99431]) && g2['--'] > 8, JSON.stringify(g2));
  close(g2.FL + g2['--'], odoSpan(far.track));
});

test('a 45-minute gap from Nebraska into Iowa with the odometer running: split on the straight line, flagged, summing to the odometer', () => {
  // Nebraska–Iowa border (the Missouri) near 41.26° N lies at about 95.93° W.
  const p1: LatLon = [41.26, -96.3],
    p2: LatLon = [41.26, -96.1],
    p3: LatLon = [41.26, -95.7],
    p4: LatLon = [41.26, -95.5];
  const first = along([p1, p2], { t0: T0 });
  const gapKm = km(p2, p3) * 1.15;
  const second = along([p3, p4], {
    t0: first.track.t[first.track.n - 1] + 45 * 60_000,
    odo0: first.track.odo[first.track.n - 1] + gapKm,
  });
  const tr = concat(first.track, second.track);
  const r = run(tr);
  const got = byCode(r.fragments, idx.codes);
  assert.deepEqual(Object.keys(got).sort(), ['IA', 'NE']);
  assert.equal(r.gaps, 1);
  close(
    r.fragments.reduce((s, f) => s + f.gapKm, 0),
    gapKm,
  );
  assert.ok(got.NE > first.km + 0.3 * gapKm && got.IA > second.km + 0.3 * gapKm, JSON.stringify(got));
  close(sum(r.fragments), odoSpan(tr));
});

test('the index agrees with turf point-in-polygon on random points', () => {
  const shapes = loadShapes();
  let seed = 7;
  const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  for (let i = 0; i < 1500; i++) {
    const lat = 25 + rnd() * 35,
      lon = -130 + rnd() * 70;
    const want =
      shapes.find((s) => booleanPointInPolygon([lon, lat], { type: 'MultiPolygon', coordinates: s.polygons }))?.code ??
      null;
    assert.equal(jurisdictionAt(lat, lon), want, `${lat},${lon}`);
  }
  assert.equal(jurisdictionAt(38.9, -77.03), 'DC');
  assert.equal(jurisdictionAt(47.56, -52.71), 'NL');
  assert.equal(jurisdictionAt(61.2, -149.9), 'AK');
  assert.equal(jurisdictionAt(60.72, -135.05), 'YT');
  assert.equal(jurisdictionAt(19.43, -99.13), 'MX'); // Mexico City
  assert.equal(jurisdictionAt(21.3, -157.9), 'HI');
  assert.equal(jurisdictionAt(10, -84), null); // Costa Rica: beyond the data
});

test('simplified outlines: one feature per jurisdiction with its code, IFTA membership and a valid polygon', () => {
  const o = jurisdictionOutlines();
  assert.deepEqual(
    o.features.map((f) => f.properties.code),
    [...JURISDICTIONS],
  );
  const tx = o.features.find((f) => f.properties.code === 'TX')!;
  assert.equal(tx.properties.ifta_member, true);
  assert.equal(o.features.find((f) => f.properties.code === 'DC')!.properties.ifta_member, false);
  assert.deepEqual(o.features.find((f) => f.properties.code === 'MX')!.properties, {
    code: 'MX',
    country: 'MX',
    ifta_member: false,
  });
  for (const f of o.features) {
    assert.ok(f.geometry.coordinates.length > 0, f.properties.code);
    for (const p of f.geometry.coordinates) assert.deepEqual(p[0][0], p[0][p[0].length - 1]);
  }
  assert.ok(JSON.stringify(o).length < 1_600_000);
  assert.equal(jurisdictionOutlines(), o);
});
