/**
 * Geofence geometry, pure: validating polygons and circles, their bounding boxes, and whether a point
 * is inside. The same functions serve the API (validation) and telemetry (entry and exit detection,
 * docs/reference/domain-rules.md §4.2). Coordinates are WGS 84 degrees; distances are meters along the great circle.
 *
 * - A polygon is a ring of at least 3 distinct points. It is closed: when the last point repeats the
 *   first it is dropped, otherwise the ring closes from the last point back to the first. Consecutive
 *   repeats are dropped. The ring must not cross itself and must enclose an area.
 * - A polygon may have holes (docs/reference/domain-rules.md §4.2): rings by the same rules, each inside the outer ring,
 *   crossing neither it nor another hole, and not inside another hole. A point in a hole is outside.
 * - A circle is a center and a radius > 0.
 * - A point exactly on the boundary counts as inside (deterministic results), a hole's boundary too.
 */
import { polygon as turfPolygon, point as turfPoint } from '@turf/helpers';
import { kinks } from '@turf/kinks';
import { area } from '@turf/area';
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import { distance } from '@turf/distance';

export interface LatLon {
  lat: number;
  lon: number;
}

export type GeofenceShape =
  { shape: 'polygon'; points: LatLon[]; holes?: LatLon[][] } | { shape: 'circle'; center: LatLon; radius_m: number };

export interface Bounds {
  min_lat: number;
  max_lat: number;
  min_lon: number;
  max_lon: number;
}

/** Largest radius accepted, meters (a geofence is a place, not a region of the globe). */
export const MAX_RADIUS_M = 500_000;
/** A ring enclosing less than this area, square meters, is treated as a line. */
const MIN_AREA_M2 = 1;
const M_PER_DEG_LAT = 111_320;

/** Why a coordinate is not a point on Earth, or null. `field` names it in the message. */
export function pointProblem(field: string, p: LatLon): string | null {
  if (!Number.isFinite(p.lat) || p.lat < -90 || p.lat > 90) return `${field}.lat must be between -90 and 90`;
  if (!Number.isFinite(p.lon) || p.lon < -180 || p.lon > 180) return `${field}.lon must be between -180 and 180`;
  return null;
}

const same = (a: LatLon, b: LatLon) => a.lat === b.lat && a.lon === b.lon;

/** Drops the closing repeat of the first point and consecutive repeats: the ring's distinct vertices, in order. */
export function ringVertices(points: LatLon[]): LatLon[] {
  const out: LatLon[] = [];
  for (const p of points) if (out.length === 0 || !same(out[out.length - 1], p)) out.push({ lat: p.lat, lon: p.lon });
  while (out.length > 1 && same(out[0], out[out.length - 1])) out.pop();
  return out;
}

function toTurf(vertices: LatLon[], holes: LatLon[][] = []) {
  const ring = (v: LatLon[]) => [...v, v[0]].map((p) => [p.lon, p.lat]);
  return turfPolygon([ring(vertices), ...holes.map(ring)]);
}

/**
 * The polygon's vertices when `points` describe a valid polygon, else the problem (a message that
 * starts with `field`).
 */
export function checkPolygon(field: string, points: LatLon[]): { vertices: LatLon[] } | { problem: string } {
  for (let i = 0; i < points.length; i++) {
    const problem = pointProblem(`${field}[${i}]`, points[i]);
    if (problem) return { problem };
  }
  const vertices = ringVertices(points);
  const distinct = new Set(vertices.map((p) => `${p.lat},${p.lon}`)).size;
  if (distinct < 3) return { problem: `${field} must have at least 3 distinct points, got ${distinct}` };
  const poly = toTurf(vertices);
  const crossings = kinks(poly).features;
  if (crossings.length > 0) {
    const [lon, lat] = crossings[0].geometry.coordinates;
    return { problem: `${field} must not cross itself; its edges cross near lat ${round(lat)}, lon ${round(lon)}` };
  }
  if (Math.abs(planarArea(vertices)) < 1e-12 || area(poly) < MIN_AREA_M2) {
    return { problem: `${field} must enclose an area; the points lie on one line` };
  }
  return { vertices };
}

/**
 * The holes' vertices when `holes` are valid holes of the polygon `outer` (its checked vertices), else
 * the problem, naming `holes[i]`.
 */
export function checkHoles(outer: LatLon[], holes: LatLon[][]): { holes: LatLon[][] } | { problem: string } {
  const rings: LatLon[][] = [];
  for (let i = 0; i < holes.length; i++) {
    const checked = checkPolygon(`holes[${i}]`, holes[i]);
    if ('problem' in checked) return checked;
    rings.push(checked.vertices);
  }
  const crossings = kinks(toTurf(outer, rings)).features;
  if (crossings.length > 0) {
    const [lon, lat] = crossings[0].geometry.coordinates;
    return {
      problem: `holes must lie inside location_points without crossing it or each other; edges cross near lat ${round(lat)}, lon ${round(lon)}`,
    };
  }
  const strictlyIn = (p: LatLon, poly: ReturnType<typeof toTurf>) =>
    booleanPointInPolygon(turfPoint([p.lon, p.lat]), poly, { ignoreBoundary: true });
  const outerPolygon = toTurf(outer);
  const holePolygons = rings.map((r) => toTurf(r));
  for (let i = 0; i < rings.length; i++) {
    if (!rings[i].every((p) => strictlyIn(p, outerPolygon)))
      return { problem: `holes[${i}] must lie inside location_points` };
    for (let j = 0; j < rings.length; j++) {
      if (j !== i && strictlyIn(rings[i][0], holePolygons[j]))
        return { problem: `holes[${i}] must not lie inside holes[${j}]` };
    }
  }
  return { holes: rings };
}

/** Why a center and radius do not describe a circle, or null. */
export function circleProblem(center: LatLon, radiusM: number): string | null {
  const problem = pointProblem('center', center);
  if (problem) return problem;
  if (!Number.isFinite(radiusM) || radiusM <= 0) return 'radius_m must be greater than 0';
  if (radiusM > MAX_RADIUS_M) return `radius_m must be at most ${MAX_RADIUS_M}`;
  return null;
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * Signed area in square degrees (shoelace). Containment is decided in the plane of lat/lon degrees, so
 * a ring whose points lie on one straight line there encloses nothing, whatever its area on the sphere.
 */
function planarArea(vertices: LatLon[]): number {
  let sum = 0;
  for (let i = 0; i < vertices.length; i++) {
    const a = vertices[i];
    const b = vertices[(i + 1) % vertices.length];
    sum += a.lon * b.lat - b.lon * a.lat;
  }
  return sum / 2;
}

export function boundsOf(g: GeofenceShape): Bounds {
  if (g.shape === 'polygon') {
    const lats = g.points.map((p) => p.lat);
    const lons = g.points.map((p) => p.lon);
    return {
      min_lat: Math.min(...lats),
      max_lat: Math.max(...lats),
      min_lon: Math.min(...lons),
      max_lon: Math.max(...lons),
    };
  }
  const dLat = g.radius_m / M_PER_DEG_LAT;
  const cos = Math.cos((g.center.lat * Math.PI) / 180);
  const dLon = cos < 1e-9 ? 180 : Math.min(180, g.radius_m / (M_PER_DEG_LAT * cos));
  return {
    min_lat: Math.max(-90, g.center.lat - dLat),
    max_lat: Math.min(90, g.center.lat + dLat),
    min_lon: Math.max(-180, g.center.lon - dLon),
    max_lon: Math.min(180, g.center.lon + dLon),
  };
}

/** Great-circle distance between two points, meters. */
export function distanceM(a: LatLon, b: LatLon): number {
  return distance(turfPoint([a.lon, a.lat]), turfPoint([b.lon, b.lat]), { units: 'meters' });
}

/**
 * Whether `p` is inside the geofence (boundary included). `bufferM` grows a circle, for the exit
 * hysteresis of docs/reference/domain-rules.md §7 D-4.
 */
export function contains(g: GeofenceShape, p: LatLon, bufferM = 0): boolean {
  if (g.shape === 'circle') return distanceM(g.center, p) <= g.radius_m + bufferM;
  return booleanPointInPolygon(turfPoint([p.lon, p.lat]), toTurf(g.points, g.holes));
}

/** Cheap pre-check before `contains`: is the point inside the bounding box? */
export function inBounds(b: Bounds, p: LatLon): boolean {
  return p.lat >= b.min_lat && p.lat <= b.max_lat && p.lon >= b.min_lon && p.lon <= b.max_lon;
}
