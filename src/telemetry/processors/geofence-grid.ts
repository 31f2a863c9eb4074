/**
 * Which geofences a fix can be near, without comparing it with every geofence of the company: a grid
 * of 0.1° cells over each geofence's bounding box, padded as the geofence processor's own pre-check
 * (`near`) pads it. Geofences spanning more than MAX_CELLS cells are checked for every fix. Built once
 * per processing run; the answer is a superset of what the full scan would find near, in the same
 * order, so the processor's outputs do not change (test/telemetry/processors/geofence-utilization.test.ts).
 */
import type { GeofenceDef } from './types.js';

const CELL_DEG = 0.1;
const MAX_CELLS = 400;
/** The processor's pre-check pads a bounding box by this much latitude, and three times as much longitude. */
export const NEAR_PAD_DEG = 0.01;

export interface GeofenceGrid {
  cells: Map<number, number[]>;
  /** Geofences too large for the grid: always candidates. */
  wide: number[];
  /** Geofence id → position in the run's geofence list. */
  indexOf: Map<number, number>;
}

const row = (lat: number) => Math.floor((lat + 90) / CELL_DEG);
const col = (lon: number) => Math.floor((lon + 180) / CELL_DEG);
const key = (r: number, c: number) => r * 4000 + c;

export function geofenceGrid(defs: GeofenceDef[]): GeofenceGrid {
  const cells = new Map<number, number[]>();
  const wide: number[] = [];
  const indexOf = new Map<number, number>();
  defs.forEach((g, i) => {
    indexOf.set(g.id, i);
    const b = g.bounds;
    const r0 = row(b.min_lat - NEAR_PAD_DEG);
    const r1 = row(b.max_lat + NEAR_PAD_DEG);
    const c0 = col(b.min_lon - NEAR_PAD_DEG * 3);
    const c1 = col(b.max_lon + NEAR_PAD_DEG * 3);
    if (!Number.isFinite(r0 + r1 + c0 + c1) || (r1 - r0 + 1) * (c1 - c0 + 1) > MAX_CELLS) {
      wide.push(i);
      return;
    }
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const k = key(r, c);
        const list = cells.get(k);
        if (list) list.push(i);
        else cells.set(k, [i]);
      }
    }
  });
  return { cells, wide, indexOf };
}

const NONE: number[] = [];

/** Positions (ascending) of the geofences a fix at (lat, lon) may be near, plus `also` (ids). */
export function candidates(grid: GeofenceGrid, lat: number, lon: number, also: Iterable<string>): number[] {
  const inCell = grid.cells.get(key(row(lat), col(lon))) ?? NONE;
  let extra: number[] | null = null;
  for (const id of also) {
    const i = grid.indexOf.get(Number(id));
    if (i !== undefined) (extra ??= []).push(i);
  }
  if (grid.wide.length === 0 && extra === null) return inCell;
  return [...new Set([...inCell, ...grid.wide, ...(extra ?? NONE)])].sort((a, b) => a - b);
}
