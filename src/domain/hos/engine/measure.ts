/** Cumulative time in a set of statuses, answered for any instant by binary search (O(log n)). */
import type { Clock, Interval } from './types.js';

export class Measure {
  private readonly cum: number[];
  constructor(
    private readonly intervals: Interval[],
    private readonly counts: (c: Clock) => boolean,
  ) {
    this.cum = new Array<number>(intervals.length + 1);
    this.cum[0] = 0;
    for (let i = 0; i < intervals.length; i++) {
      const iv = intervals[i]!;
      this.cum[i + 1] = this.cum[i]! + (counts(iv.status) ? iv.end - iv.start : 0);
    }
  }

  /** Time counted before instant t (from the first interval). */
  at(t: number): number {
    const ivs = this.intervals;
    if (ivs.length === 0 || t <= ivs[0]!.start) return 0;
    let lo = 0;
    let hi = ivs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (ivs[mid]!.start <= t) lo = mid;
      else hi = mid - 1;
    }
    const iv = ivs[lo]!;
    const partial = this.counts(iv.status) ? Math.min(t, iv.end) - iv.start : 0;
    return this.cum[lo]! + partial;
  }

  between(a: number, b: number): number {
    return b <= a ? 0 : this.at(b) - this.at(a);
  }
}

export const isDriving = (c: Clock) => c === 'D';
export const isOnDuty = (c: Clock) => c === 'D' || c === 'ON';
export const isRest = (c: Clock) => c === 'OFF' || c === 'SB';
