/**
 * The reference US state outlines (the Census Bureau's 1:500,000 cartographic boundaries, 2014; one
 * GeoJSON file per state in `../shared/data/us-states-500k/` next to the repository, or
 * IFTA_REFERENCE_DIR), for the tests and benchmarks that measure the shipped boundary data against
 * them: which states are there, and the exact distance per state along a polyline (cut where it
 * crosses a reference outline, each piece placed by point-in-polygon). docs/ifta.md, "Boundary data".
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { crossingParam, distanceKm, toX } from '../../../src/domain/ifta/geometry.js';
import { US_DISTRICT, US_STATES } from '../../../src/domain/jurisdictions.js';
import type { LatLon } from './tracks.js';
import { REPO } from '../../repo.js';

export const REFERENCE_DIR = process.env.IFTA_REFERENCE_DIR ?? join(REPO, '../shared/data/us-states-500k/');

/** The 50 states and DC (the reference also has territories, which are not jurisdictions). */
export const REFERENCE_CODES: readonly string[] = [...US_STATES, ...US_DISTRICT].sort();

export const referenceAvailable = (): boolean =>
  REFERENCE_CODES.every((c) => existsSync(`${REFERENCE_DIR}/${c}.geojson`));

export interface ReferenceState {
  code: string;
  polygons: number[][][][];
  bbox: [number, number, number, number];
}

let cache: ReferenceState[] | null = null;

/** Every reference state as MultiPolygon coordinates ([lon, lat]) with its bounding box in x (geometry.ts). */
export function referenceStates(): ReferenceState[] {
  return (cache ??= REFERENCE_CODES.map((code) => {
    const g = JSON.parse(readFileSync(`${REFERENCE_DIR}/${code}.geojson`, 'utf8'));
    const geom = g.type === 'Feature' ? g.geometry : g;
    const polygons: number[][][][] = geom.type === 'Polygon' ? [geom.coordinates] : geom.coordinates;
    const bbox: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const p of polygons)
      for (const r of p)
        for (const [lon, lat] of r) {
          const x = toX(lon);
          bbox[0] = Math.min(bbox[0], x);
          bbox[1] = Math.min(bbox[1], lat);
          bbox[2] = Math.max(bbox[2], x);
          bbox[3] = Math.max(bbox[3], lat);
        }
    return { code, polygons, bbox };
  }));
}

const meets = (b: ReferenceState['bbox'], x0: number, y0: number, x1: number, y1: number) =>
  b[0] <= x1 && b[2] >= x0 && b[1] <= y1 && b[3] >= y0;

/** The reference state containing a point, or null. */
export function referenceStateAt(lat: number, lon: number): string | null {
  const x = toX(lon);
  for (const s of referenceStates()) {
    if (
      meets(s.bbox, x, lat, x, lat) &&
      booleanPointInPolygon([lon, lat], { type: 'MultiPolygon', coordinates: s.polygons })
    )
      return s.code;
  }
  return null;
}

/**
 * Kilometres per state along the polyline through `waypoints` ([lat, lon]), measured like the test
 * tracks (tracks.ts: distanceKm per leg); what lies in no reference state is counted under
 * `outside` (a Canadian province on a track into Canada), else under '--'.
 */
export function referenceKm(waypoints: LatLon[], outside = '--'): Record<string, number> {
  const out: Record<string, number> = {};
  for (let w = 0; w + 1 < waypoints.length; w++) {
    const [lat1, lon1] = waypoints[w],
      [lat2, lon2] = waypoints[w + 1];
    const px = toX(lon1),
      qx = toX(lon2);
    const x0 = Math.min(px, qx),
      x1 = Math.max(px, qx),
      y0 = Math.min(lat1, lat2),
      y1 = Math.max(lat1, lat2);
    const ts = [0, 1];
    for (const s of referenceStates()) {
      if (!meets(s.bbox, x0, y0, x1, y1)) continue;
      for (const p of s.polygons)
        for (const r of p)
          for (let i = 0; i + 1 < r.length; i++) {
            const ax = toX(r[i][0]),
              ay = r[i][1],
              bx = toX(r[i + 1][0]),
              by = r[i + 1][1];
            if (Math.max(ax, bx) < x0 || Math.min(ax, bx) > x1 || Math.max(ay, by) < y0 || Math.min(ay, by) > y1)
              continue;
            const t = crossingParam(px, lat1, qx, lat2, ax, ay, bx, by);
            if (t > 0 && t < 1) ts.push(t);
          }
    }
    ts.sort((a, b) => a - b);
    const legKm = distanceKm(px, lat1, qx, lat2);
    for (let i = 0; i + 1 < ts.length; i++) {
      if (ts[i + 1] - ts[i] <= 0) continue;
      const tm = (ts[i] + ts[i + 1]) / 2;
      const code = referenceStateAt(lat1 + (lat2 - lat1) * tm, lon1 + (lon2 - lon1) * tm) ?? outside;
      out[code] = (out[code] ?? 0) + (ts[i + 1] - ts[i]) * legKm;
    }
  }
  return out;
}
