/**
 * The 2020 30-minute break (395.3(a)(3)(ii), docs/reference/domain-rules.md §1.3.4): no driving once 8 hours of driving
 * have accumulated since the end of the last run of ≥30 consecutive minutes without driving (any mix
 * of OFF, SB, ON, PC, YM or waiting). Not applicable to short haul, passenger carriers or Canada.
 */
import { HOUR, MIN } from './types.js';
import { limitAt, type Context } from './context.js';

const LIMIT_MS = 8 * HOUR;
const BREAK_MS = 30 * MIN;

export function breakApplies(ctx: Context): boolean {
  return ctx.rs.family === 'us_property' && !ctx.rs.shortHaul;
}

/** Adds break_30 violations and returns the break clock at the evaluation instant. */
export function evaluateBreak(ctx: Context): number {
  const { intervals, driving, at } = ctx;
  let anchor = intervals[0]?.start ?? at;
  let lastDriveEnd = -Infinity;
  for (const iv of intervals) {
    if (iv.status !== 'D') continue;
    if (iv.start - lastDriveEnd >= BREAK_MS) anchor = iv.start;
    const t = limitAt(iv.start, driving.between(anchor, iv.start), LIMIT_MS);
    ctx.violations.add('break_30', Math.max(iv.start, t), iv.end);
    if (iv.end === at) ctx.checks.push(t);
    lastDriveEnd = iv.end;
  }
  if (at - lastDriveEnd >= BREAK_MS) return LIMIT_MS;
  if (at > lastDriveEnd) ctx.checks.push(lastDriveEnd + BREAK_MS);
  return Math.max(0, LIMIT_MS - driving.between(anchor, at));
}
