/**
 * A uniform-grid spatial index of jurisdiction polygons, built once (grid-build.ts). Every polygon edge
 * is registered in each grid cell it passes through. A cell no edge passes through is "pure": all of it lies in the
 * same jurisdiction (or in none), found at build time by a scanline over the cell centres. Queries:
 *
 * - `locate(x, y)`: the jurisdiction containing a point. In a pure cell it is one array read; in a
 *   boundary cell a ray is cast towards +x, counting the crossings of each polygon's edges cell by
 *   cell (half-open rule, so shared borders and vertices are counted once) until a pure cell gives
 *   the membership beyond.
 * - `nearest(x, y, km)`: the jurisdiction of the nearest edge within a distance (off-polygon points).
 * - `crossings(p, q)`: the parameters along p→q at which the segment meets any edge.
 * - `uniform(p, q)`: the jurisdiction of a short segment lying entirely in pure cells of one
 *   jurisdiction (the fast path that almost every 10-second segment takes), or −2.
 *
 * Coordinates are (x, y) = (longitude with eastern values −360°, latitude), see geometry.ts. Up to 96
 * jurisdictions (membership is three 32-bit masks); when polygons overlap the lowest index wins.
 */
import { crossingParam, kmPerDegree, pointSegmentKm2, segmentMeetsBox } from './geometry.js';
import { EPS, buildGrid, lowestBit, type GridParts, type Shape } from './grid-build.js';

export type { GridParts, Shape } from './grid-build.js';

export class JurisdictionIndex {
  readonly codes: readonly string[];
  readonly cellDeg: number;
  /** Set by `nearest`: the distance in km to the edge it found (Infinity when none). */
  lastDistanceKm = Infinity;
  private readonly x0: number;
  private readonly y0: number;
  private readonly nx: number;
  private readonly ny: number;
  /** ≥ 0: pure cell of that jurisdiction; −1: pure cell outside all; ≤ −2: boundary cell, slot −2 − v. */
  private readonly cells: Int32Array;
  private readonly slotStart: Uint32Array;
  private readonly slotEdges: Uint32Array;
  private readonly ax: Float64Array;
  private readonly ay: Float64Array;
  private readonly bx: Float64Array;
  private readonly by: Float64Array;
  private readonly owner: Uint8Array;
  private readonly stamp: Uint32Array;
  private stampNo = 0;
  /** The grid as built (typed arrays that can be transferred to another thread). */
  readonly grid: GridParts;

  /** The index of `shapes` (built here, grid-build.ts), or of a grid built elsewhere. */
  constructor(source: Shape[] | GridParts, cellDeg = 0.1) {
    const g = Array.isArray(source) ? buildGrid(source, cellDeg) : source;
    this.grid = g;
    this.codes = g.codes;
    this.cellDeg = g.cellDeg;
    [this.x0, this.y0, this.nx, this.ny] = [g.x0, g.y0, g.nx, g.ny];
    [this.cells, this.slotStart, this.slotEdges] = [g.cells, g.slotStart, g.slotEdges];
    [this.ax, this.ay, this.bx, this.by, this.owner] = [g.ax, g.ay, g.bx, g.by, g.owner];
    this.stamp = new Uint32Array(g.ax.length);
  }

  private cellLeft(k: number): number {
    return this.x0 + k * this.cellDeg;
  }

  private cellBottom(r: number): number {
    return this.y0 + r * this.cellDeg;
  }

  private cellIndex(x: number, y: number): number {
    const k = Math.floor((x - this.x0) / this.cellDeg);
    const r = Math.floor((y - this.y0) / this.cellDeg);
    if (k < 0 || r < 0 || k >= this.nx || r >= this.ny) return -1;
    return r * this.nx + k;
  }

  /** The index of the jurisdiction containing (x, y), or −1. */
  locate(x: number, y: number): number {
    const ci = this.cellIndex(x, y);
    if (ci < 0) return -1;
    let v = this.cells[ci];
    if (v >= -1) return v;
    let lo = 0,
      mid = 0,
      hi = 0;
    const r = Math.floor(ci / this.nx);
    for (let k = ci - r * this.nx; k < this.nx; k++) {
      v = this.cells[r * this.nx + k];
      if (v >= -1) {
        if (v >= 0) {
          if (v < 32) lo ^= 1 << v;
          else if (v < 64) mid ^= 1 << (v - 32);
          else hi ^= 1 << (v - 64);
        }
        break;
      }
      const slot = -2 - v;
      const left = this.cellLeft(k),
        right = this.cellLeft(k + 1);
      for (let s = this.slotStart[slot]; s < this.slotStart[slot + 1]; s++) {
        const e = this.slotEdges[s];
        const ay = this.ay[e],
          by = this.by[e];
        if (ay > y === by > y) continue;
        const xi = this.ax[e] + ((y - ay) * (this.bx[e] - this.ax[e])) / (by - ay);
        if (xi > x && xi >= left && xi < right) {
          const j = this.owner[e];
          if (j < 32) lo ^= 1 << j;
          else if (j < 64) mid ^= 1 << (j - 32);
          else hi ^= 1 << (j - 64);
        }
      }
    }
    return lowestBit(lo, mid, hi);
  }

  /** The jurisdiction of the nearest polygon edge within `maxKm` of (x, y), or −1; see lastDistanceKm. */
  nearest(x: number, y: number, maxKm: number): number {
    const { kx, ky } = kmPerDegree(y);
    const c = this.cellDeg;
    const k0 = Math.max(0, Math.floor((x - maxKm / kx - this.x0) / c));
    const k1 = Math.min(this.nx - 1, Math.floor((x + maxKm / kx - this.x0) / c));
    const r0 = Math.max(0, Math.floor((y - maxKm / ky - this.y0) / c));
    const r1 = Math.min(this.ny - 1, Math.floor((y + maxKm / ky - this.y0) / c));
    let best = maxKm * maxKm;
    let bestJ = -1;
    for (let r = r0; r <= r1; r++) {
      for (let k = k0; k <= k1; k++) {
        const v = this.cells[r * this.nx + k];
        if (v >= -1) continue;
        const slot = -2 - v;
        for (let s = this.slotStart[slot]; s < this.slotStart[slot + 1]; s++) {
          const e = this.slotEdges[s];
          const d2 = pointSegmentKm2(x, y, this.ax[e], this.ay[e], this.bx[e], this.by[e], kx, ky);
          if (d2 <= best) {
            best = d2;
            bestJ = this.owner[e];
          }
        }
      }
    }
    this.lastDistanceKm = bestJ >= 0 ? Math.sqrt(best) : Infinity;
    return bestJ;
  }

  /** Pushes onto `out` the parameters t ∈ (0, 1) at which p→q meets a polygon edge (unsorted). */
  crossings(px: number, py: number, qx: number, qy: number, out: number[]): void {
    if (++this.stampNo === 0xffffffff) {
      this.stamp.fill(0);
      this.stampNo = 1;
    }
    const c = this.cellDeg;
    const k0 = Math.max(0, Math.floor((Math.min(px, qx) - this.x0) / c));
    const k1 = Math.min(this.nx - 1, Math.floor((Math.max(px, qx) - this.x0) / c));
    const r0 = Math.max(0, Math.floor((Math.min(py, qy) - this.y0) / c));
    const r1 = Math.min(this.ny - 1, Math.floor((Math.max(py, qy) - this.y0) / c));
    const many = (k1 - k0 + 1) * (r1 - r0 + 1) > 4;
    for (let r = r0; r <= r1; r++) {
      for (let k = k0; k <= k1; k++) {
        const v = this.cells[r * this.nx + k];
        if (v >= -1) continue;
        if (
          many &&
          !segmentMeetsBox(
            px,
            py,
            qx,
            qy,
            this.cellLeft(k) - EPS,
            this.cellBottom(r) - EPS,
            this.cellLeft(k + 1) + EPS,
            this.cellBottom(r + 1) + EPS,
          )
        )
          continue;
        const slot = -2 - v;
        for (let s = this.slotStart[slot]; s < this.slotStart[slot + 1]; s++) {
          const e = this.slotEdges[s];
          if (this.stamp[e] === this.stampNo) continue;
          this.stamp[e] = this.stampNo;
          const t = crossingParam(px, py, qx, qy, this.ax[e], this.ay[e], this.bx[e], this.by[e]);
          if (t > 0 && t < 1) out.push(t);
        }
      }
    }
  }

  /**
   * The jurisdiction of segment p→q when both ends lie in pure cells of the same jurisdiction that
   * are equal or adjacent (and so are the cells a diagonal step passes), else −2.
   */
  uniform(px: number, py: number, qx: number, qy: number): number {
    const c = this.cellDeg;
    const kp = Math.floor((px - this.x0) / c),
      rp = Math.floor((py - this.y0) / c);
    const kq = Math.floor((qx - this.x0) / c),
      rq = Math.floor((qy - this.y0) / c);
    if (kp < 0 || rp < 0 || kp >= this.nx || rp >= this.ny) return -2;
    const v = this.cells[rp * this.nx + kp];
    if (v < 0) return -2;
    if (kp === kq && rp === rq) return v;
    const dk = kq - kp,
      dr = rq - rp;
    if (dk > 1 || dk < -1 || dr > 1 || dr < -1 || kq < 0 || rq < 0 || kq >= this.nx || rq >= this.ny) return -2;
    if (this.cells[rq * this.nx + kq] !== v) return -2;
    if (dk !== 0 && dr !== 0 && (this.cells[rp * this.nx + kq] !== v || this.cells[rq * this.nx + kp] !== v)) return -2;
    return v;
  }

  /** Counts for diagnostics: cells, boundary cells, edges. */
  stats(): { cells: number; boundaryCells: number; edges: number } {
    return { cells: this.cells.length, boundaryCells: this.slotStart.length - 1, edges: this.ax.length };
  }
}
