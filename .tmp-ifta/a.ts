import { allocate, DEFAULT_RULES } from '../src/domain/ifta/allocate.ts';
import { jurisdictionIndex } from '../src/domain/ifta/boundaries.ts';
import { distanceKm } from '../src/domain/ifta/geometry.ts';
const idx = jurisdictionIndex();
function track(pts: Array<[number, number]>, everyS: number, t0: number, odo0 = 1000) {
  const n = pts.length; const t = new Float64Array(n), lat = new Float64Array(n), lon = new Float64Array(n), odo = new Float64Array(n);
  let o = odo0;
  for (let i = 0; i < n; i++) { t[i] = t0 + i * everyS * 1000; lat[i] = pts[i][0]; lon[i] = pts[i][1]; if (i) o += distanceKm(pts[i-1][1], pts[i-1][0], pts[i][1], pts[i][0]); odo[i] = o; }
  return { n, t, lat, lon, odo };
}
const pts: Array<[number, number]> = [];
for (let i = 0; i <= 400; i++) pts.push([40.5 + i * 0.0025, -105]);
const tr = track(pts, 10, Date.parse('2024-01-10T14:00:00Z'));
const r = allocate(tr, idx, DEFAULT_RULES);
const by: Record<string, number> = {};
for (const f of r.fragments) by[f.j < 0 ? '--' : idx.codes[f.j]] = (by[f.j < 0 ? '--' : idx.codes[f.j]] ?? 0) + f.distanceKm;
console.log(by, r.totalKm, tr.odo[tr.n-1] - tr.odo[0], 'expected CO', distanceKm(-105, 40.5, -105, 40.99983));
console.log(r.fragments.slice(0, 3));
// bench
const N = 800_000; const t = new Float64Array(N), lat = new Float64Array(N), lon = new Float64Array(N), odo = new Float64Array(N);
let la = 38.5, lo = -110, o = 0;
for (let i = 0; i < N; i++) { t[i] = 1704067200000 + i * 10000; const step = 0.0035; lo += step * Math.cos(i / 5000); la += step * 0.3 * Math.sin(i / 3000); if (lo > -75) lo = -110; o += 0.28; lat[i] = la; lon[i] = lo; odo[i] = o; }
for (let k = 0; k < 3; k++) { const t0 = performance.now(); const rr = allocate({ n: N, t, lat, lon, odo }, idx, DEFAULT_RULES); const ms = performance.now() - t0; console.log('pts/s', (N / ms * 1000).toFixed(0), rr.fragments.length, rr.totalKm.toFixed(1), rr.gaps); }
