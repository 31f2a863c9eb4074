/**
 * Shift limits: the driving limit, the elapsed window and the cumulative on-duty limit counted from the
 * last reset or the split-sleeper calculation point (docs/reference/domain-rules.md §1.3.1–1.3.3, §1.4, §1.6, §1.7).
 *
 * Resets (rests of at least the reset length) cut the log into shifts. Within a shift, split.ts chooses the
 * chain of paired rests that gives the fewest violations and judges each stretch of driving in the frame of
 * the pair it belongs to; the frame after the last rest of the chain gives the live clocks.
 */
import { DAY, HOUR, type Ruleset } from './types.js';
import { limitAt, type Context } from './context.js';
import { restMs, type Rest } from './timeline.js';
import {
  chooseChain,
  qualifies,
  addCost,
  len,
  violationCost,
  LONG_MS,
  MEMBER_MS,
  ZERO,
  type Cost,
  type Frame,
  type Judge,
  type Segment,
  type SplitRules,
} from './split.js';

export interface ShiftRules extends SplitRules {
  driveMs: number;
  driveType: string;
  windowMs: number | null;
  windowType: string;
  dutyMs: number | null;
  dutyType: string;
}

export function shiftRules(rs: Ruleset): ShiftRules {
  if (rs.family === 'us_passenger') {
    return {
      resetMs: 8 * HOUR,
      driveMs: 10 * HOUR,
      driveType: 'driving_10',
      windowMs: null,
      windowType: '',
      dutyMs: 15 * HOUR,
      dutyType: 'duty_15',
      split: { kind: 'sb_pair', totalMs: 8 * HOUR },
    };
  }
  if (rs.family === 'canada') {
    return {
      resetMs: 8 * HOUR,
      driveMs: 13 * HOUR,
      driveType: 'canada_shift_driving_13',
      windowMs: 16 * HOUR,
      windowType: 'canada_shift_16',
      dutyMs: 14 * HOUR,
      dutyType: 'canada_shift_duty_14',
      split: { kind: 'sb_pair', totalMs: 10 * HOUR },
    };
  }
  return {
    resetMs: 10 * HOUR,
    driveMs: 11 * HOUR,
    driveType: 'driving_11',
    windowMs: 14 * HOUR,
    windowType: 'duty_14',
    dutyMs: null,
    dutyType: '',
    split: { kind: 'property', totalMs: 10 * HOUR },
  };
}

export interface ShiftClocks {
  driveRawMs: number;
  windowMs: number | null;
  dutyMs: number | null;
  /** Adverse-driving claim honoured for the shift at the evaluation instant. */
  adverse: boolean;
  /** Whether the instant t lies in a shift with an honoured adverse-driving claim. */
  adverseAt(t: number): boolean;
}

interface ShiftState {
  start: number;
  adverse: boolean;
  sixteen: boolean;
  sixteenUsed: boolean;
}

/** A rule's driving in violation: [type, start, end] (empty when start ≥ end). */
type Piece = [string, number, number];

export function evaluateShifts(ctx: Context): ShiftClocks {
  const rules = shiftRules(ctx.rs);
  const { driving, onDuty, at, rs } = ctx;
  const Q = ctx.rests.filter((r) => qualifies(r, rules));
  const isReset = (r: Rest) => restMs(r) >= rules.resetMs;
  const restartMs = rs.restart ? rs.restart.hours * HOUR : Infinity;
  const resets = Q.filter(isReset);
  const claimIn = (kind: string, from: number, to: number) =>
    ctx.claims.some((c) => c.kind === kind && c.at >= from && c.at < to);
  const adverseShifts: Array<[number, number]> = [];
  const drives = ctx.intervals.filter((iv) => iv.status === 'D');

  let lastSixteen: number | null = null;
  let lastRestart = -Infinity;
  let shift: ShiftState = { start: 0, adverse: false, sixteen: false, sixteenUsed: false };
  const openShift = (r: Rest, until: number) => {
    if (shift.sixteenUsed) lastSixteen = shift.start;
    if (restMs(r) >= restartMs) lastRestart = r.end;
    const adverse = rs.adverseDriving && claimIn('adverse_driving', r.start, until);
    const claimed = rs.sixteenHour && claimIn('sixteen_hour', r.start, until);
    const allowed = lastSixteen === null || r.end - lastSixteen >= 7 * DAY || lastRestart > lastSixteen;
    shift = { start: r.end, adverse, sixteen: claimed && allowed, sixteenUsed: false };
    if (adverse) adverseShifts.push([r.start, until]);
  };
  const adv = () => (shift.adverse ? 2 * HOUR : 0);
  const windowOf = (f: Frame, base: number) => {
    const w = f.anchor + base;
    return f.excl && f.excl.start < w ? w + len(f.excl) : w;
  };
  const windowBase = () =>
    shift.sixteen ? Math.max(16 * HOUR, (rules.windowMs ?? 0) + adv()) : (rules.windowMs ?? 0) + adv();

  /** The driving of [s, e) past each limit of frame f. */
  const pieces = (s: number, e: number, f: Frame): Piece[] => {
    const out: Piece[] = [[rules.driveType, limitAt(s, driving.between(f.anchor, s), rules.driveMs + adv()), e]];
    if (rules.windowMs !== null)
      out.push([shift.sixteen ? 'duty_16' : rules.windowType, Math.max(s, windowOf(f, windowBase())), e]);
    if (rules.dutyMs !== null)
      out.push([rules.dutyType, limitAt(s, onDuty.between(f.anchor, s), rules.dutyMs + adv()), e]);
    return out;
  };
  /** Index of the first driving interval starting at or after t. */
  const firstDrive = (t: number) => {
    let lo = 0;
    let hi = drives.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (drives[mid]!.start < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const clocksOf = (f: Frame, t: number) => ({
    drive: Math.max(0, rules.driveMs + adv() - driving.between(f.anchor, t)),
    window: rules.windowMs === null ? null : Math.max(0, windowOf(f, windowBase()) - t),
    duty: rules.dutyMs === null ? null : Math.max(0, rules.dutyMs + adv() - onDuty.between(f.anchor, t)),
  });
  const judgeUntil = (end: number): Judge => ({
    cost(f, from, to) {
      let cost: Cost = ZERO;
      for (let j = firstDrive(from); j < drives.length && drives[j]!.start < Math.min(to, end); j++) {
        for (const [, a, b] of pieces(drives[j]!.start, drives[j]!.end, f)) cost = addCost(cost, violationCost(b - a));
      }
      return cost;
    },
    room(f) {
      const c = clocksOf(f, end);
      // Then the driving left: with the window spent in every chain, a pair just completed must still count
      // (docs/hos.md, Split sleeper berth; test/domain/hos/scenarios-split.test.ts).
      return [Math.min(c.drive, c.window ?? Infinity, c.duty ?? Infinity), c.window ?? c.duty ?? 0, c.drive];
    },
  });

  let segments: Segment[] = [];
  for (let k = 0, q = 0; k < resets.length; k++) {
    const x = resets[k]!;
    const y = resets[k + 1] ?? null;
    openShift(x, y?.start ?? Infinity);
    const end = y ? y.start : at;
    // Q lists the resets among the other qualifying rests, in time order: the members lie between x and y.
    while (Q[q] !== x) q++;
    const members: Rest[] = [];
    for (q++; q < Q.length && Q[q] !== y; q++) members.push(Q[q]!);
    segments = chooseChain(x, members, y, rules, judgeUntil(end));
    for (let i = 0, j = firstDrive(x.end); j < drives.length && drives[j]!.start < end; j++) {
      const iv = drives[j]!;
      while (segments[i + 1] && segments[i + 1]!.from <= iv.start) i++;
      const f = segments[i]!.frame;
      for (const [type, a, b] of pieces(iv.start, iv.end, f)) {
        ctx.violations.add(type, a, b);
        if (iv.end === at) ctx.checks.push(a);
      }
      if (shift.sixteen && rules.windowMs !== null && iv.end > windowOf(f, rules.windowMs)) shift.sixteenUsed = true;
    }
  }

  // A rest going on now can still become a member or a reset: look again when it would.
  const last = ctx.rests[ctx.rests.length - 1];
  if (last?.ongoing) {
    for (const ms of [MEMBER_MS, rules.resetMs, restartMs]) ctx.checks.push(last.start + ms);
    const cur = ctx.intervals[ctx.intervals.length - 1]!;
    if (cur.status === 'SB') for (const ms of [MEMBER_MS, LONG_MS]) ctx.checks.push(cur.start + ms);
  }

  const live = clocksOf(segments[segments.length - 1]!.frame, at);
  return {
    driveRawMs: live.drive,
    windowMs: live.window,
    dutyMs: live.duty,
    adverse: shift.adverse,
    adverseAt: (t: number) => adverseShifts.some(([a, b]) => t >= a && t < b),
  };
}
