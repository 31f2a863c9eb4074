/**
 * From duty-status records to the engine's timeline: contiguous intervals up to the evaluation instant,
 * touching intervals of the same clock merged (a vehicle change or an intermediate log never splits a
 * driving span), preceded by a synthetic rest so that a driver is fresh before the first record
 * (docs/reference/domain-rules.md D-8 (a)). Rest runs are the maximal runs of OFF/SB (PC counts as OFF).
 */
import { DAY, type Clock, type DutyRecord, type Interval } from './types.js';
import { isRest } from './measure.js';

/** Length of the synthetic rest before the first record: longer than any reset, restart or lookback. */
export const FRESH_MS = 30 * DAY;

export interface Timeline {
  intervals: Interval[];
  /** Start of the synthetic rest (any run starting here began before the known history). */
  freshStart: number;
  /** Instant of the first real record, or `at` when there is none. */
  firstRecord: number;
  status: Clock | null;
  statusSince: number | null;
}

export function buildTimeline(records: DutyRecord[], at: number): Timeline {
  const real: Interval[] = [];
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    if (r.at >= at) break;
    const next = records[i + 1];
    const end = next && next.at < at ? next.at : at;
    if (end <= r.at) continue;
    const last = real[real.length - 1];
    if (last && last.status === r.status && last.end === r.at) last.end = end;
    else real.push({ start: r.at, end, status: r.status });
  }
  const firstRecord = real[0]?.start ?? at;
  const freshStart = firstRecord - FRESH_MS;
  const intervals: Interval[] = [];
  const head = real[0];
  if (head && head.status === 'OFF') head.start = freshStart;
  else intervals.push({ start: freshStart, end: firstRecord, status: 'OFF' });
  intervals.push(...real);
  const current = real[real.length - 1];
  return {
    intervals,
    freshStart,
    firstRecord,
    status: current ? current.status : null,
    statusSince: current ? (current.start === freshStart ? firstRecord : current.start) : null,
  };
}

export interface Rest {
  start: number;
  end: number;
  /** The longest consecutive sleeper-berth stretch inside the run (empty when there is none). */
  sbStart: number;
  sbEnd: number;
  /** True when the run began before the known history (the synthetic rest). */
  fresh: boolean;
  /** True when the run is still going on at the evaluation instant. */
  ongoing: boolean;
}

export const restMs = (r: Rest) => r.end - r.start;
export const sbMs = (r: Rest) => r.sbEnd - r.sbStart;

export function restRuns(t: Timeline, at: number): Rest[] {
  const out: Rest[] = [];
  let cur: Rest | null = null;
  for (const iv of t.intervals) {
    if (!isRest(iv.status)) {
      cur = null;
      continue;
    }
    if (!cur) {
      cur = {
        start: iv.start,
        end: iv.end,
        sbStart: iv.start,
        sbEnd: iv.start,
        fresh: iv.start === t.freshStart,
        ongoing: false,
      };
      out.push(cur);
    }
    cur.end = iv.end;
    if (iv.status === 'SB' && iv.end - iv.start > cur.sbEnd - cur.sbStart) {
      cur.sbStart = iv.start;
      cur.sbEnd = iv.end;
    }
  }
  const last = out[out.length - 1];
  if (last && last.end === at) last.ongoing = true;
  return out;
}
