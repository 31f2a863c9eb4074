/**
 * Fits Natural Earth's Canadian provinces and territories (1:10m, 0.5–5 km off the legal line along
 * the US border) to the Census Bureau's 1:500,000 US outline, which is far closer to it: each
 * province bordering the US takes the band of BAND_KM around its edges that face the US (its edges
 * within NEAR_KM of the US outline), minus the other provinces, minus every US state. So the
 * province's side of the border becomes the Census line exactly (the overlap Natural Earth had goes to
 * the US, the gap it left to the province), and provinces stay disjoint from each other. Lakes and
 * rivers on the border (Great Lakes, Detroit, St. Lawrence) are treated alike: the Census outlines
 * reach the international line in the water. docs/ifta.md, "Boundary data".
 */
import polygonClipping, { type MultiPolygon, type Polygon } from 'polygon-clipping';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { kmPerDegree } from '../../src/domain/ifta/geometry.js';
import { SegGrid, edgeCounts, edgeKey, type Polygons, type Pt } from './seg-grid.js';

export type { Polygons } from './seg-grid.js';

/** A province edge whose middle lies this close to the US outline faces the US (km). */
const NEAR_KM = 8;
/** Half-width of the band added along such edges (km): more than Natural Earth's largest gap. */
const BAND_KM = 6;

type Bbox = [number, number, number, number];

function bboxOf(polygons: Polygons): Bbox {
  const b: Bbox = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of polygons)
    for (const r of p)
      for (const [x, y] of r) {
        b[0] = Math.min(b[0], x);
        b[1] = Math.min(b[1], y);
        b[2] = Math.max(b[2], x);
        b[3] = Math.max(b[3], y);
      }
  return b;
}

const overlaps = (a: Bbox, b: Bbox) => a[0] <= b[2] && a[2] >= b[0] && a[1] <= b[3] && a[3] >= b[1];

/** The edges of the US outline (coasts and international lines): those of one state only, tagged with it. */
export function outerEdges(us: Map<string, Polygons>): SegGrid {
  const counts = edgeCounts(us.values());
  const grid = new SegGrid();
  for (const [code, polygons] of us) grid.addPolygons(polygons, code, (a, b) => counts.get(edgeKey(a, b)) === 1);
  return grid;
}

/** A rectangle of half-width w km around a→b, reaching w km beyond each end. */
function band(a: Pt, b: Pt, w: number): Polygon {
  const { kx, ky } = kmPerDegree((a[1] + b[1]) / 2);
  const dx = (b[0] - a[0]) * kx,
    dy = (b[1] - a[1]) * ky;
  const len = Math.hypot(dx, dy) || 1;
  const ux = (dx / len) * w,
    uy = (dy / len) * w; // along a→b
  const nx = -uy,
    ny = ux; // across it
  const at = (p: Pt, sx: number, sy: number): [number, number] => [p[0] + sx / kx, p[1] + sy / ky];
  const ring = [at(a, -ux + nx, -uy + ny), at(b, ux + nx, uy + ny), at(b, ux - nx, uy - ny), at(a, -ux - nx, -uy - ny)];
  return [[...ring, ring[0]]];
}

/**
 * The slivers the Census outlines leave between two states along some rivers (up to ~200 m wide: the
 * Red River, the Connecticut's head, …) near Canada: a rectangle over each outline edge within
 * 200 m of another state's outline, as wide as the sliver. They stay outside every jurisdiction
 * (the allocator gives such points to the nearest state), rather than reaching a province.
 */
function riverSlivers(outline: SegGrid, us: Map<string, Polygons>, ca: Map<string, Polygons>): MultiPolygon {
  const canada = new SegGrid();
  for (const [c, p] of ca) canada.addPolygons(p, c);
  const counts = edgeCounts(us.values());
  const covers: Polygon[] = [];
  for (const [code, polygons] of us) {
    for (const p of polygons)
      for (const r of p)
        for (let i = 0; i + 1 < r.length; i++) {
          if (counts.get(edgeKey(r[i], r[i + 1])) !== 1) continue;
          const mid = [(r[i][0] + r[i + 1][0]) / 2, (r[i][1] + r[i + 1][1]) / 2];
          const other = outline.nearest(mid, 0.2, (tag) => tag !== code);
          if (other.tag === null || canada.nearest(mid, 2 * NEAR_KM).km === Infinity) continue;
          covers.push(band(r[i], r[i + 1], other.km + 0.02));
        }
  }
  return covers.length ? polygonClipping.union(covers[0], ...covers.slice(1)) : [];
}

export function fitCanada(
  us: Map<string, Polygons>,
  ca: Map<string, Polygons>,
  log: (m: string) => void,
): Map<string, Polygons> {
  const outline = outerEdges(us);
  const slivers = riverSlivers(outline, us, ca);
  log(`${slivers.length} river slivers between states near Canada kept out of the provinces`);
  const usBoxes = new Map([...us].map(([c, p]) => [c, bboxOf(p)]));
  const fitted = new Map<string, Polygons>();
  for (const [code, polygons] of ca) {
    const bands: Polygon[] = [];
    for (const p of polygons)
      for (const r of p)
        for (let i = 0; i + 1 < r.length; i++) {
          const mid = [(r[i][0] + r[i + 1][0]) / 2, (r[i][1] + r[i + 1][1]) / 2];
          if (outline.nearest(mid, NEAR_KM).km < NEAR_KM) bands.push(band(r[i], r[i + 1], BAND_KM));
        }
    if (bands.length === 0) {
      fitted.set(code, polygons);
      continue;
    }
    const others = [...ca.keys()].filter((c) => c !== code).map((c) => (fitted.get(c) ?? ca.get(c)!) as MultiPolygon);
    const zone = polygonClipping.difference(polygonClipping.union(bands[0], ...bands.slice(1)), ...others, slivers);
    const grown = polygonClipping.union(polygons as MultiPolygon, zone);
    const box = bboxOf(grown);
    const states = [...us].filter(([c]) => overlaps(usBoxes.get(c)!, box)).map(([, p]) => p as MultiPolygon);
    const result = polygonClipping.difference(grown, ...states);
    fitted.set(code, result);
    log(`${code}: ${bands.length} edges face the US; ${states.length} states cut away`);
  }
  checkBorder(us, fitted, log);
  return fitted;
}

/**
 * Build check: 50 m outside the US outline, wherever a province is within NEAR_KM, the point lies in a
 * province or another state, except at sea. The misses are listed for a person to look at.
 */
function checkBorder(us: Map<string, Polygons>, fitted: Map<string, Polygons>, log: (m: string) => void): void {
  const provinces = new SegGrid();
  for (const [c, p] of fitted) provinces.addPolygons(p, c);
  const counts = edgeCounts(us.values());
  const inside = (pt: Pt, polygons: Polygons) =>
    booleanPointInPolygon(pt, { type: 'MultiPolygon', coordinates: polygons });
  let checked = 0;
  const misses: string[] = [];
  for (const [code, polygons] of us) {
    for (const p of polygons)
      for (const r of p)
        for (let i = 0; i + 1 < r.length; i++) {
          const a = r[i],
            b = r[i + 1];
          if (counts.get(edgeKey(a, b)) !== 1) continue;
          const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
          if (provinces.nearest(mid, NEAR_KM).km >= NEAR_KM) continue;
          const { kx, ky } = kmPerDegree(mid[1]);
          const dx = (b[0] - a[0]) * kx,
            dy = (b[1] - a[1]) * ky;
          const len = Math.hypot(dx, dy);
          if (len < 0.1) continue;
          let out = [mid[0] - ((dy / len) * 0.05) / kx, mid[1] + ((dx / len) * 0.05) / ky];
          if (inside(out, polygons)) out = [mid[0] + ((dy / len) * 0.05) / kx, mid[1] - ((dx / len) * 0.05) / ky];
          if (inside(out, polygons)) continue;
          checked++;
          if (
            [...fitted.values()].some((q) => inside(out, q)) ||
            [...us].some(([c, q]) => c !== code && inside(out, q))
          )
            continue;
          misses.push(`${code} ${out[1].toFixed(5)},${out[0].toFixed(5)}`);
        }
  }
  log(
    `border check: ${checked} points 50 m outside the US near a province, ${misses.length} in no polygon${misses.length ? `: ${misses.join('; ')}` : ''}`,
  );
}
