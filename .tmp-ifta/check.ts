import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { loadShapes, jurisdictionIndex, jurisdictionAt, nearestJurisdiction, jurisdictionOutlines } from '../src/domain/ifta/boundaries.ts';
let t0 = performance.now();
const shapes = loadShapes();
console.log('load ms', performance.now() - t0);
t0 = performance.now();
const idx = jurisdictionIndex();
console.log('build ms', performance.now() - t0, idx.stats());
let rnd = 12345; const R = () => (rnd = (rnd * 1103515245 + 12345) % 2147483648) / 2147483648;
let mism = 0, n = 20000, inside = 0;
for (let i = 0; i < n; i++) {
  const lat = 24 + R() * 30, lon = -125 + R() * 70;
  const got = jurisdictionAt(lat, lon);
  let exp: string | null = null;
  for (const s of shapes) { if (booleanPointInPolygon([lon, lat], { type: 'MultiPolygon', coordinates: s.polygons } as any)) { exp = s.code; break; } }
  if (exp) inside++;
  if (got !== exp) { mism++; if (mism < 10) console.log('mismatch', lat, lon, got, exp); }
}
console.log('mismatches', mism, 'of', n, 'inside', inside);
console.log(jurisdictionAt(39.74, -104.99), jurisdictionAt(43.5, -87.0), jurisdictionAt(47.5, -52.7), jurisdictionAt(52.0, -177.0), jurisdictionAt(52.0, 177.5), jurisdictionAt(38.9, -77.03));
console.log(nearestJurisdiction(26.0, -80.05), nearestJurisdiction(25.5, -79.0));
t0 = performance.now(); let c = 0;
for (let i = 0; i < 2e6; i++) { const lat = 30 + (i % 1000) * 0.01, lon = -100 + (i % 777) * 0.013; c += idx.locate(lon, lat); }
console.log('locate/s', 2e6 / ((performance.now() - t0) / 1000), c);
t0 = performance.now();
const o = jurisdictionOutlines();
console.log('outlines ms', performance.now() - t0, JSON.stringify(o).length);
