/**
 * The hours-of-service engine: a pure function of (ruleset, duty-status records, exception claims,
 * instant). It knows nothing of storage or HTTP; the service feeds it a driver's bounded history.
 *
 *   evaluate(ruleset, records, claims, at) → clocks, violations, recap, restarts at instant `at`
 *
 * Records after `at` are ignored, so evaluating at any past instant gives the clocks as they were then.
 */
import { Days } from './days.js';
import { makeContext } from './context.js';
import { buildTimeline } from './timeline.js';
import { evaluateShifts } from './shift.js';
import { breakApplies, evaluateBreak } from './break.js';
import { evaluateCanadaDaily, evaluateCycle } from './cycle.js';
import type { Claim, DutyRecord, Evaluation, Ruleset } from './types.js';

export * from './types.js';
export { historyMs, rulesetFor, SUPPORTED_CYCLES } from './rulesets.js';
export { Days } from './days.js';
export { VIOLATION_NAMES, violationName } from './violations.js';

export function evaluate(rs: Ruleset, records: DutyRecord[], claims: Claim[], at: number, days?: Days): Evaluation {
  const timeline = buildTimeline(records, at);
  const ctx = makeContext(rs, timeline, claims, at, days);
  const shift = evaluateShifts(ctx);
  const breakMs = breakApplies(ctx) ? evaluateBreak(ctx) : null;
  const cycle = evaluateCycle(ctx);

  let driveRawMs = shift.driveRawMs;
  let shiftMs = shift.windowMs ?? shift.dutyMs ?? 0;
  if (ctx.rs.family === 'canada') {
    const daily = evaluateCanadaDaily(ctx, shift.adverseAt);
    driveRawMs = Math.min(driveRawMs, daily.driveMs);
    shiftMs = Math.min(shift.windowMs ?? Infinity, shift.dutyMs ?? Infinity, daily.dutyMs);
  }
  const driveMs = Math.min(driveRawMs, shiftMs, cycle.cycleMs);
  const driving = timeline.status === 'D';
  const checks = ctx.checks.filter((t) => t > at && Number.isFinite(t));
  return {
    at,
    clocks: {
      driveMs,
      driveRawMs,
      shiftMs,
      cycleMs: cycle.cycleMs,
      // Where no break rule applies, a break is never due before the drive limit (docs/hos.md).
      breakMs: breakMs ?? driveMs,
      cycleTomorrowMs: cycle.cycleTomorrowMs,
    },
    violations: ctx.violations.records(driving ? at : null),
    recap: cycle.recap,
    restarts: cycle.restarts,
    lastCycleReset: cycle.restarts[cycle.restarts.length - 1] ?? null,
    status: timeline.status,
    statusSince: timeline.statusSince,
    nextCheckAt: checks.length ? Math.min(...checks) : null,
  };
}
