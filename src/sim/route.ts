/**
 * Routes for the simulator: legs between real US and Canadian cities (the bundled place list), as a
 * line of waypoints through bends drawn from the PRNG, so that tracks run about as much longer than
 * the straight line as roads do, and staying on land in the US and Canada (the IFTA boundaries). Pure
 * functions of their inputs and the PRNG.
 */
import { bigPlaces } from '../telemetry/geocode/places.js';
import { bearingDeg, haversineM } from '../telemetry/units.js';
import { Prng } from '../demo/random.js';
import { SNAP_TOLERANCE_KM, jurisdictionAt, nearestJurisdiction } from '../domain/ifta/boundaries.js';
import { countryOf } from '../domain/jurisdictions.js';
import { inLakeCore } from './water.js';

export interface City {
  name: string;
  region: string;
  lat: number;
  lon: number;
}

let cache: City[] | null = null;

/**
 * Cities of 200,000+ inhabitants in the US and Canada, largest first (the simulator's route ends),
 * keeping those with a leg on land to another within 650 km: no Honolulu, Anchorage, Victoria or
 * Halifax, which trucks could neither reach nor leave by road here.
 */
export function simCities(): City[] {
  if (cache) return cache;
  const all = bigPlaces(['US', 'CA'], 200_000).map(({ name, region, lat, lon }) => ({ name, region, lat, lon }));
  cache = all.filter((c) => landLinked(c, all));
  return cache;
}

function landLinked(from: City, cities: City[]): boolean {
  const rng = new Prng(1);
  const near = cities.filter((c) => c !== from && haversineM(from.lat, from.lon, c.lat, c.lon) <= 650_000);
  return near.some((to) => Array.from({ length: TRIES }, () => planRoute(from, to, rng)).some(onLand));
}

export interface Route {
  from: City;
  to: City;
  points: Array<{ lat: number; lon: number; km: number }>;
  lengthKm: number;
}

const WAYPOINT_KM = 5;

/**
 * Where a leg from `from` may go: the cities 150–650 km away in an order drawn from the PRNG, then the
 * DESTINATIONS nearest others (for a city with few or no neighbours in that range).
 */
function destinations(from: City, rng: Prng, cities: City[]): City[] {
  const km = (c: City) => haversineM(from.lat, from.lon, c.lat, c.lon) / 1000;
  const others = cities.filter((c) => c !== from && c.name !== from.name);
  const inRange = others.filter((c) => km(c) >= 150 && km(c) <= 650);
  for (let i = inRange.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [inRange[i], inRange[j]] = [inRange[j], inRange[i]];
  }
  const rest = others.filter((c) => !inRange.includes(c)).sort((a, b) => km(a) - km(b));
  return [...inRange.slice(0, DESTINATIONS), ...rest.slice(0, DESTINATIONS)];
}

/** Spacing of the points onLand checks along a route, km. */
const CHECK_KM = 1;

/**
 * Where a simulated truck may be: in a US state or Canadian province (or within the IFTA snap
 * distance of one: coastline generalisation), off the open water inside them (./water.ts: the Great
 * Lakes, the large bays and sounds), and not in Mexico beyond that same distance from a state. The
 * margin is for El Paso, whose legs to the west leave along the border: the checks every CHECK_KM
 * cannot keep a leg from clipping a few hundred metres of Mexico between them.
 */
export function drivable(lat: number, lon: number): boolean {
  if (inLakeCore(lat, lon)) return false;
  const j = nearestJurisdiction(lat, lon);
  if (j === null) return false;
  return countryOf(j.code) !== 'MX' || nearTheUs(lat, lon);
}

/** A point SNAP_TOLERANCE_KM from (lat, lon) north, south, east, west or diagonally lies in a US state. */
function nearTheUs(lat: number, lon: number): boolean {
  const dLat = SNAP_TOLERANCE_KM / 111.32;
  const dLon = dLat / Math.cos((lat * Math.PI) / 180);
  for (const [a, b] of [
    [1, 0],
    [-1, 0],
    [0, 1],
    [0, -1],
    [0.7, 0.7],
    [0.7, -0.7],
    [-0.7, 0.7],
    [-0.7, -0.7],
  ]) {
    const c = jurisdictionAt(lat + a * dLat, lon + b * dLon);
    if (c !== null && countryOf(c) === 'US') return true;
  }
  return false;
}

/** The whole path, checked every CHECK_KM, is drivable: no leg through Mexico or across open water. */
export function onLand(route: Route): boolean {
  const pts = route.points;
  const ok = drivable;
  if (!ok(pts[0].lat, pts[0].lon)) return false;
  for (let i = 1; i < pts.length; i++) {
    const [a, b] = [pts[i - 1], pts[i]];
    const n = Math.max(1, Math.ceil((b.km - a.km) / CHECK_KM));
    for (let k = 1; k <= n; k++) {
      if (!ok(a.lat + ((b.lat - a.lat) * k) / n, a.lon + ((b.lon - a.lon) * k) / n)) return false;
    }
  }
  return true;
}

/** Tries per destination, and destinations, before a leg is taken as it comes. */
const TRIES = 3;
const DESTINATIONS = 12;

/**
 * The next leg from `from`: a destination 150–650 km away (else a nearer or farther one) and a path to
 * it that stays on land in the US and Canada (onLand). A place with no such leg (a truck resumed on an
 * island, say) takes the first one tried.
 */
export function planLeg(from: City, rng: Prng, cities = simCities()): Route {
  let first: Route | null = null;
  for (const to of destinations(from, rng, cities)) {
    for (let k = 0; k < TRIES; k++) {
      const route = planRoute(from, to, rng);
      if (onLand(route)) return route;
      first ??= route;
    }
  }
  if (!first) throw new Error(`no city to drive to from ${from.name}`);
  return first;
}

/** Kilometres between control points of a leg: about one bend of the road in this many. */
const BEND_KM = 60;
/** Sideways offset of a control point, at most this share of the distance between control points. */
const BEND = 0.8;

/**
 * A path like a road's between two cities: control points about every BEND_KM along the straight line,
 * each moved sideways by up to BEND of that spacing (so the path runs longer than the
 * straight line: 1.05–1.3 times, 1.15 typically, as roads do), then waypoints every WAYPOINT_KM along the bends.
 */
export function planRoute(from: City, to: City, rng: Prng): Route {
  const direct = haversineM(from.lat, from.lon, to.lat, to.lon) / 1000;
  // A local plane (x: east km, y: north km) around the start.
  const kx = 111.32 * Math.cos((from.lat * Math.PI) / 180);
  const ky = 110.57;
  const end = { x: (to.lon - from.lon) * kx, y: (to.lat - from.lat) * ky };
  const len = Math.hypot(end.x, end.y) || 1;
  const side = { x: -end.y / len, y: end.x / len };
  const m = Math.max(1, Math.round(direct / BEND_KM));
  const controls = [{ x: 0, y: 0 }];
  for (let i = 1; i < m; i++) {
    const off = (rng.next() - 0.5) * 2 * BEND * (len / m);
    controls.push({ x: (end.x * i) / m + side.x * off, y: (end.y * i) / m + side.y * off });
  }
  controls.push(end);
  const raw: Array<{ lat: number; lon: number }> = [{ lat: from.lat, lon: from.lon }];
  for (let i = 1; i < controls.length; i++) {
    const [a, b] = [controls[i - 1], controls[i]];
    const n = Math.max(1, Math.ceil(Math.hypot(b.x - a.x, b.y - a.y) / WAYPOINT_KM));
    for (let j = 1; j <= n; j++) {
      const f = j / n;
      raw.push({ lat: from.lat + (a.y + (b.y - a.y) * f) / ky, lon: from.lon + (a.x + (b.x - a.x) * f) / kx });
    }
  }
  raw[raw.length - 1] = { lat: to.lat, lon: to.lon };
  const points: Route['points'] = [];
  let km = 0;
  raw.forEach((p, i) => {
    if (i > 0) km += haversineM(raw[i - 1].lat, raw[i - 1].lon, p.lat, p.lon) / 1000;
    points.push({ ...p, km });
  });
  return { from, to, points, lengthKm: km };
}

/** Position and heading `km` along the route (clamped to its ends). */
export function along(route: Route, km: number): { lat: number; lon: number; bearing: number } {
  const pts = route.points;
  const d = Math.max(0, Math.min(route.lengthKm, km));
  let lo = 0;
  let hi = pts.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (pts[mid].km <= d) lo = mid;
    else hi = mid;
  }
  const a = pts[lo];
  const b = pts[hi];
  const f = b.km > a.km ? (d - a.km) / (b.km - a.km) : 0;
  return {
    lat: a.lat + (b.lat - a.lat) * f,
    lon: a.lon + (b.lon - a.lon) * f,
    bearing: Math.round(bearingDeg(a.lat, a.lon, b.lat, b.lon)),
  };
}
