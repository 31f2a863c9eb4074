/**
 * Rulesets from a driver's settings: the cycle code (`users.cycle`, falling back to the company's),
 * the home-terminal zone and the exception flags (`users.driver_flags`). docs/hos.md lists every code.
 */
import { DAY, HOUR, type Family, type Ruleset } from './types.js';

export interface RulesetInput {
  cycle: string | null | undefined;
  zone: string;
  dayStartHour?: number;
  flags?: Record<string, boolean | undefined>;
}

const RESTART_34 = { hours: 34, type: '34_hour', name: '34 Hour' };
const RESTART_24 = { hours: 24, type: '24_hour', name: '24 Hour' };

function usCycle(hours: number, days: number) {
  return { hours, days, type: `cycle_${hours}`, name: `${hours} Hour/${days} Day Limit` };
}

/** Cycle codes this engine evaluates, and what they mean. */
export const SUPPORTED_CYCLES: Record<string, string> = {
  '70_8': 'US property, 70 hours in 8 days',
  '60_7': 'US property, 60 hours in 7 days',
  '70_8_p': 'US passenger, 70 hours in 8 days',
  '60_7_p': 'US passenger, 60 hours in 7 days',
  canada_7day: 'Canada south of 60°N, cycle 1 (70 hours in 7 days)',
  canada_14day: 'Canada south of 60°N, cycle 2 (120 hours in 14 days)',
  texas: 'US property rules with a 70 hours in 7 days cycle (approximation of the Texas intrastate rules)',
  california_80_8: 'US property rules with an 80 hours in 8 days cycle (approximation)',
  alaska_80_8: 'US property rules with an 80 hours in 8 days cycle (approximation)',
  alaska_70_7: 'US property rules with a 70 hours in 7 days cycle (approximation)',
};

export function rulesetFor(input: RulesetInput): Ruleset {
  const code = (input.cycle ?? '70_8').trim() || '70_8';
  const flags = input.flags ?? {};
  const base = {
    cycleCode: code,
    zone: input.zone,
    dayStartHour: input.dayStartHour ?? 0,
    canadaCycle2: false,
    shortHaul: !!flags.exception_short_haul,
    adverseDriving: !!flags.exception_adverse_driving,
  };
  if (code === 'canada_7day' || code === 'canada_14day') {
    const two = code === 'canada_14day';
    return {
      ...base,
      family: 'canada',
      cycle: two
        ? { hours: 120, days: 14, type: 'canada_cycle_120', name: '120 Hour/14 Day Limit' }
        : { hours: 70, days: 7, type: 'canada_cycle_70', name: '70 Hour/7 Day Limit' },
      restart: two ? { hours: 72, type: '72_hour', name: '72 Hour' } : { hours: 36, type: '36_hour', name: '36 Hour' },
      canadaCycle2: two,
      shortHaul: false,
      sixteenHour: false,
    };
  }
  const m = /^(\d+)_(\d+)/.exec(code);
  let hours = 70;
  let days = 8;
  if (m) {
    hours = Number(m[1]);
    days = Number(m[2]);
  } else if (code === 'texas') days = 7;
  if (![60, 70, 80].includes(hours) || ![7, 8].includes(days)) {
    hours = 70;
    days = 8;
  }
  const passenger = /(^|_)p(_|$)/.test(code.slice(m ? m[0].length : 0));
  const family: Family = passenger ? 'us_passenger' : 'us_property';
  const oilRestart = !passenger && !!flags.exception_24_hour_restart;
  return {
    ...base,
    family,
    cycle: usCycle(hours, days),
    restart: passenger ? null : oilRestart ? RESTART_24 : RESTART_34,
    sixteenHour: !passenger,
  };
}

/**
 * How much history before an instant the engine needs to judge it as it would with the whole log
 * (docs/hos.md, "History each rule needs"): the longest window any rule of the ruleset looks at, plus the
 * rest that must be seen whole where that window begins. Records before it can change nothing: a rest in
 * effect at its start is taken as a full rest, and it could only matter if it ended inside a window.
 * - the cycle: its days of log days, one more day for the day-start hour and a 25-hour day, and the
 *   restart rest, so that a restart ending inside the cycle is seen whole unless it lasted more than a
 *   day longer than a restart (it still restores the cycle; it is not listed as a restart then);
 * - the 16-hour exception (once in 7 days) looks back 7 days: inside any US cycle's history;
 * - Canada, 24 consecutive hours off in every 14 days (SOR/2005-313 s.25): 14 days and that 24-hour rest.
 * Shift rules (since the last reset, split pairs inside a shift) and the break need less in any real log.
 */
export function historyMs(rs: Ruleset): number {
  const cycle = (rs.cycle.days + 1) * DAY + (rs.restart ? rs.restart.hours * HOUR : 0);
  const off24 = rs.family === 'canada' ? 14 * DAY + 24 * HOUR : 0;
  return Math.max(cycle, off24);
}
