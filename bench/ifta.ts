/**
 * IFTA allocator benchmark: a quarter (91 days) of 10-second points for 100 vehicles — 786,240 points
 * a vehicle, 78.6 million in all — allocated to jurisdictions by the pure allocator (cleaning, gaps,
 * odometer spans, border splits, 15-minute buckets, day owners) on the real boundary data. Only the
 * allocator is timed, not the generation of the points. Target: ≥ 2,000,000 points/s (issue 26). It
 * also reports the shipped boundary data's size, the time to read and decode it and to build the index.
 *
 *   npx tsx bench/ifta.ts
 *
 * Each vehicle drives 11 hours a day along a slowly turning heading at 60–110 km/h inside 32–47° N,
 * 119–81° W (the contiguous US and a strip of Canada; bouncing off the edges), and stands the other 13 hours with
 * 5 m GPS jitter; the odometer has 0.1 km resolution; one day in twenty has a 30-minute coverage gap
 * and one point in 50,000 is a wild jump. Deterministic (seeded).
 *
 * Environment: IFTA_BENCH_VEHICLES (default 100), IFTA_BENCH_DAYS (default 91). Writes the numbers to
 * bench/results/ifta.json (git-ignored) and prints them.
 */
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { allocate, DEFAULT_RULES } from '../src/domain/ifta/allocate.js';
import { BOUNDARY_DATA_URL, loadShapes } from '../src/domain/ifta/boundaries.js';
import { JurisdictionIndex } from '../src/domain/ifta/grid-index.js';
import type { Track } from '../src/domain/ifta/rules.js';

const VEHICLES = Number(process.env.IFTA_BENCH_VEHICLES ?? 100);
const DAYS = Number(process.env.IFTA_BENCH_DAYS ?? 91);
const STEP_S = 10;
const PER_DAY = 86_400 / STEP_S;
const START = Date.parse('2024-01-01T00:00:00Z');
const TARGET = 2_000_000;
const log = (m: string) => process.stderr.write(`[ifta-bench] ${m}\n`);

function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

/** One vehicle's quarter, into preallocated arrays. */
function generate(v: number, tr: Track): void {
  const r = rng(0x9e3779b9 ^ (v * 2654435761));
  let lat = 33 + r() * 13;
  let lon = -118 + r() * 36;
  let heading = r() * Math.PI * 2;
  let odo = 100_000 + r() * 400_000;
  const driveStart = Math.floor(((5 + r() * 6) * 3600) / STEP_S);
  const driveLen = (11 * 3600) / STEP_S;
  let i = 0;
  for (let d = 0; d < DAYS; d++) {
    const gapAt = r() < 0.05 ? Math.floor(r() * PER_DAY) : -1;
    const speed = 60 + r() * 50;
    for (let k = 0; k < PER_DAY; k++, i++) {
      tr.t[i] = START + i * STEP_S * 1000;
      const driving = k >= driveStart && k < driveStart + driveLen;
      if (driving) {
        heading += (r() - 0.5) * 0.02;
        const kmStep = (speed * STEP_S) / 3600;
        lat += (kmStep * Math.cos(heading)) / 111.2;
        lon += (kmStep * Math.sin(heading)) / (111.2 * Math.cos((lat * Math.PI) / 180));
        if (lat < 32 || lat > 47) heading = Math.PI - heading;
        if (lon < -119 || lon > -81) heading = -heading;
        odo += kmStep;
      }
      tr.lat[i] = lat + (driving ? 0 : (r() - 0.5) * 9e-5);
      tr.lon[i] = lon + (driving ? 0 : (r() - 0.5) * 1.2e-4);
      tr.odo[i] = Math.floor(odo * 10) / 10;
      if (gapAt >= 0 && k >= gapAt && k < gapAt + 180) tr.lat[i] = NaN;
      if (r() < 2e-5) tr.lat[i] += 3;
    }
  }
}

async function main() {
  const n = DAYS * PER_DAY;
  log(`reading the boundary data and building the jurisdiction index`);
  const t0 = performance.now();
  const shapes = loadShapes();
  const loadMs = performance.now() - t0;
  const index = new JurisdictionIndex(shapes);
  const indexMs = performance.now() - t0 - loadMs;
  const tr: Track = {
    n,
    t: new Float64Array(n),
    lat: new Float64Array(n),
    lon: new Float64Array(n),
    odo: new Float64Array(n),
  };
  let allocMs = 0;
  let points = 0;
  let fragments = 0;
  let km = 0;
  let gaps = 0;
  const perJurisdiction = new Map<string, number>();
  for (let v = 0; v < VEHICLES; v++) {
    generate(v, tr);
    const a = performance.now();
    const res = allocate(tr, index, DEFAULT_RULES);
    allocMs += performance.now() - a;
    points += n;
    fragments += res.fragments.length;
    km += res.totalKm;
    gaps += res.gaps;
    for (const f of res.fragments) {
      const code = f.j >= 0 ? index.codes[f.j] : '--';
      perJurisdiction.set(code, (perJurisdiction.get(code) ?? 0) + f.distanceKm);
    }
    if ((v + 1) % 10 === 0)
      log(
        `${v + 1}/${VEHICLES} vehicles, ${Math.round(points / (allocMs / 1000)).toLocaleString('en-US')} points/s so far`,
      );
  }
  const pps = Math.round(points / (allocMs / 1000));
  const result = {
    scenario: 'ifta-allocator',
    vehicles: VEHICLES,
    days: DAYS,
    points,
    allocator_ms: Math.round(allocMs),
    points_per_s: pps,
    target_points_per_s: TARGET,
    pass: pps >= TARGET,
    boundary_data_bytes: statSync(BOUNDARY_DATA_URL).size,
    boundary_load_ms: Math.round(loadMs),
    index_build_ms: Math.round(indexMs),
    index: index.stats(),
    fragments,
    total_km: Math.round(km),
    gaps,
    jurisdictions: perJurisdiction.size,
    unplaced_km: Math.round(perJurisdiction.get('--') ?? 0),
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model,
      node: process.version,
      loadavg_at_end: loadavg().map((l) => Math.round(l * 100) / 100),
    },
    at: new Date().toISOString(),
  };
  console.log(
    `IFTA allocator: ${points.toLocaleString('en-US')} points (${VEHICLES} vehicles × ${DAYS} days of 10-second points) in ${(allocMs / 1000).toFixed(1)} s = ${pps.toLocaleString('en-US')} points/s — ${result.pass ? 'PASS' : 'FAIL'} (target ${TARGET.toLocaleString('en-US')}); ${fragments.toLocaleString('en-US')} fragments, ${Math.round(km).toLocaleString('en-US')} km in ${perJurisdiction.size} jurisdictions; boundary data ${result.boundary_data_bytes.toLocaleString('en-US')} bytes read in ${Math.round(loadMs)} ms, index built in ${Math.round(indexMs)} ms`,
  );
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(new URL('./results/ifta.json', import.meta.url), JSON.stringify(result, null, 2) + '\n');
  console.log(JSON.stringify(result));
}

await main();
