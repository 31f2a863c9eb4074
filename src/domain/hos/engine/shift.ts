/**
 * Shift limits: the driving limit, the elapsed window and the cumulative on-duty limit counted from the
 * last reset or the split-sleeper calculation point (domain-rules §1.3.1–1.3.3, §1.4, §1.6, §1.7).
 *
 * Qualifying rests are listed in time order (resets included). Between two consecutive qualifying rests
 * A and B, driving is judged in one frame:
 * - A is a reset: from the end of A, nothing excluded;
 * - A pairs with the rest before it, or with B (retroactively, D-9 (a)): from the end of the rest
 *   before A, with A's member period excluded from the window;
 * - otherwise the live calculation point carried forward (the last pair's), and A counts in the window.
 * The frame after the last qualifying rest gives the live clocks.
 */
import { DAY, HOUR, type Ruleset } from './types.js';
import { limitAt, type Context } from './context.js';
import { restMs, sbMs, type Rest } from './timeline.js';

export interface ShiftRules {
  resetMs: number;
  driveMs: number;
  driveType: string;
  windowMs: number | null;
  windowType: string;
  dutyMs: number | null;
  dutyType: string;
  /** `property`: ≥7 h SB + ≥2 h OFF/SB; `sb_pair`: two SB periods of ≥2 h. Members total ≥ totalMs. */
  split: { kind: 'property' | 'sb_pair'; totalMs: number };
}

export function shiftRules(rs: Ruleset): ShiftRules {
  if (rs.family === 'us_passenger') {
    return { resetMs: 8 * HOUR, driveMs: 10 * HOUR, driveType: 'driving_10', windowMs: null, windowType: '', dutyMs: 15 * HOUR, dutyType: 'duty_15', split: { kind: 'sb_pair', totalMs: 8 * HOUR } };
  }
  if (rs.family === 'canada') {
    return {
      resetMs: 8 * HOUR, driveMs: 13 * HOUR, driveType: 'canada_shift_driving_13', windowMs: 16 * HOUR, windowType: 'canada_shift_16',
      dutyMs: 14 * HOUR, dutyType: 'canada_shift_duty_14', split: { kind: 'sb_pair', totalMs: 10 * HOUR },
    };
  }
  return { resetMs: 10 * HOUR, driveMs: 11 * HOUR, driveType: 'driving_11', windowMs: 14 * HOUR, windowType: 'duty_14', dutyMs: null, dutyType: '', split: { kind: 'property', totalMs: 10 * HOUR } };
}

interface Portion {
  start: number;
  end: number;
}
interface Pair {
  first: Portion;
  second: Portion;
}
interface Frame {
  anchor: number;
  excl: Portion | null;
}

const MEMBER_MS = 2 * HOUR;
const LONG_MS = 7 * HOUR;
const len = (p: Portion) => p.end - p.start;
const run = (r: Rest): Portion => ({ start: r.start, end: r.end });
const sb = (r: Rest): Portion => ({ start: r.sbStart, end: r.sbEnd });

function qualifies(r: Rest, rules: ShiftRules): boolean {
  if (restMs(r) >= rules.resetMs) return true;
  return rules.split.kind === 'property' ? restMs(r) >= MEMBER_MS : sbMs(r) >= MEMBER_MS;
}

/** The member periods of a valid split pair (x before y), or null. */
export function pairOf(x: Rest, y: Rest, rules: ShiftRules): Pair | null {
  const total = rules.split.totalMs;
  if (rules.split.kind === 'sb_pair') {
    return sbMs(x) >= MEMBER_MS && sbMs(y) >= MEMBER_MS && sbMs(x) + sbMs(y) >= total ? { first: sb(x), second: sb(y) } : null;
  }
  // D-9: a mixed run is the long member only through its ≥7 h SB stretch; as the short member it counts whole.
  const options: Pair[] = [];
  if (sbMs(x) >= LONG_MS && restMs(y) >= MEMBER_MS && sbMs(x) + restMs(y) >= total) options.push({ first: sb(x), second: run(y) });
  if (restMs(x) >= MEMBER_MS && sbMs(y) >= LONG_MS && restMs(x) + sbMs(y) >= total) options.push({ first: run(x), second: sb(y) });
  if (options.length === 0) return null;
  return options.reduce((a, b) => (len(b.first) + len(b.second) > len(a.first) + len(a.second) ? b : a));
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

export function evaluateShifts(ctx: Context): ShiftClocks {
  const rules = shiftRules(ctx.rs);
  const { driving, onDuty, at, rs } = ctx;
  const Q = ctx.rests.filter((r) => qualifies(r, rules));
  const isReset = (r: Rest) => restMs(r) >= rules.resetMs;
  const restartMs = rs.restart ? rs.restart.hours * HOUR : Infinity;
  const resets = Q.filter(isReset);
  const claimIn = (kind: string, from: number, to: number) => ctx.claims.some((c) => c.kind === kind && c.at >= from && c.at < to);
  const adverseShifts: Array<[number, number]> = [];

  let lastSixteen: number | null = null;
  let lastRestart = -Infinity;
  let resetNo = -1;
  let shift: ShiftState = { start: 0, adverse: false, sixteen: false, sixteenUsed: false };
  const openShift = (r: Rest) => {
    if (shift.sixteenUsed) lastSixteen = shift.start;
    if (restMs(r) >= restartMs) lastRestart = r.end;
    resetNo++;
    const until = resets[resetNo + 1]?.start ?? Infinity;
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
  const windowBase = () => (shift.sixteen ? Math.max(16 * HOUR, (rules.windowMs ?? 0) + adv()) : (rules.windowMs ?? 0) + adv());

  let fwd: Frame = { anchor: Q[0]!.end, excl: null };
  let frame: Frame = fwd;
  let j = 0;
  const ivs = ctx.intervals;
  for (let i = 0; i < Q.length; i++) {
    const q = Q[i]!;
    if (isReset(q)) {
      openShift(q);
      fwd = { anchor: q.end, excl: null };
      frame = fwd;
    } else {
      const prev = Q[i - 1]!;
      const back = pairOf(prev, q, rules);
      const next = Q[i + 1] ? pairOf(q, Q[i + 1]!, rules) : null;
      const prevEnd = (p: Portion) => (isReset(prev) ? prev.end : p.end);
      if (back) fwd = { anchor: prevEnd(back.first), excl: back.second };
      frame = back ? fwd : next ? { anchor: prev.end, excl: next.first } : fwd;
    }
    const gapEnd = Q[i + 1]?.start ?? at;
    while (j < ivs.length && ivs[j]!.start < q.end) j++;
    for (; j < ivs.length && ivs[j]!.start < gapEnd; j++) {
      const iv = ivs[j]!;
      if (iv.status !== 'D') continue;
      judge(iv.start, iv.end, frame);
    }
  }

  function judge(s: number, e: number, f: Frame) {
    const v = ctx.violations;
    const driveLimit = rules.driveMs + adv();
    const tDrive = limitAt(s, driving.between(f.anchor, s), driveLimit);
    v.add(rules.driveType, tDrive, e);
    if (e === at) ctx.checks.push(tDrive);
    if (rules.windowMs !== null) {
      const end = windowOf(f, windowBase());
      v.add(shift.sixteen ? 'duty_16' : rules.windowType, Math.max(s, end), e);
      if (shift.sixteen && e > windowOf(f, rules.windowMs)) shift.sixteenUsed = true;
      if (e === at) ctx.checks.push(end);
    }
    if (rules.dutyMs !== null) {
      const tDuty = limitAt(s, onDuty.between(f.anchor, s), rules.dutyMs + adv());
      v.add(rules.dutyType, tDuty, e);
      if (e === at) ctx.checks.push(tDuty);
    }
  }

  // A rest going on now can still become a member or a reset: look again when it would.
  const last = ctx.rests[ctx.rests.length - 1];
  if (last?.ongoing) {
    for (const ms of [MEMBER_MS, rules.resetMs, restartMs]) ctx.checks.push(last.start + ms);
    const cur = ivs[ivs.length - 1]!;
    if (cur.status === 'SB') for (const ms of [MEMBER_MS, LONG_MS]) ctx.checks.push(cur.start + ms);
  }

  const driveLimit = rules.driveMs + adv();
  return {
    driveRawMs: Math.max(0, driveLimit - driving.between(frame.anchor, at)),
    windowMs: rules.windowMs === null ? null : Math.max(0, windowOf(frame, windowBase()) - at),
    dutyMs: rules.dutyMs === null ? null : Math.max(0, rules.dutyMs + adv() - onDuty.between(frame.anchor, at)),
    adverse: shift.adverse,
    adverseAt: (t: number) => adverseShifts.some(([a, b]) => t >= a && t < b),
  };
}
