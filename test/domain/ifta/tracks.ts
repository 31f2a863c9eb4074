/**
 * Synthetic tracks for the IFTA tests: points every few seconds along a polyline of (lat, lon)
 * waypoints at a constant speed, with an odometer that follows the travelled distance (optionally
 * scaled, stepped like a coarse ECM odometer, or absent), and a small rectangle fixture index.
 */
import { JurisdictionIndex } from '../../../src/domain/ifta/grid-index.js';
import { distanceKm } from '../../../src/domain/ifta/geometry.js';
import { contextMs, type AllocationRules, type Fragment, type Track } from '../../../src/domain/ifta/rules.js';

export type LatLon = [number, number];

export interface TrackOptions {
  t0: number;
  everyS?: number;
  kph?: number;
  odo0?: number;
  /** Odometer km per GPS km (1.02: the odometer reads 2 % more). */
  odoFactor?: number;
  /** The odometer advances in steps of this many km (rounded down). */
  odoStepKm?: number;
  noOdo?: boolean;
}

export interface Built {
  track: Track;
  /** Distance along the polyline, km (our distance measure). */
  km: number;
}

export const km = (a: LatLon, b: LatLon) => distanceKm(a[1], a[0], b[1], b[0]);

/** Points along the waypoints, the last waypoint included. */
export function along(waypoints: LatLon[], o: TrackOptions): Built {
  const every = o.everyS ?? 10;
  const step = ((o.kph ?? 90) * every) / 3600;
  const pts: Array<{ lat: number; lon: number; d: number }> = [{ lat: waypoints[0][0], lon: waypoints[0][1], d: 0 }];
  let done = 0;
  let offset = step;
  for (let w = 0; w + 1 < waypoints.length; w++) {
    const a = waypoints[w],
      b = waypoints[w + 1];
    const len = km(a, b);
    let pos = offset;
    while (pos < len) {
      const f = pos / len;
      pts.push({ lat: a[0] + (b[0] - a[0]) * f, lon: a[1] + (b[1] - a[1]) * f, d: done + pos });
      pos += step;
    }
    offset = pos - len;
    done += len;
  }
  const last = waypoints[waypoints.length - 1];
  if (done - pts[pts.length - 1].d > 1e-9) pts.push({ lat: last[0], lon: last[1], d: done });
  const n = pts.length;
  const track: Track = {
    n,
    t: new Float64Array(n),
    lat: new Float64Array(n),
    lon: new Float64Array(n),
    odo: new Float64Array(n),
  };
  let t = o.t0;
  for (let i = 0; i < n; i++) {
    if (i > 0) t += ((pts[i].d - pts[i - 1].d) / step) * every * 1000;
    track.t[i] = Math.round(t);
    track.lat[i] = pts[i].lat;
    track.lon[i] = pts[i].lon;
    let odo = (o.odo0 ?? 1000) + pts[i].d * (o.odoFactor ?? 1);
    if (o.odoStepKm) odo = Math.floor(odo / o.odoStepKm) * o.odoStepKm;
    track.odo[i] = o.noOdo ? NaN : odo;
  }
  return { track, km: done };
}

/** Concatenates tracks (their times must already follow each other); speed, accuracy and engine state are kept when any part has them. */
export function concat(...parts: Track[]): Track {
  const n = parts.reduce((s, p) => s + p.n, 0);
  const out: Track = {
    n,
    t: new Float64Array(n),
    lat: new Float64Array(n),
    lon: new Float64Array(n),
    odo: new Float64Array(n),
  };
  if (parts.some((p) => p.speed)) out.speed = new Float64Array(n).fill(NaN);
  if (parts.some((p) => p.accuracy)) out.accuracy = new Float64Array(n).fill(NaN);
  if (parts.some((p) => p.engineOff)) out.engineOff = new Uint8Array(n);
  let k = 0;
  for (const p of parts) {
    out.t.set(p.t, k);
    out.lat.set(p.lat, k);
    out.lon.set(p.lon, k);
    out.odo.set(p.odo, k);
    if (p.speed) out.speed!.set(p.speed, k);
    if (p.accuracy) out.accuracy!.set(p.accuracy, k);
    if (p.engineOff) out.engineOff!.set(p.engineOff, k);
    k += p.n;
  }
  return out;
}

/** Inserts one point at index i. */
export function insertPoint(tr: Track, i: number, p: { t: number; lat: number; lon: number; odo: number }): Track {
  const head = slice(tr, 0, i);
  const one: Track = {
    n: 1,
    t: Float64Array.of(p.t),
    lat: Float64Array.of(p.lat),
    lon: Float64Array.of(p.lon),
    odo: Float64Array.of(p.odo),
  };
  return concat(head, one, slice(tr, i, tr.n));
}

export function slice(tr: Track, a: number, b: number): Track {
  const out: Track = {
    n: b - a,
    t: tr.t.slice(a, b),
    lat: tr.lat.slice(a, b),
    lon: tr.lon.slice(a, b),
    odo: tr.odo.slice(a, b),
  };
  if (tr.speed) out.speed = tr.speed.slice(a, b);
  if (tr.accuracy) out.accuracy = tr.accuracy.slice(a, b);
  if (tr.engineOff) out.engineOff = tr.engineOff.slice(a, b);
  return out;
}

/**
 * The points the store loads to compute the owner periods in [fromT, toT) (src/domain/ifta/recompute.ts):
 * those within contextMs(rules) of the window, three more before and one more after.
 */
export function asLoaded(tr: Track, fromT: number, toT: number, rules: AllocationRules): Track {
  const margin = contextMs(rules);
  let a = 0;
  while (a < tr.n && tr.t[a] < fromT - margin) a++;
  let b = a;
  while (b < tr.n && tr.t[b] < toT + margin) b++;
  return slice(tr, Math.max(0, a - 3), Math.min(tr.n, b + 1));
}

/** A seeded generator of uniform numbers in [0, 1) (xorshift32), and of normal ones. */
export function rng(seed: number): { uniform: () => number; normal: () => number } {
  let s = seed >>> 0 || 1;
  const uniform = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
  const normal = () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
  return { uniform, normal };
}

export interface ParkedOptions {
  t0: number;
  seconds: number;
  everyS?: number;
  /** Standard deviation of the GPS error along each axis, m. */
  sigmaM: number;
  seed?: number;
  odo?: number;
  /** Reported speed (km/h), a function of the point's index, or none. */
  speed?: number | ((i: number) => number);
  accuracyM?: number;
  engineOff?: boolean;
}

/** A vehicle standing at (lat, lon): fixes scattered by a normal GPS error. */
export function parked(at: LatLon, o: ParkedOptions): Track {
  const every = o.everyS ?? 1;
  const n = Math.floor(o.seconds / every) + 1;
  const r = rng(o.seed ?? 7);
  const mPerLat = 111_132,
    mPerLon = 111_320 * Math.cos((at[0] * Math.PI) / 180);
  const tr: Track = {
    n,
    t: new Float64Array(n),
    lat: new Float64Array(n),
    lon: new Float64Array(n),
    odo: new Float64Array(n).fill(o.odo ?? NaN),
  };
  if (o.speed !== undefined) tr.speed = new Float64Array(n);
  if (o.accuracyM !== undefined) tr.accuracy = new Float64Array(n).fill(o.accuracyM);
  if (o.engineOff) tr.engineOff = new Uint8Array(n).fill(1);
  for (let i = 0; i < n; i++) {
    tr.t[i] = o.t0 + i * every * 1000;
    tr.lat[i] = at[0] + (r.normal() * o.sigmaM) / mPerLat;
    tr.lon[i] = at[1] + (r.normal() * o.sigmaM) / mPerLon;
    if (tr.speed) tr.speed[i] = typeof o.speed === 'function' ? o.speed(i) : o.speed!;
  }
  return tr;
}

/** The track with a reported speed on every point (km/h). */
export const withSpeed = (tr: Track, kph: number): Track => ({ ...tr, speed: new Float64Array(tr.n).fill(kph) });

export const odoSpan = (tr: Track) => tr.odo[tr.n - 1] - tr.odo[0];

/** km per jurisdiction code ('--' for unplaced). */
export function byCode(frags: Fragment[], codes: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const f of frags) {
    const c = f.j >= 0 ? codes[f.j] : '--';
    out[c] = (out[c] ?? 0) + f.distanceKm;
  }
  return out;
}

export const sum = (frags: Fragment[]) => frags.reduce((s, f) => s + f.distanceKm, 0);

const rect = (x0: number, y0: number, x1: number, y1: number) => [
  [x0, y0],
  [x1, y0],
  [x1, y1],
  [x0, y1],
  [x0, y0],
];

/**
 * Fixture: AA = [-100, -99] × [40, 41], BB = [-99, -98] × [40, 41], CC = [-100, -98] × [41, 42], and DD =
 * [-97, -95] × [40, 42] with a lake [-96.5, -95.5] × [40.5, 41.5] cut out. Everything else is sea.
 */
export function fixtureIndex(): JurisdictionIndex {
  return new JurisdictionIndex([
    { code: 'AA', polygons: [[rect(-100, 40, -99, 41)]] },
    { code: 'BB', polygons: [[rect(-99, 40, -98, 41)]] },
    { code: 'CC', polygons: [[rect(-100, 41, -98, 42)]] },
    { code: 'DD', polygons: [[rect(-97, 40, -95, 42), rect(-96.5, 40.5, -95.5, 41.5).reverse()]] },
  ]);
}

/** |got − want| ≤ 0.5 % of want. */
export function within(got: number | undefined, want: number, rel = 0.005): boolean {
  return got !== undefined && Math.abs(got - want) <= rel * Math.abs(want);
}
