/**
 * The allocator's rules and its input and output types. Every threshold carries its unit; docs/ifta.md
 * explains each one.
 */

export interface AllocationRules {
  /** A segment longer than this in time is a gap (docs/reference/domain-rules.md §3.2: a record at least every 10 min). */
  gapTimeMs: number;
  /** A segment longer than this in straight-line distance is a gap (10 min at ~110 mph). */
  gapDistanceKm: number;
  /** Fastest plausible travel, km/h: a point implying more on both sides is dropped, a segment implying more is a gap, an odometer advancing faster is not trusted. */
  maxSpeedKph: number;
  /** Off-polygon points and pieces snap to the nearest jurisdiction within this distance, km (docs/reference/domain-rules.md §7 D-5). */
  snapToleranceKm: number;
  /** Output is cut into time buckets of this length, so that days can be formed in any time zone. */
  bucketMs: number;
  /** A segment belongs to the period of this length containing its end point (the unit of recomputation). */
  ownerMs: number;
  /** A fix reporting at most this speed, km/h, or the engine off, is no evidence of motion (segments.ts, the stationary rule). */
  stoppedSpeedKph: number;
  /** A fix reporting no speed within this distance of where the vehicle stopped adds no distance, m… */
  stillRadiusM: number;
  /** …and a fix reporting being stopped (speed or engine) within this distance, m… */
  stoppedRadiusM: number;
  /** …or within this many times its reported accuracy, when that is more. 0 in both radii turns the rule off. */
  stillAccuracyFactor: number;
  /** Unplaced distance goes to the jurisdiction on both sides only when the vehicle is back in it within this long, ms. */
  reentryMaxMs: number;
}

export const DEFAULT_RULES: AllocationRules = {
  gapTimeMs: 10 * 60_000,
  gapDistanceKm: 30,
  maxSpeedKph: 180,
  snapToleranceKm: 2,
  bucketMs: 15 * 60_000,
  ownerMs: 86_400_000,
  stoppedSpeedKph: 3,
  stillRadiusM: 50,
  stoppedRadiusM: 200,
  stillAccuracyFactor: 3,
  reentryMaxMs: 6 * 3_600_000,
};

/**
 * How far before and after a window of whole owner periods the points must be given for the window's
 * result to equal that of the whole track (besides three points before and one after for the cleaning):
 * whole owner periods covering the longest re-entry stretch and the segment before it.
 */
export const contextMs = (rules: AllocationRules): number =>
  Math.ceil((rules.reentryMaxMs + rules.gapTimeMs) / rules.ownerMs) * rules.ownerMs;

/** One vehicle's points in time order, as parallel arrays (struct of arrays, for speed). */
export interface Track {
  n: number;
  /** Fix time, epoch ms. */
  t: Float64Array;
  lat: Float64Array;
  lon: Float64Array;
  /** Calibrated odometer, km; NaN where the point has none. */
  odo: Float64Array;
  /** Reported speed, km/h; NaN where unknown. Without the array, no point has one. */
  speed?: Float64Array;
  /** Reported horizontal accuracy, m; NaN where unknown. */
  accuracy?: Float64Array;
  /** 1 where the point says the engine is off (an engine-off record, or a fix with ignition false). */
  engineOff?: Uint8Array;
}

/** The distance one vehicle drove in one jurisdiction during one time bucket, from segments of one owner period. */
export interface Fragment {
  /** floor(end time of the segments / ownerMs). */
  owner: number;
  /** Start of the time bucket, epoch ms. */
  bucketStart: number;
  /** Index into the index's codes; −1 for distance that could not be placed in any jurisdiction. */
  j: number;
  distanceKm: number;
  /** The part of distanceKm that crossed a data gap (odometer distance, placed by the gap rule): for review. */
  gapKm: number;
  startT: number;
  endT: number;
  startLat: number;
  startLon: number;
  endLat: number;
  endLon: number;
  /** Calibrated odometer at the start and end, km; NaN when not known. */
  startOdo: number;
  endOdo: number;
}

export interface Allocation {
  fragments: Fragment[];
  /** Points used after cleaning, and dropped (invalid, duplicate time, isolated jumps). */
  accepted: number;
  dropped: number;
  /** Gap segments: with an odometer distance placed by the gap rule, and without any distance. */
  gaps: number;
  gapsWithoutDistance: number;
  /** Total distance, km, of the allocated segments (equals the sum of the fragments). */
  totalKm: number;
}

/** What the allocator needs of a spatial index (grid-index.ts implements it). */
export interface Locator {
  locate(x: number, y: number): number;
  nearest(x: number, y: number, maxKm: number): number;
  crossings(px: number, py: number, qx: number, qy: number, out: number[]): void;
  uniform(px: number, py: number, qx: number, qy: number): number;
}

/** Segment kinds. */
export const NORMAL = 0;
export const GAP_WITH_DISTANCE = 1;
export const GAP_WITHOUT_DISTANCE = 2;
