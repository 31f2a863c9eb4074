/** What every rule module reads: the timeline, its rest runs, the cumulative measures and the days. */
import { Days } from './days.js';
import { Measure, isDriving, isOnDuty } from './measure.js';
import { restRuns, type Rest, type Timeline } from './timeline.js';
import { ViolationCollector } from './violations.js';
import type { Claim, Interval, Ruleset } from './types.js';

export interface Context {
  rs: Ruleset;
  at: number;
  timeline: Timeline;
  intervals: Interval[];
  rests: Rest[];
  driving: Measure;
  onDuty: Measure;
  days: Days;
  claims: Claim[];
  violations: ViolationCollector;
  /** Candidates for Evaluation.nextCheckAt; only instants after `at` are kept. */
  checks: number[];
}

export function makeContext(rs: Ruleset, timeline: Timeline, claims: Claim[], at: number, days?: Days): Context {
  return {
    rs,
    at,
    timeline,
    intervals: timeline.intervals,
    rests: restRuns(timeline, at),
    driving: new Measure(timeline.intervals, isDriving),
    onDuty: new Measure(timeline.intervals, isOnDuty),
    days: days ?? new Days(rs.zone, rs.dayStartHour),
    claims: [...claims].sort((a, b) => a.at - b.at),
    violations: new ViolationCollector(),
    checks: [],
  };
}

/** The driving intervals, each split at log-day boundaries: [start, end, day]. */
export function drivingByDay(ctx: Context): Array<[number, number, number]> {
  const out: Array<[number, number, number]> = [];
  for (const iv of ctx.intervals) {
    if (iv.status !== 'D') continue;
    let a = iv.start;
    while (a < iv.end) {
      const d = ctx.days.dayOf(a);
      const b = Math.min(iv.end, ctx.days.start(d + 1));
      out.push([a, b, d]);
      a = b;
    }
  }
  return out;
}

/** The instant a cumulative limit is reached while driving from `s` with `used` already counted. */
export function limitAt(s: number, used: number, limit: number): number {
  return used >= limit ? s : s + (limit - used);
}
