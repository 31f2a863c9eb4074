/**
 * Jurisdiction boundaries: the 50 states and DC (the Census Bureau's 1:500,000 cartographic outlines)
 * and the Canadian provinces and territories and Mexico (Natural Earth 1:10m, fitted to the Census line
 * along the US border), shipped inside the repository as one quantized TopoJSON topology,
 * `boundary-data/jurisdictions.topo.json.gz`, built by scripts/build-boundaries.ts. Nothing is
 * downloaded at install or run time. The file is read once, on first use, into a JurisdictionIndex
 * (grid-index.ts). docs/ifta.md, "Boundary data", explains the choice and the accuracy.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import simplify from '@turf/simplify';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { Feature, MultiPolygon } from 'geojson';
import { JURISDICTIONS, countryOf, isIftaMember, type Country } from '../jurisdictions.js';
import { JurisdictionIndex, type GridParts, type Shape } from './grid-index.js';
import { toX } from './geometry.js';

/** Points outside every polygon are snapped to the nearest one within this distance (km). */
export const SNAP_TOLERANCE_KM = 2;

/**
 * The shipped data, found relative to this module: src/domain/ifta/boundary-data/ when the sources run
 * through tsx, and the same place in a compiled copy, which keeps every non-TypeScript file of src/
 * where it was (scripts/build.mjs).
 */
export const BOUNDARY_DATA_URL = new URL('./boundary-data/jurisdictions.topo.json.gz', import.meta.url);

/** The shipped topology, with the build's `meta` (sources, quantization). */
export function readBoundaryTopology(): Topology<{ jurisdictions: GeometryCollection }> & {
  meta: Record<string, unknown>;
} {
  return JSON.parse(gunzipSync(readFileSync(BOUNDARY_DATA_URL)).toString('utf8'));
}

/** Every jurisdiction of src/domain/jurisdictions.ts as MultiPolygon coordinates, in that order. */
export function loadShapes(): Shape[] {
  const topo = readBoundaryTopology();
  const byCode = new Map<string, number[][][][]>();
  for (const g of topo.objects.jurisdictions.geometries) {
    byCode.set(String(g.id), (feature(topo, g) as Feature<MultiPolygon>).geometry.coordinates);
  }
  return JURISDICTIONS.map((code) => {
    const polygons = byCode.get(code);
    if (!polygons) throw new Error(`boundary data: no outline for ${code}`);
    return { code, polygons };
  });
}

let shapes: Shape[] | null = null;
let index: JurisdictionIndex | null = null;

function allShapes(): Shape[] {
  return (shapes ??= loadShapes());
}

/** The side of the index's grid cells, degrees. */
export const GRID_CELL_DEG = 0.1;

/** The index of every jurisdiction, built on first use and kept for the life of the process. */
export function jurisdictionIndex(): JurisdictionIndex {
  return (index ??= new JurisdictionIndex(allShapes(), GRID_CELL_DEG));
}

/** Makes a grid built from loadShapes() on another thread (telemetry/geocode/warm.ts) this process's index. */
export function installJurisdictionGrid(grid: GridParts): void {
  index = new JurisdictionIndex(grid);
}

/** The jurisdiction code containing a point, or null (sea, beyond the data). */
export function jurisdictionAt(lat: number, lon: number): string | null {
  const idx = jurisdictionIndex();
  const j = idx.locate(toX(lon), lat);
  return j >= 0 ? idx.codes[j] : null;
}

/**
 * The jurisdiction containing a point, else the nearest one within `toleranceKm` (coastline
 * generalisation, GPS error), else null.
 */
export function nearestJurisdiction(
  lat: number,
  lon: number,
  toleranceKm = SNAP_TOLERANCE_KM,
): { code: string; distance_km: number } | null {
  const idx = jurisdictionIndex();
  const x = toX(lon);
  const inside = idx.locate(x, lat);
  if (inside >= 0) return { code: idx.codes[inside], distance_km: 0 };
  const j = idx.nearest(x, lat, toleranceKm);
  return j >= 0 ? { code: idx.codes[j], distance_km: idx.lastDistanceKm } : null;
}

export interface OutlineFeature {
  type: 'Feature';
  properties: { code: string; country: Country; ifta_member: boolean };
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
