/**
 * Fits Natural Earth's outlines of the US's neighbours (1:10m: the Canadian provinces and territories,
 * Mexico; 0.1–5 km off the legal line along the US border) to the Census Bureau's 1:500,000 US
 * outline, which is far closer to it: each region bordering the US takes the band of BAND_KM around
 * its edges that face the US (its edges within NEAR_KM of the US outline), minus the other regions,
 * minus every US state. So the region's side of the border becomes the Census line exactly (the
 * overlap Natural Earth had goes to the US, the gap it left to the region), and regions stay disjoint
 * from each other. Lakes and rivers on the border (Great Lakes, Detroit, St. Lawrence, Rio Grande)
 * are treated alike: the Census outlines reach the international line in the water.
 * docs/ifta.md, "Boundary data".
 */
import polygonClipping, { type MultiPolygon, type Polygon } from 'polygon-clipping';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { kmPerDegree } from '../../src/domain/ifta/geometry.js';
import { SegGrid, edgeCounts, edgeKey, type Polygons, type Pt } from './seg-grid.js';

export type { Polygons } from './seg-grid.js';

/** A region edge whose middle lies this close to the US outline faces the US (km). */
const NEAR_KM = 8;
/** Half-width of the band added along such edges (km): more than Natural Earth's largest gap. */
const BAND_KM = 6;

type Bbox = [number, number, number, number];
type Log = (m: string) => void;

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

/** Calls fn(a, b, state) for every edge of the US outline (coasts and international lines: edges of one state only). */
function eachOuterEdge(us: Map<string, Polygons>, fn: (a: Pt, b: Pt, code: string, polygons: Polygons) => void): void {
  const counts = edgeCounts(us.values());
  for (const [code, polygons] of us)
    for (const p of polygons)
      for (const r of p)
        for (let i = 0; i + 1 < r.length; i++)
          if (counts.get(edgeKey(r[i], r[i + 1])) === 1) fn(r[i], r[i + 1], code, polygons);
}

/** The edges of the US outline, tagged with their state. */
function outerEdges(us: Map<string, Polygons>): SegGrid {
  const grid = new SegGrid();
  eachOuterEdge(us, (a, b, code) => grid.add(a, b, code));
  return grid;
}

function regionGrid(regions: Map<string, Polygons>): SegGrid {
  const grid = new SegGrid();
  for (const [c, p] of regions) grid.addPolygons(p, c);
  return grid;
}

const middle = (a: Pt, b: Pt): Pt => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];

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
 * Red River, the Connecticut's head, …) near the regions: a rectangle over each outline edge within
 * 200 m of another state's outline, as wide as the sliver. They stay outside every jurisdiction
 * (the allocator gives such points to the nearest state), rather than reaching a region.
 */
function riverSlivers(outline: SegGrid, us: Map<string, Polygons>, near: SegGrid): MultiPolygon {
  const covers: Polygon[] = [];
  eachOuterEdge(us, (a, b, code) => {
    const mid = middle(a, b);
    const other = outline.nearest(mid, 0.2, (tag) => tag !== code);
    if (other.tag === null || near.nearest(mid, 2 * NEAR_KM).km === Infinity) return;
    covers.push(band(a, b, other.km + 0.02));
  });
  return covers.length ? polygonClipping.union(covers[0], ...covers.slice(1)) : [];
}

/** `regions` (code → Natural Earth polygons) with their side of the US border moved onto the Census line. */
export function fitToUsLine(
  us: Map<string, Polygons>,
  regions: Map<string, Polygons>,
  log: Log,
): Map<string, Polygons> {
  const outline = outerEdges(us);
  const slivers = riverSlivers(outline, us, regionGrid(regions));
  log(`${slivers.length} river slivers between states near ${[...regions.keys()].join(' ')} kept out of them`);
  const usBoxes = new Map([...us].map(([c, p]) => [c, bboxOf(p)]));
  const fitted = new Map<string, Polygons>();
  for (const [code, polygons] of regions) {
    const bands: Polygon[] = [];
    for (const p of polygons)
      for (const r of p)
        for (let i = 0; i + 1 < r.length; i++)
          if (outline.nearest(middle(r[i], r[i + 1]), NEAR_KM).km < NEAR_KM) bands.push(band(r[i], r[i + 1], BAND_KM));
    if (bands.length === 0) {
      fitted.set(code, polygons);
      continue;
    }
    const others = [...regions.keys()]
      .filter((c) => c !== code)
      .map((c) => (fitted.get(c) ?? regions.get(c)!) as MultiPolygon);
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
 * How far Natural Earth's line lies from the Census line: every STEP_KM along the US outline where a
 * region is within NEAR_KM, the distance to the region's (unfitted) outline, per state and region.
 * Edges within 200 m of another state (the slivers between states, near the tripoints) are left out;
 * the coast near the border is not, so the largest distances are at sea.
 */
export function lineOffsets(us: Map<string, Polygons>, regions: Map<string, Polygons>, log: Log): void {
  const STEP_KM = 0.2;
  const near = regionGrid(regions);
  const outline = outerEdges(us);
  const byPair = new Map<string, number[]>();
  eachOuterEdge(us, (a, b, code) => {
    if (outline.nearest(middle(a, b), 0.2, (tag) => tag !== code).tag !== null) return;
    const { kx, ky } = kmPerDegree((a[1] + b[1]) / 2);
    const n = Math.max(1, Math.round(Math.hypot((b[0] - a[0]) * kx, (b[1] - a[1]) * ky) / STEP_KM));
    for (let k = 0; k < n; k++) {
      const p = [a[0] + ((b[0] - a[0]) * k) / n, a[1] + ((b[1] - a[1]) * k) / n];
      const hit = near.nearest(p, NEAR_KM);
      if (hit.tag === null) continue;
      const pair = `${code}/${hit.tag}`;
      const list = byPair.get(pair) ?? [];
      list.push(hit.km);
      byPair.set(pair, list);
    }
  });
  for (const [pair, kms] of [...byPair].sort()) {
    kms.sort((x, y) => x - y);
    const q = (f: number) => kms[Math.min(kms.length - 1, Math.floor(f * kms.length))].toFixed(2);
    log(
      `Natural Earth from the Census line, ${pair}: ${(kms.length * STEP_KM) | 0} km, median ${q(0.5)} km, 95 % ${q(0.95)} km, max ${q(1)} km`,
    );
  }
}

/**
 * Build check: 50 m outside the US outline, wherever a region is within NEAR_KM, the point lies in a
 * region or another state, except at sea. The misses are listed for a person to look at.
 */
function checkBorder(us: Map<string, Polygons>, fitted: Map<string, Polygons>, log: Log): void {
  const near = regionGrid(fitted);
  const inside = (pt: Pt, polygons: Polygons) =>
    booleanPointInPolygon(pt, { type: 'MultiPolygon', coordinates: polygons });
  let checked = 0;
  const misses: string[] = [];
  eachOuterEdge(us, (a, b, code, polygons) => {
    const mid = middle(a, b);
    if (near.nearest(mid, NEAR_KM).km >= NEAR_KM) return;
    const { kx, ky } = kmPerDegree(mid[1]);
    const dx = (b[0] - a[0]) * kx,
      dy = (b[1] - a[1]) * ky;
    const len = Math.hypot(dx, dy);
    if (len < 0.1) return;
    let out = [mid[0] - ((dy / len) * 0.05) / kx, mid[1] + ((dx / len) * 0.05) / ky];
    if (inside(out, polygons)) out = [mid[0] + ((dy / len) * 0.05) / kx, mid[1] - ((dx / len) * 0.05) / ky];
    if (inside(out, polygons)) return;
    checked++;
    if ([...fitted.values()].some((q) => inside(out, q)) || [...us].some(([c, q]) => c !== code && inside(out, q)))
      return;
    misses.push(`${code} ${out[1].toFixed(5)},${out[0].toFixed(5)}`);
  });
  log(
    `border check: ${checked} points 50 m outside the US near ${[...fitted.keys()].join(' ')}, ${misses.length} in no polygon${misses.length ? `: ${misses.join('; ')}` : ''}`,
  );
}
