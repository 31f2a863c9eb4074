/**
 * The IFTA distance allocator (docs/reference/domain-rules.md §3.3): a vehicle's ordered points with odometer readings →
 * distance per jurisdiction and time bucket. Pure and synchronous; the spatial index is a parameter.
 *
 * 1. segments.ts cleans the points, finds gaps and gives every segment its distance (odometer first).
 * 2. Each segment is placed: a segment lying in grid cells of one jurisdiction goes there whole (the
 *    fast path); otherwise it is cut where it meets a border (the crossing point on the boundary) and
 *    each piece goes to the jurisdiction containing its middle. A piece outside every polygon (coast,
 *    GPS error) goes to the nearest jurisdiction within snapToleranceKm; failing that, to the
 *    jurisdiction on both sides when the track leaves and re-enters the same one without a gap within
 *    reentryMaxMs (a bridge or ferry over water the data leaves out), whatever owner periods the
 *    stretch spans; otherwise it stays unplaced (j = −1).
 * 3. Gap segments with an odometer distance: when both ends (snapped) are in the same jurisdiction the
 *    whole distance goes there; otherwise it is split along the straight line between them. Their
 *    distance is also reported as gapKm for review. Gaps without a distance add nothing.
 * 4. Pieces are cut at time-bucket boundaries (time interpolated linearly along the segment) and
 *    summed per (owner period, bucket, jurisdiction). Because every piece's distance is its share of
 *    the segment's odometer distance, the fragments sum to the odometer distance.
 *
 * A window keeps the fragments of the segments ending in it, but every segment of the track is placed,
 * so a stretch over water is decided with the points on both sides of the window's edges. Given the
 * points contextMs(rules) before and after the window (rules.ts), a window's fragments equal those
 * the whole track gives for it (recompute.ts loads that much).
 */
import { fromX } from './geometry.js';
import { segments } from './segments.js';
import {
  GAP_WITH_DISTANCE,
  GAP_WITHOUT_DISTANCE,
  type Allocation,
  type AllocationRules,
  type Fragment,
  type Locator,
  type Track,
} from './rules.js';

export { DEFAULT_RULES } from './rules.js';
export type { Allocation, AllocationRules, Fragment, Track } from './rules.js';

export interface AllocateWindow {
  /** Only the fragments of segments whose end point is at or after this time (epoch ms) are returned (all are placed). */
  fromT?: number;
  /** …and before this time. */
  toT?: number;
}

interface Pending {
  s: number;
  u0: number;
  u1: number;
  owner: number;
  live: boolean;
}

export function allocate(tr: Track, index: Locator, rules: AllocationRules, window: AllocateWindow = {}): Allocation {
  const seg = segments(tr, rules);
  const { acc, m, x, km, kind, odoA, odoB } = seg;
  const { t, lat } = tr;
  const fromT = window.fromT ?? -Infinity;
  const toT = window.toT ?? Infinity;
  const bucketMs = rules.bucketMs;
  const tol = rules.snapToleranceKm;
  const reentryMs = rules.reentryMaxMs;
  /** Fragments per owner period of the window. */
  const byOwner = new Map<number, Map<number, Fragment>>();
  /** The current owner period and its fragments (null outside the window: computed for context, not kept). */
  let owner = NaN;
  let live = false;
  let frags: Map<number, Fragment> | null = null;
  let lastKey = -1;
  let lastFrag: Fragment | null = null;
  /** Unplaced pieces since the last placed one, which ended at lastKnownT in lastKnown (−1: none). */
  let pending: Pending[] = [];
  let lastKnown = -1;
  let lastKnownT = -Infinity;
  let totalKm = 0;
  let gaps = 0;
  let gapsWithoutDistance = 0;
  const ts: number[] = [];
  const pieceJ: number[] = [];
  const pieceU: number[] = [];

  /** Fragments go to owner period o, or nowhere when the segment is not in the window (context only). */
  const useOwner = (o: number, isLive: boolean) => {
    owner = o;
    live = isLive;
    lastKey = -1;
    lastFrag = null;
    frags = null;
    if (!isLive) return;
    frags = byOwner.get(o) ?? null;
    if (!frags) byOwner.set(o, (frags = new Map()));
  };
  const flushPending = (j: number) => {
    if (!pending.length) return;
    const o0 = owner,
      l0 = live;
    for (const p of pending) {
      if (p.owner !== owner || p.live !== live) useOwner(p.owner, p.live);
      emit(p.s, p.u0, p.u1, j);
    }
    if (owner !== o0 || live !== l0) useOwner(o0, l0);
    pending = [];
  };
  /** A placed piece of jurisdiction j from time tStart to tEnd: the pending stretch before it is j's when j is where it began and the vehicle is back within reentryMs. */
  const placed = (j: number, tStart: number, tEnd: number) => {
    if (pending.length) flushPending(j === lastKnown && tStart - lastKnownT <= reentryMs ? j : -1);
    lastKnown = j;
    lastKnownT = tEnd;
  };
  const forget = () => {
    flushPending(-1);
    lastKnown = -1;
  };

  /** Adds piece [u0, u1] of segment s to the fragment of its bucket and jurisdiction, cutting at bucket ends. */
  function emit(s: number, u0: number, u1: number, j: number): void {
    const a = acc[s],
      b = acc[s + 1];
    const ta = t[a],
      dt = t[b] - ta;
    while (u1 - u0 > 0) {
      const tStart = ta + u0 * dt;
      const bucket = Math.floor(tStart / bucketMs);
      const bucketEnd = (bucket + 1) * bucketMs;
      let uEnd = u1;
      if (ta + u1 * dt > bucketEnd && dt > 0) uEnd = Math.max(u0, Math.min(u1, (bucketEnd - ta) / dt));
      if (uEnd <= u0) uEnd = u1;
      add(s, u0, uEnd, j, bucket);
      u0 = uEnd;
    }
  }

  function add(s: number, u0: number, u1: number, j: number, bucket: number): void {
    if (frags === null) return;
    const a = acc[s],
      b = acc[s + 1];
    const d = km[s] * (u1 - u0);
    const key = bucket * 128 + j + 1;
    let f = key === lastKey ? lastFrag : frags.get(key);
    const x0 = x[a] + (x[b] - x[a]) * u1,
      y0 = lat[a] + (lat[b] - lat[a]) * u1;
    const te = t[a] + (t[b] - t[a]) * u1;
    const oe = odoA[s] + (odoB[s] - odoA[s]) * u1;
    if (!f) {
      const xs = x[a] + (x[b] - x[a]) * u0;
      f = {
        owner,
        bucketStart: bucket * bucketMs,
        j,
        distanceKm: 0,
        gapKm: 0,
        startT: t[a] + (t[b] - t[a]) * u0,
        endT: te,
        startLat: lat[a] + (lat[b] - lat[a]) * u0,
        startLon: fromX(xs),
        endLat: y0,
        endLon: fromX(x0),
        startOdo: odoA[s] + (odoB[s] - odoA[s]) * u0,
        endOdo: oe,
      };
      frags.set(key, f);
    }
    f.distanceKm += d;
    if (kind[s] === GAP_WITH_DISTANCE) f.gapKm += d;
    if (f.distanceKm > d && t[a] + (t[b] - t[a]) * u0 < f.startT) {
      const xs = x[a] + (x[b] - x[a]) * u0;
      f.startT = t[a] + (t[b] - t[a]) * u0;
      f.startLat = lat[a] + (lat[b] - lat[a]) * u0;
      f.startLon = fromX(xs);
      f.startOdo = odoA[s] + (odoB[s] - odoA[s]) * u0;
    }
    if (te >= f.endT) {
      f.endT = te;
      f.endLat = y0;
      f.endLon = fromX(x0);
      f.endOdo = oe;
    }
    lastKey = key;
    lastFrag = f;
  }

  /** The jurisdiction at a point, snapped within the tolerance; −1 when none. */
  const placeAt = (px: number, py: number): number => {
    const j = index.locate(px, py);
    return j >= 0 ? j : index.nearest(px, py, tol);
  };

  /** Cuts segment s at the borders it crosses into pieces (pieceU holds the cut points, pieceJ the jurisdictions). */
  function split(s: number): void {
    const a = acc[s],
      b = acc[s + 1];
    const ax = x[a],
      ay = lat[a],
      bx = x[b],
      by = lat[b];
    ts.length = 0;
    index.crossings(ax, ay, bx, by, ts);
    ts.sort((p, q) => p - q);
    ts.push(1);
    pieceJ.length = 0;
    pieceU.length = 0;
    pieceU.push(0);
    let prev = 0;
    for (const u of ts) {
      if (u - prev <= 1e-12) continue;
      const mid = (prev + u) / 2;
      const j = placeAt(ax + (bx - ax) * mid, ay + (by - ay) * mid);
      if (pieceJ.length > 0 && pieceJ[pieceJ.length - 1] === j) pieceU[pieceU.length - 1] = u;
      else {
        pieceJ.push(j);
        pieceU.push(u);
      }
      prev = u;
    }
    if (pieceJ.length === 0) {
      pieceJ.push(placeAt(ax, ay));
      pieceU.push(1);
    }
  }

  for (let s = 0; s + 1 < m; s++) {
    const a = acc[s],
      b = acc[s + 1];
    const tb = t[b];
    const o = Math.floor(tb / rules.ownerMs);
    const inWindow = tb >= fromT && tb < toT;
    if (o !== owner || inWindow !== live) useOwner(o, inWindow);
    const k = kind[s];
    if (k !== 0) {
      if (live) gaps++;
      forget();
      if (k === GAP_WITHOUT_DISTANCE) {
        if (live) gapsWithoutDistance++;
        continue;
      }
    }
    const d = km[s];
    if (!(d > 0)) continue;
    if (live) totalKm += d;
    const fast = k === 0 ? index.uniform(x[a], lat[a], x[b], lat[b]) : -2;
    if (fast >= 0) {
      placed(fast, t[a], tb);
      emit(s, 0, 1, fast);
      continue;
    }
    if (k === GAP_WITH_DISTANCE) {
      const ja = placeAt(x[a], lat[a]);
      if (ja === placeAt(x[b], lat[b])) {
        emit(s, 0, 1, ja);
        continue;
      }
    }
    split(s);
    const ta = t[a],
      dt = tb - ta;
    for (let p = 0; p < pieceJ.length; p++) {
      const j = pieceJ[p];
      const u0 = pieceU[p],
        u1 = pieceU[p + 1];
      if (j < 0 && k === 0) {
        if (lastKnown >= 0 && ta + u1 * dt - lastKnownT <= reentryMs) pending.push({ s, u0, u1, owner, live });
        else {
          forget();
          emit(s, u0, u1, -1);
        }
        continue;
      }
      if (j >= 0) placed(j, ta + u0 * dt, ta + u1 * dt);
      else forget();
      emit(s, u0, u1, j);
    }
    if (k !== 0) lastKnown = -1;
  }
  flushPending(-1);
  const out: Fragment[] = [];
  for (const fs of byOwner.values()) for (const f of fs.values()) out.push(f);
  out.sort((p, q) => p.owner - q.owner || p.bucketStart - q.bucketStart || p.j - q.j);
  return { fragments: out, accepted: m, dropped: tr.n - m, gaps, gapsWithoutDistance, totalKm };
}
