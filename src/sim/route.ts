/**
 * Routes for the simulator: legs between real US and Canadian cities (the bundled place list), as a
 * line of waypoints along the great circle with a gentle deterministic sideways wander so that tracks
 * look like roads rather than rulers. Pure functions of their inputs and the PRNG.
 */
import { bigPlaces } from '../telemetry/geocode/places.js';
import { bearingDeg, haversineM } from '../telemetry/units.js';
import type { Prng } from '../demo/random.js';

export interface City {
  name: string;
  region: string;
  lat: number;
  lon: number;
}

let cache: City[] | null = null;

/** Cities of 200,000+ inhabitants in the US and Canada, largest first (the simulator's route ends). */
export function simCities(): City[] {
  cache ??= bigPlaces(['US', 'CA'], 200_000).map(({ name, region, lat, lon }) => ({ name, region, lat, lon }));
  return cache;
}

export interface Route {
  from: City;
  to: City;
  points: Array<{ lat: number; lon: number; km: number }>;
  lengthKm: number;
}

const WAYPOINT_KM = 5;

/** The next destination: a city 150–650 km away (else the nearest other one). */
export function nextDestination(from: City, rng: Prng, cities = simCities()): City {
  const others = cities.filter((c) => c !== from && c.name !== from.name);
  const inRange = others.filter((c) => {
    const km = haversineM(from.lat, from.lon, c.lat, c.lon) / 1000;
    return km >= 150 && km <= 650;
  });
  if (inRange.length) return rng.pick(inRange);
  return others.sort((a, b) => haversineM(from.lat, from.lon, a.lat, a.lon) - haversineM(from.lat, from.lon, b.lat, b.lon))[0];
}

export function planRoute(from: City, to: City, rng: Prng): Route {
  const direct = haversineM(from.lat, from.lon, to.lat, to.lon) / 1000;
  const n = Math.max(2, Math.ceil(direct / WAYPOINT_KM));
  const amp = Math.min(0.15, direct / 2000) * (rng.next() - 0.5) * 2;
  const waves = 1 + rng.int(0, 2);
  const raw: Array<{ lat: number; lon: number }> = [];
  for (let i = 0; i <= n; i++) {
    const f = i / n;
    const lat = from.lat + (to.lat - from.lat) * f;
    const lon = from.lon + (to.lon - from.lon) * f;
    // Wander perpendicular to the straight line, zero at both ends.
    const off = amp * Math.sin(Math.PI * f * waves) * Math.sin(Math.PI * f);
    raw.push({ lat: lat + off * (to.lon - from.lon) * 0.1, lon: lon - off * (to.lat - from.lat) * 0.1 });
  }
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
  return { lat: a.lat + (b.lat - a.lat) * f, lon: a.lon + (b.lon - a.lon) * f, bearing: Math.round(bearingDeg(a.lat, a.lon, b.lat, b.lon)) };
}
