/**
 * A grid of tagged line segments for "how far is the nearest edge of …" questions in the boundary
 * build (coordinates [lon, lat]; distances in km with the allocator's own measure, geometry.ts).
 */
import { kmPerDegree, pointSegmentKm2, toX } from '../../src/domain/ifta/geometry.js';

export type Pt = number[];
/** MultiPolygon coordinates: [polygon][ring][vertex][lon, lat]. */
export type Polygons = number[][][][];

const CELL = 0.05;
const key = (k: number, r: number) => k * 100_000 + r;

export class SegGrid {
  private readonly cells = new Map<number, number[]>();
  private readonly segs: Array<{ a: Pt; b: Pt; tag: string }> = [];

  add(a: Pt, b: Pt, tag: string): void {
    const i = this.segs.length;
    this.segs.push({ a, b, tag });
    const ax = toX(a[0]),
      bx = toX(b[0]);
    for (let k = Math.floor(Math.min(ax, bx) / CELL); k <= Math.floor(Math.max(ax, bx) / CELL); k++) {
      for (let r = Math.floor(Math.min(a[1], b[1]) / CELL); r <= Math.floor(Math.max(a[1], b[1]) / CELL); r++) {
        const c = this.cells.get(key(k, r));
        if (c) c.push(i);
        else this.cells.set(key(k, r), [i]);
      }
    }
  }

  addPolygons(polygons: Polygons, tag: string, keep: (a: Pt, b: Pt) => boolean = () => true): void {
    for (const p of polygons)
      for (const ring of p)
        for (let i = 0; i + 1 < ring.length; i++) if (keep(ring[i], ring[i + 1])) this.add(ring[i], ring[i + 1], tag);
  }

  /** The nearest segment within maxKm whose tag passes `accept`: its distance (Infinity if none) and tag. */
  nearest(p: Pt, maxKm: number, accept: (tag: string) => boolean = () => true): { km: number; tag: string | null } {
    const x = toX(p[0]);
    const { kx, ky } = kmPerDegree(p[1]);
    const k0 = Math.floor((x - maxKm / kx) / CELL),
      k1 = Math.floor((x + maxKm / kx) / CELL);
    const r0 = Math.floor((p[1] - maxKm / ky) / CELL),
      r1 = Math.floor((p[1] + maxKm / ky) / CELL);
    let best = maxKm * maxKm;
    let tag: string | null = null;
    for (let k = k0; k <= k1; k++) {
      for (let r = r0; r <= r1; r++) {
        for (const i of this.cells.get(key(k, r)) ?? []) {
          const s = this.segs[i];
          if (!accept(s.tag)) continue;
          const d2 = pointSegmentKm2(x, p[1], toX(s.a[0]), s.a[1], toX(s.b[0]), s.b[1], kx, ky);
          if (d2 <= best) {
            best = d2;
            tag = s.tag;
          }
        }
      }
    }
    return { km: tag === null ? Infinity : Math.sqrt(best), tag };
  }
}

/** An undirected edge's key (its two vertices in a fixed order). */
export const edgeKey = (a: Pt, b: Pt): string =>
  a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]) ? `${a}|${b}` : `${b}|${a}`;

/** How many of the shapes' rings use each edge. */
export function edgeCounts(shapes: Iterable<Polygons>): Map<string, number> {
  const n = new Map<string, number>();
  for (const polygons of shapes)
    for (const p of polygons)
      for (const r of p)
        for (let i = 0; i + 1 < r.length; i++) {
          const k = edgeKey(r[i], r[i + 1]);
          n.set(k, (n.get(k) ?? 0) + 1);
        }
  return n;
}
