/**
 * The stationary rule (docs/ifta.md, "Standing still"): the GPS length a segment counts. A parked
 * vehicle's fixes wander by the receiver's error; summed from fix to fix, that jitter is distance
 * never driven (an hour of 1-second fixes with 8 m of error adds tens of kilometres). Pure.
 *
 * The *anchor* is the last point whose distance was counted. A fix that reports being stopped (a
 * speed of at most stoppedSpeedKph, or the engine off) and lies within max(stoppedRadiusM,
 * stillAccuracyFactor × its accuracy) of the stop's centre (the mean of the anchor and the fixes held
 * since), or that reports no speed and lies within max(stillRadiusM, stillAccuracyFactor × its
 * accuracy) of it, is *held*: its segment counts 0 and the anchor stays. Any other fix counts its
 * straight-line distance from the anchor and becomes the anchor. So a stop adds nothing, a fix that
 * reports a speed above stoppedSpeedKph (with the engine not off) counts exactly as before, and a slow
 * move without a reported speed is counted in chords from anchor to anchor instead of being lost.
 *
 * The anchor restarts after a gap (at the gap's end) and at each owner-period boundary (at the start of
 * the segment across it), so the lengths of a period depend only on its own points and the one before.
 */
import { kmPerDegree, distanceKm } from './geometry.js';
import type { AllocationRules, Track } from './rules.js';

/** Segment cut kinds given to countedKm: none, a gap, the first segment of an owner period. */
export const CUT_NONE = 0;
export const CUT_GAP = 1;
export const CUT_BOUNDARY = 2;

/**
 * Counted GPS length, km, of each segment s (acc[s] → acc[s + 1]) from its straight-line length
 * `step[s]`; gap segments keep their straight-line length (the gap rule decides what they count).
 */
export function countedKm(
  tr: Track,
  rules: AllocationRules,
  acc: Int32Array,
  m: number,
  x: Float64Array,
  step: Float64Array,
  cut: Uint8Array,
): Float64Array {
  const ns = Math.max(0, m - 1);
  const geo = new Float64Array(ns);
  const { lat, speed, accuracy, engineOff } = tr;
  const stopped = rules.stoppedSpeedKph;
  const floorKm = rules.stillRadiusM / 1000;
  const stoppedKm = rules.stoppedRadiusM / 1000;
  const factorKm = rules.stillAccuracyFactor / 1000;
  if (!(floorKm > 0 || stoppedKm > 0) || ns === 0) {
    geo.set(step.subarray(0, ns));
    return geo;
  }
  let anchor = acc[0];
  // Sums of the stop's fixes (anchor included), relative to the anchor, in degrees.
  let sx = 0,
    sy = 0,
    count = 1;
  let kLat = NaN,
    kx = 0,
    ky = 0;
  const restart = (i: number) => {
    anchor = i;
    sx = 0;
    sy = 0;
    count = 1;
  };
  for (let s = 0; s < ns; s++) {
    const a = acc[s],
      b = acc[s + 1];
    const c = cut[s];
    if (c === CUT_GAP) {
      geo[s] = step[s];
      restart(b);
      continue;
    }
    if (c === CUT_BOUNDARY) restart(a);
    const v = speed === undefined ? NaN : speed[b];
    const off = engineOff !== undefined && engineOff[b] === 1;
    if (!(v > stopped) || off) {
      let r = off || v <= stopped ? stoppedKm : floorKm;
      if (accuracy !== undefined) {
        const ra = accuracy[b] * factorKm;
        if (ra > r) r = ra;
      }
      // Moving on from a counted point (the stop's centre is that point): its step is the distance.
      if (anchor === a && step[s] > r) {
        geo[s] = step[s];
        restart(b);
        continue;
      }
      const ax = x[anchor],
        ay = lat[anchor];
      if (!(Math.abs(ay - kLat) < 0.5)) {
        kLat = ay;
        ({ kx, ky } = kmPerDegree(ay));
      }
      const dx = (x[b] - ax - sx / count) * kx;
      const dy = (lat[b] - ay - sy / count) * ky;
      if (dx * dx + dy * dy <= r * r) {
        sx += x[b] - ax;
        sy += lat[b] - ay;
        count++;
        continue;
      }
    }
    geo[s] = anchor === a ? step[s] : distanceKm(x[anchor], lat[anchor], x[b], lat[b]);
    restart(b);
  }
  return geo;
}
