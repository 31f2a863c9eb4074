/**
 * From raw points to segments with a distance: cleaning (docs/reference/domain-rules.md §3.3 step 1), the gap rule, and
 * the odometer model (steps 2 and 6). Pure.
 *
 * Cleaning drops points with no usable fix ((0, 0), out of range, not finite), points whose time is
 * not after the previous kept point (duplicates), and isolated jumps: a point that implies more than
 * maxSpeedKph from its previous and to its next valid point while those two are plausible together.
 *
 * Gaps: a segment is a gap when it lasts longer than gapTimeMs, spans more than gapDistanceKm, or
 * implies more than maxSpeedKph. Its distance is the odometer advance when both ends have a reading
 * and the advance is plausible: not negative, at most maxSpeedKph over its duration, and at least 95 %
 * of the straight line between its ends less 1 km (a vehicle cannot drive less than that; a smaller
 * advance means a carried vehicle or inconsistent data). Without that, nothing is counted (no distance
 * is invented).
 *
 * GPS length: a segment's straight-line length, except that a vehicle standing still adds nothing
 * (the stationary rule, stationary.ts); gaps and the speed test use the straight-line length.
 *
 * Distance of the other segments: the odometer is authoritative. Between two readings that differ
 * (anchors), the odometer advance is spread over the segments in proportion to their GPS length, so a
 * coarse odometer (0.1 km or 1 mi steps) and points without a reading are handled alike, and the
 * shares add up exactly to the odometer distance. Segments with no reading on either side, or where
 * the odometer runs backwards or impossibly fast (reset, glitch) or stays far behind the movement
 * (stuck: less than half the straight-line distance minus 1 km), use the GPS length instead. Runs of
 * segments restart at gaps and at owner-period boundaries (the segment across the boundary is
 * measured on its own), so that a period's result depends only on its own points and the one before.
 */
import { distanceKm, toX } from './geometry.js';
import { countedKm, CUT_BOUNDARY, CUT_GAP, CUT_NONE } from './stationary.js';
import { GAP_WITH_DISTANCE, GAP_WITHOUT_DISTANCE, NORMAL, type AllocationRules, type Track } from './rules.js';

export interface Segments {
  /** Accepted point indexes into the track, count m; segment s joins acc[s] and acc[s + 1]. */
  acc: Int32Array;
  m: number;
  /** x (shifted longitude) of every track point. */
  x: Float64Array;
  km: Float64Array;
  kind: Uint8Array;
  /** Calibrated odometer at the segment's start and end, NaN when unknown. */
  odoA: Float64Array;
  odoB: Float64Array;
}

const H = 3_600_000;
/** A gap's odometer advance is believed only if it covers this share of the straight line between its ends (less 1 km). */
const GAP_MIN_SHARE = 0.95;

export interface Cleaned {
  acc: Int32Array;
  m: number;
  x: Float64Array;
  /** GPS distance, km, from the previous accepted point to each accepted point (by track index). */
  geoToPrev: Float64Array;
}

export function clean(tr: Track, rules: AllocationRules): Cleaned {
  const { n, t, lat, lon } = tr;
  const x = new Float64Array(n);
  const valid = new Int32Array(n);
  let v = 0;
  let lastT = -Infinity;
  for (let i = 0; i < n; i++) {
    const la = lat[i],
      lo = lon[i],
      ti = t[i];
    if (!(la >= -90 && la <= 90 && lo >= -180 && lo <= 180 && Number.isFinite(ti))) continue;
    if (la === 0 && lo === 0) continue;
    if (!(ti > lastT)) continue;
    lastT = ti;
    x[i] = toX(lo);
    valid[v++] = i;
  }
  // step[k]: distance from valid point k − 1 to k.
  const step = new Float64Array(v);
  for (let k = 1; k < v; k++) step[k] = distanceKm(x[valid[k - 1]], lat[valid[k - 1]], x[valid[k]], lat[valid[k]]);
  const acc = new Int32Array(v);
  const geoToPrev = new Float64Array(n);
  let m = 0;
  const max = rules.maxSpeedKph;
  let last = -1;
  for (let k = 0; k < v; k++) {
    const i = valid[k];
    if (k > 0 && k + 1 < v) {
      const p = valid[k - 1],
        q = valid[k + 1];
      if (
        step[k] / ((t[i] - t[p]) / H) > max &&
        step[k + 1] / ((t[q] - t[i]) / H) > max &&
        distanceKm(x[p], lat[p], x[q], lat[q]) / ((t[q] - t[p]) / H) <= max
      )
        continue;
    }
    if (last >= 0) geoToPrev[i] = last === valid[k - 1] ? step[k] : distanceKm(x[last], lat[last], x[i], lat[i]);
    acc[m++] = i;
    last = i;
  }
  return { acc, m, x, geoToPrev };
}

export function segments(tr: Track, rules: AllocationRules): Segments {
  const { acc, m, x, geoToPrev } = clean(tr, rules);
  const { t, lat, odo } = tr;
  const ns = Math.max(0, m - 1);
  const km = new Float64Array(ns);
  const kind = new Uint8Array(ns);
  const odoA = new Float64Array(ns).fill(NaN);
  const odoB = new Float64Array(ns).fill(NaN);
  const max = rules.maxSpeedKph;
  const ok = (k: number) => Number.isFinite(odo[acc[k]]);
  const val = (k: number) => odo[acc[k]];
  const plausible = (d: number, dtMs: number) => d >= 0 && d <= (max * dtMs) / H + 0.5;

  // Gaps and owner-period boundaries first (on the straight-line length), then the stationary rule.
  const step = new Float64Array(ns);
  const cut = new Uint8Array(ns);
  const gapCut = CUT_GAP,
    boundaryCut = CUT_BOUNDARY,
    noCut = CUT_NONE;
  const gapMs = rules.gapTimeMs,
    gapKm = rules.gapDistanceKm,
    kmPerMs = max / H,
    ownerMs = rules.ownerMs;
  let ownerA = ns > 0 ? Math.floor(t[acc[0]] / ownerMs) : 0;
  for (let s = 0; s < ns; s++) {
    const b = acc[s + 1];
    const tb = t[b];
    const dt = tb - t[acc[s]];
    const d = (step[s] = geoToPrev[b]);
    const ownerB = Math.floor(tb / ownerMs);
    if (dt > gapMs || d > gapKm || d > kmPerMs * dt) cut[s] = gapCut;
    else if (ownerA !== ownerB) cut[s] = boundaryCut;
    ownerA = ownerB;
  }
  const geo = countedKm(tr, rules, acc, m, x, step, cut);

  const useGeo = (k0: number, k1: number) => {
    for (let s = k0; s < k1; s++) {
      km[s] = geo[s];
      if (ok(s) && ok(s + 1) && val(s + 1) >= val(s)) {
        odoA[s] = val(s);
        odoB[s] = val(s + 1);
      }
    }
  };
  const closeSpan = (k0: number, k1: number) => {
    if (k1 <= k0) return;
    const d = val(k1) - val(k0);
    const a = acc[k0],
      b = acc[k1];
    if (d < 0.5 * distanceKm(x[a], lat[a], x[b], lat[b]) - 1) return useGeo(k0, k1);
    let g = 0;
    for (let s = k0; s < k1; s++) g += geo[s];
    let o = val(k0);
    for (let s = k0; s < k1; s++) {
      km[s] = g > 0 ? (d * geo[s]) / g : d / (k1 - k0);
      odoA[s] = o;
      o += km[s];
      odoB[s] = s + 1 === k1 ? val(k1) : o;
    }
  };
  /** Points k0..k1 joined by normal segments. */
  const run = (k0: number, k1: number) => {
    let anchor = -1;
    let last = -1;
    for (let k = k0; k <= k1; k++) {
      if (!ok(k)) continue;
      if (anchor < 0) {
        useGeo(k0, k);
        anchor = last = k;
        continue;
      }
      const d = val(k) - val(anchor);
      if (d === 0) {
        last = k;
        continue;
      }
      if (plausible(d, t[acc[k]] - t[acc[anchor]])) {
        closeSpan(anchor, k);
      } else {
        closeSpan(anchor, last);
        useGeo(last, k);
      }
      anchor = last = k;
    }
    if (anchor < 0) return useGeo(k0, k1);
    closeSpan(anchor, last);
    useGeo(last, k1);
  };

  let start = 0;
  for (let s = 0; s < ns; s++) {
    const c = cut[s];
    if (c === noCut) continue;
    const a = acc[s],
      b = acc[s + 1];
    const dt = t[b] - t[a];
    if (s > start) run(start, s);
    start = s + 1;
    const d = ok(s) && ok(s + 1) ? val(s + 1) - val(s) : NaN;
    if (c === gapCut) {
      if (plausible(d, dt) && d >= GAP_MIN_SHARE * geo[s] - 1) {
        kind[s] = GAP_WITH_DISTANCE;
        km[s] = d;
        odoA[s] = val(s);
        odoB[s] = val(s + 1);
      } else {
        kind[s] = GAP_WITHOUT_DISTANCE;
      }
    } else if (plausible(d, dt) && d >= 0.5 * geo[s] - 1) {
      km[s] = d;
      odoA[s] = val(s);
      odoB[s] = val(s + 1);
    } else {
      useGeo(s, s + 1);
    }
  }
  if (ns > start) run(start, ns);
  for (let s = 0; s < ns; s++) if (kind[s] === NORMAL && !(km[s] >= 0)) km[s] = 0;
  return { acc, m, x, km, kind, odoA, odoB };
}
