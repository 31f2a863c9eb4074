import { jurisdictionAt, nearestJurisdiction } from '../src/domain/ifta/boundaries.ts';
for (const lat of [25.8, 26.5, 27.0, 29.0]) {
  let last = null; for (let lon = -80.4; lon < -79.8; lon += 0.001) { const j = jurisdictionAt(lat, lon); if (j !== 'FL' && last === 'FL') { console.log('FL coast at', lat, lon.toFixed(3)); break; } last = j; }
}
console.log(jurisdictionAt(41.1, -112.5), jurisdictionAt(41.0, -112.7), jurisdictionAt(26.95, -80.8));
// great salt lake crossing line lat 41.0 from -112.9 to -112.2
const seen = new Set(); for (let lon = -112.9; lon < -112.2; lon += 0.001) seen.add(jurisdictionAt(41.0, lon)); console.log([...seen]);
for (const lon of [-102.1, -102.06, -102.05, -102.04, -102.03]) console.log(lon, jurisdictionAt(38.5, lon));
for (const lon of [-109.06, -109.05, -109.046, -109.04]) console.log(lon, jurisdictionAt(38.5, lon));
