/**
 * Building the uniform grid of grid-index.ts from jurisdiction polygons: the polygon edges as flat
 * arrays, each edge registered in every cell it passes through, and every cell no edge passes through
 * classified by a scanline over the cell centres. The result is plain typed arrays (GridParts), so a
 * grid built on another thread can be handed over without copying (telemetry/geocode/warm.ts).
 */
import { segmentMeetsBox, toX } from './geometry.js';

/** One jurisdiction: a code and GeoJSON MultiPolygon coordinates ([polygon][ring][vertex][lon, lat]). */
export interface Shape {
  code: string;
  polygons: number[][][][];
}

/** A built grid. `cells`: ≥ 0 pure cell of that jurisdiction; −1 pure cell outside all; ≤ −2 boundary cell, slot −2 − v. */
export interface GridParts {
  codes: string[];
  cellDeg: number;
  x0: number;
  y0: number;
  nx: number;
  ny: number;
  cells: Int32Array;
  /** Slot s holds the edges slotEdges[slotStart[s] .. slotStart[s + 1]). */
  slotStart: Uint32Array;
  slotEdges: Uint32Array;
  /** Edge e runs from (ax[e], ay[e]) to (bx[e], by[e]) on the outline of jurisdiction owner[e]. */
  ax: Float64Array;
  ay: Float64Array;
  bx: Float64Array;
  by: Float64Array;
  owner: Uint8Array;
}

export const EPS = 1e-9;
const MARGIN_DEG = 1;

/** The lowest jurisdiction index set in a membership of three 32-bit masks (0–31, 32–63, 64–95), or −1. */
export const lowestBit = (lo: number, mid: number, hi: number): number =>
  lo !== 0
    ? 31 - Math.clz32(lo & -lo)
    : mid !== 0
      ? 63 - Math.clz32(mid & -mid)
      : hi !== 0
        ? 95 - Math.clz32(hi & -hi)
        : -1;

/** The grid of `shapes` (up to 96: membership is three 32-bit masks; where polygons overlap the lowest index wins). */
export function buildGrid(shapes: Shape[], cellDeg: number): GridParts {
  if (shapes.length > 96) throw new Error('at most 96 jurisdictions');
  let n = 0;
  for (const s of shapes) for (const p of s.polygons) for (const r of p) n += Math.max(0, r.length - 1);
  const [ax, ay, bx, by] = [new Float64Array(n), new Float64Array(n), new Float64Array(n), new Float64Array(n)];
  const owner = new Uint8Array(n);
  let m = 0;
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  shapes.forEach((s, j) => {
    for (const p of s.polygons) {
      for (const ring of p) {
        for (let i = 0; i + 1 < ring.length; i++) {
          const x1 = toX(ring[i][0]),
            y1 = ring[i][1],
            x2 = toX(ring[i + 1][0]),
            y2 = ring[i + 1][1];
          if (x1 === x2 && y1 === y2) continue;
          ax[m] = x1;
          ay[m] = y1;
          bx[m] = x2;
          by[m] = y2;
          owner[m] = j;
          m++;
          minX = Math.min(minX, x1, x2);
          maxX = Math.max(maxX, x1, x2);
          minY = Math.min(minY, y1, y2);
          maxY = Math.max(maxY, y1, y2);
        }
      }
    }
  });
  const x0 = Math.floor((minX - MARGIN_DEG) / cellDeg) * cellDeg;
  const y0 = Math.floor((minY - MARGIN_DEG) / cellDeg) * cellDeg;
  const nx = Math.ceil((maxX + MARGIN_DEG - x0) / cellDeg) + 1;
  const ny = Math.ceil((maxY + MARGIN_DEG - y0) / cellDeg) + 1;
  const grid: GridParts = {
    codes: shapes.map((s) => s.code),
    cellDeg,
    x0,
    y0,
    nx,
    ny,
    cells: new Int32Array(nx * ny),
    slotStart: new Uint32Array(1),
    slotEdges: new Uint32Array(0),
    ...{ ax: ax.subarray(0, m), ay: ay.subarray(0, m), bx: bx.subarray(0, m), by: by.subarray(0, m) },
    owner: owner.subarray(0, m),
  };

  // Register every edge in the cells it passes through (two passes: count, then fill).
  const counts = new Uint32Array(nx * ny);
  for (let e = 0; e < m; e++) eachCellOf(grid, e, (ci) => counts[ci]++);
  let slots = 0;
  for (let ci = 0; ci < counts.length; ci++) if (counts[ci] > 0) grid.cells[ci] = -2 - slots++;
  grid.slotStart = new Uint32Array(slots + 1);
  for (let ci = 0, s = 0; ci < counts.length; ci++)
    if (counts[ci] > 0) {
      grid.slotStart[s + 1] = grid.slotStart[s] + counts[ci];
      s++;
    }
  grid.slotEdges = new Uint32Array(grid.slotStart[slots]);
  const fill = grid.slotStart.slice(0, slots);
  for (let e = 0; e < m; e++)
    eachCellOf(grid, e, (ci) => {
      grid.slotEdges[fill[-2 - grid.cells[ci]]++] = e;
    });
  classifyPureCells(grid);
  return grid;
}

function eachCellOf(g: GridParts, e: number, fn: (ci: number) => void): void {
  const ax = g.ax[e],
    ay = g.ay[e],
    bx = g.bx[e],
    by = g.by[e],
    c = g.cellDeg;
  const kx0 = Math.max(0, Math.floor((Math.min(ax, bx) - EPS - g.x0) / c));
  const kx1 = Math.min(g.nx - 1, Math.floor((Math.max(ax, bx) + EPS - g.x0) / c));
  const ky0 = Math.max(0, Math.floor((Math.min(ay, by) - EPS - g.y0) / c));
  const ky1 = Math.min(g.ny - 1, Math.floor((Math.max(ay, by) + EPS - g.y0) / c));
  const single = kx0 === kx1 || ky0 === ky1;
  for (let r = ky0; r <= ky1; r++) {
    for (let k = kx0; k <= kx1; k++) {
      if (
        single ||
        segmentMeetsBox(
          ax,
          ay,
          bx,
          by,
          g.x0 + k * c - EPS,
          g.y0 + r * c - EPS,
          g.x0 + (k + 1) * c + EPS,
          g.y0 + (r + 1) * c + EPS,
        )
      ) {
        fn(r * g.nx + k);
      }
    }
  }
}

/** Scanline through each row's cell centres: the crossings to the left give the membership. */
function classifyPureCells(g: GridParts): void {
  const seen = new Uint32Array(g.ax.length);
  const xs: number[] = [];
  const js: number[] = [];
  for (let r = 0; r < g.ny; r++) {
    const yc = g.y0 + r * g.cellDeg + g.cellDeg / 2;
    const base = r * g.nx;
    xs.length = 0;
    js.length = 0;
    for (let k = 0; k < g.nx; k++) {
      const v = g.cells[base + k];
      if (v >= -1) continue;
      const slot = -2 - v;
      for (let s = g.slotStart[slot]; s < g.slotStart[slot + 1]; s++) {
        const e = g.slotEdges[s];
        if (seen[e] === r + 1) continue;
        seen[e] = r + 1;
        const ay = g.ay[e],
          by = g.by[e];
        if (ay > yc !== by > yc) {
          xs.push(g.ax[e] + ((yc - ay) * (g.bx[e] - g.ax[e])) / (by - ay));
          js.push(g.owner[e]);
        }
      }
    }
    const order = xs.map((_, i) => i).sort((a, b) => xs[a] - xs[b]);
    let [lo, mid, hi, next] = [0, 0, 0, 0];
    for (let k = 0; k < g.nx; k++) {
      const xc = g.x0 + k * g.cellDeg + g.cellDeg / 2;
      while (next < order.length && xs[order[next]] < xc) {
        const j = js[order[next++]];
        if (j < 32) lo ^= 1 << j;
        else if (j < 64) mid ^= 1 << (j - 32);
        else hi ^= 1 << (j - 64);
      }
      if (g.cells[base + k] >= -1) g.cells[base + k] = lowestBit(lo, mid, hi);
    }
  }
}
