/**
 * Rolling cycles counted in log days (docs/reference/domain-rules.md §1.3.5, §1.3.6, §1.7; D-1 (a)): ON+D over the current
 * day and the previous N−1 days, counting only time after the last restart. A violation starts when the
 * total reaches the limit while driving and ends with the driving, or at the day boundary where the
 * oldest day drops out and the total falls below the limit. Canada adds cycle 2's 70 hours without
 * 24 consecutive hours off, and 24 consecutive hours off in every 14 days.
 */
import { DAY, HOUR, type CycleRestart, type RecapDay } from './types.js';
import { Days } from './days.js';
import { drivingByDay, limitAt, type Context } from './context.js';
import { restMs, type Rest } from './timeline.js';

export interface CycleResult {
  cycleMs: number;
  cycleTomorrowMs: number;
  recap: RecapDay[];
  restarts: CycleRestart[];
}

/** The end of the last rest run of at least `ms` that ended at or before t (or -Infinity). */
function lastEnd(runs: Rest[], t: number): number {
  let best = -Infinity;
  for (const r of runs) {
    if (r.end > t) break;
    best = r.end;
  }
  return best;
}

export function evaluateCycle(ctx: Context): CycleResult {
  const { rs, days, onDuty, at } = ctx;
  const limit = rs.cycle.hours * HOUR;
  const n = rs.cycle.days;
  const restartMs = rs.restart ? rs.restart.hours * HOUR : Infinity;
  const restarts = ctx.rests.filter((r) => restMs(r) >= restartMs);
  const day24 = ctx.rests.filter((r) => restMs(r) >= 24 * HOUR);
  const low = (t: number, d: number, back: number) => Math.max(days.start(d - back), lastEnd(restarts, t));

  for (const [a, b, d] of drivingByDay(ctx)) {
    const t = limitAt(a, onDuty.between(low(a, d, n - 1), a), limit);
    ctx.violations.add(rs.cycle.type, t, b, rs.cycle.name);
    if (b === at) ctx.checks.push(t, days.start(d + 1));
    if (rs.canadaCycle2) {
      const since = Math.max(lastEnd(day24, a), lastEnd(restarts, a));
      const t70 = limitAt(a, onDuty.between(since, a), 70 * HOUR);
      ctx.violations.add('canada_cycle_2_70', t70, b);
      if (b === at) ctx.checks.push(t70);
    }
    if (rs.family === 'canada') {
      const t24 = lastEnd(day24, a) + 14 * DAY - 24 * HOUR;
      ctx.violations.add('canada_off_24', Math.max(a, t24), b);
      if (b === at) ctx.checks.push(t24);
    }
  }

  const today = days.dayOf(at);
  const ongoingRestart = restarts.length > 0 && restarts[restarts.length - 1]!.end === at;
  let cycleMs = ongoingRestart ? limit : Math.max(0, limit - onDuty.between(low(at, today, n - 1), at));
  const tomorrow = ongoingRestart ? limit : Math.max(0, limit - onDuty.between(low(at, today, n - 2), at));
  if (rs.canadaCycle2 && !ongoingRestart) {
    const since = Math.max(lastEnd(day24, at), lastEnd(restarts, at));
    cycleMs = Math.min(cycleMs, Math.max(0, 70 * HOUR - onDuty.between(since, at)));
  }
  if (rs.family === 'canada') cycleMs = Math.min(cycleMs, Math.max(0, lastEnd(day24, at) + 14 * DAY - 24 * HOUR - at));

  const recap: RecapDay[] = [];
  for (let d = today - (n - 1); d <= today; d++) {
    const a = days.start(d);
    const b = Math.min(days.start(d + 1), at);
    recap.push({ date: Days.date(d), onDutyMs: onDuty.between(a, b), drivingMs: ctx.driving.between(a, b) });
  }
  return {
    cycleMs,
    cycleTomorrowMs: tomorrow,
    recap,
    restarts: restarts
      .filter((r) => !r.fresh)
      .map((r) => ({ type: rs.restart!.type, name: rs.restart!.name, start: r.start, end: r.ongoing ? null : r.end })),
  };
}

/**
 * Canada's daily limits (SOR/2005-313 s.12): at most 13 hours of driving and 14 hours of ON+D in a log
 * day; a violation ends at the day boundary at the latest. Returns the remaining daily drive and duty.
 */
export function evaluateCanadaDaily(
  ctx: Context,
  adverseAt: (t: number) => boolean,
): { driveMs: number; dutyMs: number } {
  const { days, driving, onDuty, at } = ctx;
  const extra = (t: number) => (adverseAt(t) ? 2 * HOUR : 0);
  for (const [a, b, d] of drivingByDay(ctx)) {
    const start = days.start(d);
    const tD = limitAt(a, driving.between(start, a), 13 * HOUR + extra(a));
    const tOn = limitAt(a, onDuty.between(start, a), 14 * HOUR + extra(a));
    ctx.violations.add('canada_driving_13', tD, b);
    ctx.violations.add('canada_duty_14', tOn, b);
    if (b === at) ctx.checks.push(tD, tOn, days.start(d + 1));
  }
  const start = days.start(days.dayOf(at));
  return {
    driveMs: Math.max(0, 13 * HOUR + extra(at) - driving.between(start, at)),
    dutyMs: Math.max(0, 14 * HOUR + extra(at) - onDuty.between(start, at)),
  };
}
