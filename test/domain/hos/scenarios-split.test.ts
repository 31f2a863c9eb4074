/**
 * Split sleeper berth, property-carrying (395.1(g)(1) as amended in 2020; docs/reference/domain-rules.md §1.4, D-9):
 * FMCSA's worked examples E3 and E4, 7/3 and 8/2 in either order, pairs below 10 hours, unpaired rests,
 * mixed OFF+SB runs, and violations withdrawn when a later rest completes a pair.
 */
import { describe } from 'node:test';
import { runScenarios, type Scenario } from './dsl.js';

const E3_LOG = [
  'D1 00:00 ON',
  'D1 02:00 D',
  'D1 07:00 OFF',
  'D1 10:00 D',
  'D1 15:00 SB',
  'D1 22:00 D',
  'D2 04:00 ON',
  'D2 05:00 SB',
  'D2 09:00 ON',
  'D2 09:30 D',
  'D2 14:00 SB',
];

const scenarios: Scenario[] = [
  {
    // Found by the property test "drive, shift and break never increase while driving": with the 14-hour
    // window spent in every frame, the pair completed exactly as driving starts was taken only once it
    // avoided a violation (20 minutes of drive left, then 10:40 twenty minutes later).
    name: '2h41 OFF and 7h19 SB (exactly 10 hours) pair at the instant driving starts, window spent either way',
    log: ['D1 00:00 D', 'D1 10:40 OFF', 'D1 13:21 WAIT', 'D2 03:21 SB', 'D2 10:40 D', 'D2 11:01 OFF'],
    checks: [
      { at: 'D2 10:39', driveRaw: '0:20' },
      { at: 'D2 10:40', driveRaw: '11:00' },
      { at: 'D2 11:00', driveRaw: '10:40' },
    ],
  },
  {
    name: 'E3: FMCSA sleeper-berth example (pairs 1+2 and 2+3, then a 10-hour rest) has no violation',
    log: E3_LOG,
    checks: [
      { at: 'D1 22:00', violations: [], shift: '9:00', driveRaw: '6:00' },
      { at: 'D2 04:00', violations: [], driveRaw: '0:00' },
      { at: 'D2 09:00', violations: [], shift: '7:00', driveRaw: '5:00' },
      { at: 'D3 00:00', violations: [], drive: '11:00', shift: '14:00', status: 'SB' },
    ],
  },
  {
    name: 'E3: calculation period 2 is at its 11-hour limit: one more minute of driving is driving_11',
    log: [...E3_LOG.slice(0, 6), 'D2 04:01 ON', 'D2 05:00 SB'],
    checks: [{ at: 'D2 05:30', violations: [['driving_11', 'D2 04:00', 'D2 04:01']] }],
  },
  {
    name: 'E4: 5 h OFF and a later 7 h SB pair up; both are excluded from the window',
    log: ['D1 00:00 D', 'D1 05:00 OFF', 'D1 10:00 D', 'D1 15:00 SB', 'D1 22:00 ON'],
    checks: [
      { at: 'D1 15:30', violations: [['duty_14', 'D1 14:00', 'D1 15:00']] },
      { at: 'D1 22:00', violations: [], shift: '9:00', driveRaw: '6:00', drive: '6:00', cycle: '60:00' },
    ],
  },
  {
    name: '7/3 split, sleeper first: the calculation point moves to the end of the 7 hours',
    log: ['D1 00:00 D', 'D1 06:00 SB', 'D1 13:00 D', 'D1 18:00 OFF', 'D1 21:00 ON'],
    checks: [{ at: 'D1 21:00', violations: [], shift: '9:00', driveRaw: '6:00', drive: '6:00', cycle: '59:00' }],
  },
  {
    name: '7/3 split: driving the 6 remaining hours exactly is legal',
    log: ['D1 00:00 D', 'D1 06:00 SB', 'D1 13:00 D', 'D1 18:00 OFF', 'D1 21:00 D', 'D2 03:00 OFF'],
    checks: [{ at: 'D2 04:00', violations: [] }],
  },
  {
    name: '7/3 split: one minute past 11 hours in the calculation period is driving_11',
    log: ['D1 00:00 D', 'D1 06:00 SB', 'D1 13:00 D', 'D1 18:00 OFF', 'D1 21:00 D', 'D2 03:01 OFF'],
    checks: [{ at: 'D2 04:00', violations: [['driving_11', 'D2 03:00', 'D2 03:01']] }],
  },
  {
    name: '8/2 split, sleeper first',
    log: ['D1 00:00 D', 'D1 05:00 SB', 'D1 13:00 D', 'D1 19:00 OFF', 'D1 21:00 ON'],
    checks: [{ at: 'D1 21:00', violations: [], shift: '8:00', driveRaw: '5:00' }],
  },
  {
    name: '2/8 split, short rest first: legal through the next 6 hours of driving',
    log: ['D1 00:00 D', 'D1 06:00 OFF', 'D1 08:00 D', 'D1 13:00 SB', 'D1 21:00 D', 'D2 03:00 OFF'],
    checks: [
      { at: 'D1 21:00', violations: [], shift: '9:00', driveRaw: '6:00', status: 'SB' },
      { at: 'D2 03:00', violations: [], shift: '3:00', driveRaw: '0:00', status: 'D' },
    ],
  },
  {
    name: 'a 2-hour rest and a 7-hour sleeper (9 hours) are not a pair',
    log: ['D1 00:00 D', 'D1 04:00 OFF', 'D1 06:00 D', 'D1 10:00 SB', 'D1 17:00 D', 'D1 20:00 OFF'],
    checks: [{ at: 'D1 21:00', violations: [['duty_14', 'D1 17:00', 'D1 20:00']] }],
  },
  {
    name: 'a 3-hour rest and a 7-hour sleeper (10 hours) are a pair',
    log: ['D1 00:00 D', 'D1 04:00 OFF', 'D1 07:00 D', 'D1 10:00 SB', 'D1 17:00 D', 'D1 21:00 OFF'],
    checks: [{ at: 'D1 22:00', violations: [], shift: '6:00', driveRaw: '4:00' }],
  },
  {
    name: 'an unpaired 2-hour rest counts inside the 14-hour window',
    log: ['D1 06:00 ON', 'D1 08:00 OFF', 'D1 10:00 ON', 'D1 19:00 D', 'D1 20:30 OFF'],
    checks: [
      { at: 'D1 12:00', shift: '8:00' },
      { at: 'D1 21:00', violations: [['duty_14', 'D1 20:00', 'D1 20:30']] },
    ],
  },
  {
    name: 'D-9: a mixed OFF+SB run is the long member only through its 7 SB hours (7 + 2 is no pair)',
    log: [
      'D1 00:00 D',
      'D1 03:00 OFF',
      'D1 05:00 D',
      'D1 08:00 OFF',
      'D1 09:00 SB',
      'D1 16:00 D',
      'D1 20:00 OFF',
      'D1 22:00 ON',
    ],
    checks: [{ at: 'D1 22:00', violations: [['duty_14', 'D1 16:00', 'D1 20:00']] }],
  },
  {
    name: 'D-9: driving past hour 14 is withdrawn when a later 10-hour sleeper pairs with an earlier 3-hour rest',
    log: ['D1 00:00 D', 'D1 04:00 OFF', 'D1 07:00 ON', 'D1 10:00 D', 'D1 16:00 SB', 'D2 02:00 ON'],
    checks: [
      { at: 'D1 16:30', violations: [['duty_14', 'D1 14:00', 'D1 16:00']] },
      { at: 'D2 02:00', violations: [], drive: '11:00', shift: '14:00' },
    ],
  },
  {
    name: 'D-9: a 7-hour sleeper is excused once the rest after it reaches 3 hours, not at 2.5',
    log: ['D1 00:00 D', 'D1 03:00 OFF', 'D1 05:00 D', 'D1 08:00 SB', 'D1 15:00 D', 'D1 20:00 OFF', 'D2 06:00 ON'],
    checks: [
      { at: 'D1 22:30', violations: [['duty_14', 'D1 15:00', 'D1 20:00']] },
      { at: 'D1 23:00', violations: [] },
      { at: 'D2 06:00', violations: [], drive: '11:00' },
    ],
  },
  // FMCSA's 2020 HOS FAQ (November 2020): a 10-consecutive-hour off-duty period may not be paired with a
  // later qualifying 7-hour sleeper period; it has restarted the limits already.
  {
    name: 'a 7-hour sleeper after a 10-hour reset does not pair with the reset: driving past the 14th hour is a violation',
    log: ['D1 06:00 D', 'D1 11:00 SB', 'D1 18:00 D', 'D1 23:00 OFF'],
    checks: [{ at: 'D1 23:30', violations: [['duty_14', 'D1 20:00', 'D1 23:00']], driveRaw: '1:00', shift: '0:00' }],
  },
  {
    name: 'sleeper periods shorter than 2 hours never count: the pair is the 2-hour rest and the 8-hour sleeper',
    log: [
      'D1 00:00 D',
      'D1 03:00 OFF',
      'D1 05:00 D',
      'D1 07:00 SB',
      'D1 08:59 D',
      'D1 11:00 SB',
      'D1 19:01 D',
      'D2 02:01 OFF',
    ],
    checks: [
      { at: 'D1 19:01', driveRaw: '6:59', violations: [] },
      { at: 'D2 03:00', violations: [['driving_11', 'D2 02:00', 'D2 02:01']] },
    ],
  },
];

describe('HOS scenarios: split sleeper berth', () => runScenarios(scenarios));
