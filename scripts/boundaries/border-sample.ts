/**
 * A sample of the reference outlines' state-border vertices, kept in the repository so that the
 * boundary-data test can compare the shipped lines with the reference where the reference files are
 * not next to the clone (test/domain/ifta/boundary-data.test.ts). A border vertex of state A is a vertex of
 * A's outline within BORDER_M of another state's outline; every EVERY-th of each ordered pair of states
 * is kept, and the first.
 */
import { SegGrid, type Polygons } from './seg-grid.js';

const BORDER_M = 25;
const EVERY = 12;

export interface BorderSample {
  every: number;
  /** [state, neighbour, lon, lat] */
  vertices: Array<[string, string, number, number]>;
}

export function borderSample(us: Map<string, Polygons>): BorderSample {
  const grid = new SegGrid();
  for (const [code, polygons] of us) grid.addPolygons(polygons, code);
  const seen = new Map<string, number>();
  const vertices: BorderSample['vertices'] = [];
  for (const [code, polygons] of us) {
    for (const p of polygons)
      for (const r of p)
        for (let i = 0; i + 1 < r.length; i++) {
          const near = grid.nearest(r[i], BORDER_M / 1000, (tag) => tag !== code);
          if (near.tag === null) continue;
          const pair = `${code}/${near.tag}`;
          const n = seen.get(pair) ?? 0;
          seen.set(pair, n + 1);
          if (n % EVERY === 0) vertices.push([code, near.tag, r[i][0], r[i][1]]);
        }
  }
  return { every: EVERY, vertices };
}
