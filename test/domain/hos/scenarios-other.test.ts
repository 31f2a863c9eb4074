/**
 * Passenger-carrying (395.5) and Canada south of 60°N (SOR/2005-313): their driving and on-duty limits,
 * resets, sleeper splits, cycles, the 24-hours-off rule and daily limits that end at the day boundary.
 */
import { describe } from 'node:test';
import { runScenarios, type Scenario } from './dsl.js';

const P = '70_8_p';
// April: no daylight-saving change inside these scenarios (a 16:00–16:00 rest over one is 23 hours).
const CA1 = { cycle: 'canada_7day', zone: 'America/Toronto', base: '2024-04-01' };
const CA2 = { cycle: 'canada_14day', zone: 'America/Toronto', base: '2024-04-01' };
const days = (from: number, to: number, lines: (d: number) => string[]) =>
  Array.from({ length: to - from + 1 }, (_, i) => lines(from + i)).flat();
const ON12 = (d: number) => [`D${d} 06:00 ON`, `D${d} 18:00 OFF`];

const scenarios: Scenario[] = [
  {
    name: 'passenger: a fresh driver has 10 h drive and 15 h on duty; no 30-minute break',
    cycle: P,
    log: [],
    checks: [{ at: 'D1 12:00', drive: '10:00', shift: '15:00', cycle: '70:00', break: '10:00' }],
  },
  {
    name: 'passenger: driving past 10 hours is driving_10 (and no break_30)',
    cycle: P,
    log: ['D1 06:00 D', 'D1 16:30 OFF'],
    checks: [{ at: 'D1 17:00', violations: [['driving_10', 'D1 16:00', 'D1 16:30']] }],
  },
  {
    name: 'passenger: 15 hours on duty are counted, not elapsed (off-duty time is not counted)',
    cycle: P,
    log: ['D1 06:00 ON', 'D1 12:00 OFF', 'D1 15:00 ON', 'D1 22:00 D', 'D2 01:00 OFF'],
    checks: [
      { at: 'D1 23:00', shift: '1:00', drive: '1:00' },
      { at: 'D2 02:00', violations: [['duty_15', 'D2 00:00', 'D2 01:00']] },
    ],
  },
  {
    name: 'passenger: 8 consecutive hours off reset the shift',
    cycle: P,
    log: ['D1 06:00 D', 'D1 16:00 OFF', 'D2 00:00 D', 'D2 02:00 OFF'],
    checks: [
      { at: 'D2 00:00', drive: '10:00', shift: '15:00' },
      { at: 'D2 03:00', violations: [] },
    ],
  },
  {
    name: 'passenger: 7 h 59 min off is not a reset',
    cycle: P,
    log: ['D1 06:00 D', 'D1 16:00 OFF', 'D1 23:59 D', 'D2 01:00 OFF'],
    checks: [{ at: 'D2 03:00', violations: [['driving_10', 'D1 23:59', 'D2 01:00']] }],
  },
  {
    name: 'passenger: 34 hours off do not restart the cycle',
    cycle: P,
    log: days(1, 6, (d) => [`D${d} 06:00 ON`, `D${d} 17:00 OFF`]),
    checks: [{ at: 'D8 03:00', cycle: '4:00', lastReset: null }],
  },
  {
    name: 'passenger: two sleeper periods of 4 h split the 8-hour rest',
    cycle: P,
    log: ['D1 00:00 D', 'D1 05:00 SB', 'D1 09:00 D', 'D1 14:00 SB', 'D1 18:00 D', 'D1 23:00 OFF'],
    checks: [
      { at: 'D1 18:00', driveRaw: '5:00' },
      { at: 'D2 00:00', violations: [] },
    ],
  },
  {
    name: 'passenger: one minute past 10 hours in the split calculation period is driving_10',
    cycle: P,
    log: ['D1 00:00 D', 'D1 05:00 SB', 'D1 09:00 D', 'D1 14:00 SB', 'D1 18:00 D', 'D1 23:01 OFF'],
    checks: [{ at: 'D2 00:00', violations: [['driving_10', 'D1 23:00', 'D1 23:01']] }],
  },
  {
    name: 'Canada: a fresh driver has 13 h drive, 14 h on duty, 70 h cycle',
    ...CA1,
    log: [],
    checks: [{ at: 'D1 12:00', drive: '13:00', shift: '14:00', cycle: '70:00', break: '13:00' }],
  },
  {
    name: 'Canada: more than 13 hours of driving in a day is canada_driving_13',
    ...CA1,
    log: ['D1 00:00 D', 'D1 06:00 OFF', 'D1 14:00 D', 'D1 22:00 OFF'],
    checks: [{ at: 'D1 23:00', violations: [['canada_driving_13', 'D1 21:00', 'D1 22:00']] }],
  },
  {
    name: 'Canada: daily limits end at the day boundary while the driving goes on',
    ...CA1,
    log: ['D1 00:00 D', 'D1 06:00 OFF', 'D1 14:00 D', 'D2 01:00 OFF'],
    checks: [
      {
        at: 'D2 02:00',
        violations: [
          ['canada_driving_13', 'D1 21:00', 'D2 00:00'],
          ['canada_duty_14', 'D1 22:00', 'D2 00:00'],
        ],
      },
    ],
  },
  {
    name: 'Canada: no driving after 16 hours elapsed in the work shift',
    ...CA1,
    log: ['D1 06:00 ON', 'D1 10:00 OFF', 'D1 14:00 ON', 'D1 19:00 D', 'D1 23:00 OFF'],
    checks: [{ at: 'D1 23:30', violations: [['canada_shift_16', 'D1 22:00', 'D1 23:00']] }],
  },
  {
    name: 'Canada cycle 1: 70 hours in 7 days, and a 36-hour reset',
    ...CA1,
    log: [...days(1, 5, ON12), 'D6 06:00 ON', 'D6 16:00 D', 'D6 17:00 OFF', 'D8 05:00 ON'],
    checks: [
      { at: 'D6 18:00', violations: [['canada_cycle_70', 'D6 16:00', 'D6 17:00']] },
      { at: 'D7 05:00', cycle: '0:00' },
      { at: 'D8 04:59', cycle: '11:00' },
      { at: 'D8 05:00', cycle: '70:00', lastReset: ['36_hour', 'D6 17:00', null] },
    ],
  },
  {
    name: 'Canada cycle 2: no driving after 70 hours without 24 consecutive hours off',
    ...CA2,
    log: [...days(1, 5, ON12), 'D6 06:00 ON', 'D6 16:00 D', 'D6 17:00 OFF'],
    checks: [
      { at: 'D6 16:00', cycle: '0:00' },
      { at: 'D6 18:00', violations: [['canada_cycle_2_70', 'D6 16:00', 'D6 17:00']] },
    ],
  },
  {
    name: 'Canada cycle 2: 24 hours off allow another 70 hours within the 120',
    ...CA2,
    log: [...days(1, 5, ON12), 'D6 06:00 ON', 'D6 16:00 OFF', 'D7 16:00 D', 'D7 18:00 OFF'],
    checks: [
      { at: 'D7 16:00', cycle: '50:00' },
      { at: 'D7 19:00', violations: [] },
    ],
  },
  {
    name: 'Canada: driving without 24 consecutive hours off in 14 days is canada_off_24',
    ...CA1,
    log: days(1, 14, (d) => [`D${d} 06:00 ON`, `D${d} 08:00 D`, `D${d} 10:00 OFF`]),
    checks: [
      { at: 'D13 12:00', violations: [] },
      { at: 'D14 12:00', violations: [['canada_off_24', 'D14 08:00', 'D14 10:00']] },
    ],
  },
  {
    name: 'Canada split sleeper: 4 h + 6 h sleeper periods; daily limits still apply',
    ...CA1,
    log: ['D1 00:00 D', 'D1 06:00 SB', 'D1 10:00 D', 'D1 16:00 SB', 'D1 22:00 ON'],
    checks: [{ at: 'D1 22:00', violations: [], driveRaw: '1:00', shift: '2:00' }],
  },
  {
    name: 'Canada split sleeper: 4 h + 5 h 59 min is no pair, so hour 16 ends the shift',
    ...CA1,
    log: ['D1 00:00 D', 'D1 06:00 SB', 'D1 10:00 D', 'D1 16:30 SB', 'D1 22:29 ON'],
    checks: [{ at: 'D1 23:00', violations: [['canada_shift_16', 'D1 16:00', 'D1 16:30']] }],
  },
  {
    name: 'Canada split sleeper: 4 h + 6 h excuses the same driving',
    ...CA1,
    log: ['D1 00:00 D', 'D1 06:00 SB', 'D1 10:00 D', 'D1 16:30 SB', 'D1 22:30 ON'],
    checks: [{ at: 'D1 23:00', violations: [] }],
  },
  {
    name: 'Canada adverse driving: +2 hours to the daily limits',
    ...CA1,
    flags: { exception_adverse_driving: true },
    claims: ['D1 20:00 adverse'],
    log: ['D1 00:00 D', 'D1 06:00 OFF', 'D1 14:00 D', 'D1 22:30 OFF'],
    checks: [{ at: 'D1 23:00', violations: [] }],
  },
  {
    name: 'Canada without adverse driving the same day violates both daily limits',
    ...CA1,
    log: ['D1 00:00 D', 'D1 06:00 OFF', 'D1 14:00 D', 'D1 22:30 OFF'],
    checks: [
      {
        at: 'D1 23:00',
        violations: [
          ['canada_driving_13', 'D1 21:00', 'D1 22:30'],
          ['canada_duty_14', 'D1 22:00', 'D1 22:30'],
        ],
      },
    ],
  },
];

describe('HOS scenarios: passenger-carrying and Canada', () => runScenarios(scenarios));
