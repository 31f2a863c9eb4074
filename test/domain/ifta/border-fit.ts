/**
 * How far the shipped state lines lie from the reference outlines along the borders between states,
 * for test/domain/ifta/boundary-data.test.ts. Each state gets a JurisdictionIndex of its own, whose
 * `nearest` answers "is this point within d of that state's outline, and how far".
 */
import { JurisdictionIndex, type Shape } from '../../../src/domain/ifta/grid-index.js';
import { toX } from '../../../src/domain/ifta/geometry.js';

export interface Outline {
  code: string;
  index: JurisdictionIndex;
  bbox: [number, number, number, number];
  vertices: number[][];
}

export function outlines(shapes: Shape[]): Map<string, Outline> {
  return new Map(
    shapes.map((s) => {
      const vertices: number[][] = [];
      const bbox: Outline['bbox'] = [Infinity, Infinity, -Infinity, -Infinity];
      for (const p of s.polygons)
        for (const r of p)
          for (const v of r) {
            vertices.push(v);
            const x = toX(v[0]);
            bbox[0] = Math.min(bbox[0], x);
            bbox[1] = Math.min(bbox[1], v[1]);
            bbox[2] = Math.max(bbox[2], x);
            bbox[3] = Math.max(bbox[3], v[1]);
          }
      return [s.code, { code: s.code, index: new JurisdictionIndex([s], 0.05), bbox, vertices }];
    }),
  );
}

/** Distance in km from [lon, lat] to the outline, or Infinity beyond maxKm. */
export function distanceTo(o: Outline, v: number[], maxKm: number): number {
  const x = toX(v[0]);
  const m = 0.01;
  if (x < o.bbox[0] - m || x > o.bbox[2] + m || v[1] < o.bbox[1] - m || v[1] > o.bbox[3] + m) return Infinity;
  return o.index.nearest(x, v[1], maxKm) >= 0 ? o.index.lastDistanceKm : Infinity;
}

/**
 * The border vertices of a set of outlines: each vertex of a state lying within `withinKm` of another
 * state's outline, as [state, neighbour, lon, lat].
 */
export function borderVertices(set: Map<string, Outline>, withinKm: number): Array<[string, string, number, number]> {
  const out: Array<[string, string, number, number]> = [];
  for (const a of set.values()) {
    const seen = new Set<string>();
    for (const v of a.vertices) {
      const key = `${v[0]},${v[1]}`;
      if (seen.has(key)) continue;
      seen.add(key);
      for (const b of set.values()) {
        if (b !== a && distanceTo(b, v, withinKm) <= withinKm) out.push([a.code, b.code, v[0], v[1]]);
      }
    }
  }
  return out;
}

export interface Fit {
  checked: number;
  /** The farthest a vertex lies from the target outline of its own state. */
  maxKm: number;
  pairs: Set<string>;
  failures: string[];
}

/** Each [state, neighbour, lon, lat] must lie within limitKm of `target`'s outlines of both states. */
export function fitOf(
  vertices: Array<[string, string, number, number]>,
  target: Map<string, Outline>,
  limitKm: number,
): Fit {
  const fit: Fit = { checked: 0, maxKm: 0, pairs: new Set(), failures: [] };
  for (const [a, b, lon, lat] of vertices) {
    fit.checked++;
    fit.pairs.add([a, b].sort().join('/'));
    for (const code of [a, b]) {
      const d = distanceTo(target.get(code)!, [lon, lat], limitKm);
      if (d === Infinity) fit.failures.push(`${code} (${a}/${b}) at ${lat},${lon}`);
      else if (code === a) fit.maxKm = Math.max(fit.maxKm, d);
    }
  }
  return fit;
}
