/**
 * Which split rests pair (docs/hos.md, "Split sleeper berth"): a qualifying period pairs with a later one
 * even when other rests lie between, a period paired once pairs again with the next (FMCSA 2020 HOS FAQ,
 * question 8), and of the possible pairings the one with the fewest violations is used, then the one that
 * leaves the most time (question 4). Each schedule starts after a 10-hour rest ending at D1 00:00.
 */
import { describe } from 'node:test';
import { runScenarios, type Scenario } from './dsl.js';

const scenarios: Scenario[] = [
  {
    name: 'a 3-hour rest pairs with a later 7-hour sleeper across a 2-hour rest that pairs with nothing',
    // 3 h + 7 h = 10: a pair. 2 h + 7 h = 9: none, so the 2 hours count in the window (00:00 + 14 + 3 = 17:00).
    log: ['D1 00:00 D', 'D1 04:00 OFF', 'D1 07:00 D', 'D1 10:00 OFF', 'D1 12:00 D', 'D1 16:00 SB', 'D1 23:00 ON'],
    checks: [
      // Before the sleeper qualifies nothing pairs: driving after hour 14 is a violation for now.
      { at: 'D1 16:30', violations: [['duty_14', 'D1 14:00', 'D1 16:00']] },
      // Calculation point: the end of the 3-hour rest (07:00); 7 h driven since; window 07:00 + 14 + 7 = D2 04:00.
      { at: 'D1 23:00', violations: [], driveRaw: '4:00', shift: '5:00', status: 'SB' },
    ],
  },
  {
    name: 'the 2 hours between count in the window: one more hour of driving before the sleeper is duty_14',
    log: [
      'D1 00:00 D',
      'D1 04:00 OFF',
      'D1 07:00 D',
      'D1 10:00 OFF',
      'D1 12:00 ON',
      'D1 16:00 D',
      'D1 18:00 SB',
      'D2 01:00 ON',
    ],
    checks: [{ at: 'D2 01:00', violations: [['duty_14', 'D1 17:00', 'D1 18:00']] }],
  },
  {
    name: 'FAQ question 8: a 3-hour rest paired with the 7-hour sleeper before it pairs again with the next one',
    log: [
      'D1 00:00 D',
      'D1 05:00 SB',
      'D1 12:00 D',
      'D1 18:00 OFF',
      'D1 21:00 D',
      'D2 02:00 SB',
      'D2 09:00 D',
      'D2 15:00 OFF',
    ],
    checks: [
      // Sleeper + 3 h: calculation point 12:00, 6 h driven, window 12:00 + 14 + 3 = D2 05:00.
      { at: 'D1 21:00', violations: [], driveRaw: '5:00', shift: '8:00' },
      // 3 h + second sleeper: calculation point 21:00, 5 h driven, window 21:00 + 14 + 7 = D2 18:00.
      { at: 'D2 09:00', violations: [], driveRaw: '6:00', shift: '9:00' },
      { at: 'D2 15:30', violations: [], driveRaw: '0:00', shift: '2:30', status: 'OFF' },
    ],
  },
  {
    name: 'FAQ question 8: after the re-pairing one more minute of driving is driving_11',
    log: [
      'D1 00:00 D',
      'D1 05:00 SB',
      'D1 12:00 D',
      'D1 18:00 OFF',
      'D1 21:00 D',
      'D2 02:00 SB',
      'D2 09:00 D',
      'D2 15:01 OFF',
    ],
    checks: [{ at: 'D2 16:00', violations: [['driving_11', 'D2 15:00', 'D2 15:01']] }],
  },
  {
    name: 'the pairing without a violation is used even when another would leave more time',
    // Pairing the first 3-hour rest with the sleeper excuses the driving at hours 14-16 (window 17:00) but
    // leaves the calculation point at 05:00; pairing the second leaves full clocks and 2 hours in violation.
    log: [
      'D1 00:00 D',
      'D1 02:00 OFF',
      'D1 05:00 ON',
      'D1 12:00 D',
      'D1 16:00 OFF',
      'D1 19:00 ON',
      'D1 20:00 SB',
      'D2 03:00 ON',
    ],
    checks: [
      { at: 'D1 19:30', violations: [['duty_14', 'D1 14:00', 'D1 16:00']] },
      // Window 05:00 + 14 + 7 = D2 02:00: no time left in it; 4 h driven since 05:00.
      { at: 'D2 03:00', violations: [], driveRaw: '7:00', shift: '0:00', drive: '0:00' },
    ],
  },
  {
    name: 'of two pairings without a violation, the one leaving the most time: the later 3-hour rest',
    log: ['D1 00:00 D', 'D1 02:00 OFF', 'D1 05:00 D', 'D1 08:00 OFF', 'D1 11:00 D', 'D1 13:00 SB', 'D1 20:00 ON'],
    // Calculation point 11:00 (not 05:00): 2 h driven since; window 11:00 + 14 + 7 = D2 08:00.
    checks: [{ at: 'D1 20:00', violations: [], driveRaw: '9:00', shift: '12:00' }],
  },
  {
    name: 'Canada: two sleeper periods pair (4 h + 6 h) across a 2-hour one that pairs with neither',
    cycle: 'canada_7day',
    log: ['D1 00:00 D', 'D1 04:00 SB', 'D1 08:00 D', 'D1 11:00 SB', 'D1 13:00 D', 'D1 17:00 SB', 'D1 23:00 ON'],
    checks: [
      { at: 'D1 17:30', violations: [['canada_shift_16', 'D1 16:00', 'D1 17:00']] },
      // Window 00:00 + 16 + 4 = 20:00 for the driving before the 6 hours; after them, 08:00 + 16 + 6 = D2 06:00.
      // The daily limits (13 h driving, 14 h on duty in the day) bind first on D1.
      { at: 'D1 23:00', violations: [], driveRaw: '2:00', shift: '3:00' },
      // A new day: 7 h driven since 08:00 (6 h of the 13 left), 8 h on duty since (6 h of the 14).
      { at: 'D2 00:00', violations: [], driveRaw: '6:00', shift: '6:00' },
    ],
  },
];

describe('HOS scenarios: which split rests pair', () => runScenarios(scenarios));
