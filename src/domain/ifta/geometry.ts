/**
 * Small geometry helpers of the IFTA allocator. Coordinates are degrees; `x` is the longitude with
 * eastern values shifted by −360° (so Alaska's Aleutians west of the antimeridian stay next to the
 * rest of North America), `y` the latitude. Distances are kilometres on the WGS84 ellipsoid with the
 * local flat-earth approximation of `cheap-ruler` (under 0.1 % error up to a few hundred km).
 */
const RE_KM = 6378.137;
const FE = 1 / 298.257223563;
const E2 = FE * (2 - FE);
const RAD = Math.PI / 180;

/** Longitude → the index's x (east of 0° becomes x − 360). */
export const toX = (lon: number): number => (lon > 0 ? lon - 360 : lon);
/** The index's x → a longitude in [−180, 180]. */
export const fromX = (x: number): number => (x < -180 ? x + 360 : x);

/** Kilometres per degree of x and y at a latitude. */
export function kmPerDegree(lat: number): { kx: number; ky: number } {
  const cos = Math.cos(lat * RAD);
  const w2 = 1 / (1 - E2 * (1 - cos * cos));
  const w = Math.sqrt(w2);
  const m = RAD * RE_KM;
  return { kx: m * w * cos, ky: m * w * w2 * (1 - E2) };
}

/** Distance in km between two (x, y) points, evaluated at their mean latitude. */
export function distanceKm(x1: number, y1: number, x2: number, y2: number): number {
  const lat = (y1 + y2) / 2;
  const cos = Math.cos(lat * RAD);
  const w2 = 1 / (1 - E2 * (1 - cos * cos));
  const w = Math.sqrt(w2);
  const m = RAD * RE_KM;
  let dx = x2 - x1;
  if (dx > 180) dx -= 360;
  else if (dx < -180) dx += 360;
  const ex = dx * m * w * cos;
  const ey = (y2 - y1) * m * w * w2 * (1 - E2);
  return Math.sqrt(ex * ex + ey * ey);
}

/**
 * Parameter t ∈ [0, 1] along p→q where it crosses the segment a→b, or −1. Touching at an end counts
 * (the caller classifies the pieces between crossings, so an extra cut is harmless).
 */
export function crossingParam(
  px: number,
  py: number,
  qx: number,
  qy: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
): number {
  const rx = qx - px;
  const ry = qy - py;
  const sx = bx - ax;
  const sy = by - ay;
  const den = rx * sy - ry * sx;
  if (den === 0) return -1;
  const wx = ax - px;
  const wy = ay - py;
  const t = (wx * sy - wy * sx) / den;
  const u = (wx * ry - wy * rx) / den;
  if (t < 0 || t > 1 || u < 0 || u > 1) return -1;
  return t;
}

/** Does segment p→q meet the axis-aligned box [x0, x1] × [y0, y1]? (Liang–Barsky clipping.) */
export function segmentMeetsBox(
  px: number,
  py: number,
  qx: number,
  qy: number,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
): boolean {
  let t0 = 0;
  let t1 = 1;
  const dx = qx - px;
  const dy = qy - py;
  const clip = (p: number, q: number): boolean => {
    if (p === 0) return q >= 0;
    const r = q / p;
    if (p < 0) {
      if (r > t1) return false;
      if (r > t0) t0 = r;
    } else {
      if (r < t0) return false;
      if (r < t1) t1 = r;
    }
    return true;
  };
  return clip(-dx, px - x0) && clip(dx, x1 - px) && clip(-dy, py - y0) && clip(dy, y1 - py);
}

/** Squared distance in km² from a point to a segment, in a local frame scaled by kx, ky. */
export function pointSegmentKm2(
  px: number,
  py: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
  kx: number,
  ky: number,
): number {
  const ux = (bx - ax) * kx;
  const uy = (by - ay) * ky;
  const vx = (px - ax) * kx;
  const vy = (py - ay) * ky;
  const len2 = ux * ux + uy * uy;
  let t = len2 > 0 ? (vx * ux + vy * uy) / len2 : 0;
  if (t < 0) t = 0;
  else if (t > 1) t = 1;
  const dx = vx - t * ux;
  const dy = vy - t * uy;
  return dx * dx + dy * dy;
}
