/**
 * US property-carrying scenarios: the 14-hour window, the 11-hour limit, the 30-minute break, the 10-hour
 * reset, PC and YM inside a rest, adverse driving, the 16-hour exception, waiting time and the effective
 * drive clock. Each boundary is tested exactly at the limit and one minute past it.
 */
import { describe } from 'node:test';
import { runScenarios, type Scenario } from './dsl.js';

const scenarios: Scenario[] = [
  {
    name: 'E6: a fresh driver has 11 h drive, 14 h shift, 70 h cycle and 8 h break',
    log: [],
    checks: [
      {
        at: 'D1 12:00',
        drive: '11:00',
        shift: '14:00',
        cycle: '70:00',
        break: '8:00',
        cycleTomorrow: '70:00',
        violations: [],
        lastReset: null,
      },
    ],
  },
  {
    name: 'a driver who has only been off duty or in the sleeper is fresh',
    log: ['D1 00:00 OFF', 'D1 08:00 SB'],
    checks: [{ at: 'D1 12:00', drive: '11:00', shift: '14:00', cycle: '70:00', break: '8:00', status: 'SB' }],
  },
  {
    name: 'E1: on duty at 06:00 after a reset; the window ends at 20:00 (drive is capped by the shift)',
    log: ['D1 06:00 ON'],
    checks: [{ at: 'D1 10:00', driveRaw: '11:00', drive: '10:00', shift: '10:00', cycle: '66:00', break: '8:00' }],
  },
  {
    name: 'E1: driving after 20:00 is a duty_14 violation until the driving stops',
    log: ['D1 06:00 ON', 'D1 19:00 D', 'D1 21:00 OFF'],
    checks: [{ at: 'D1 21:30', violations: [['duty_14', 'D1 20:00', 'D1 21:00']] }],
  },
  {
    name: 'E1: on-duty work after 20:00 is legal',
    log: ['D1 06:00 ON', 'D1 22:00 OFF'],
    checks: [
      { at: 'D1 21:00', violations: [], shift: '0:00', drive: '0:00', driveRaw: '11:00' },
      { at: 'D1 23:00', violations: [] },
    ],
  },
  {
    name: '14-hour window: driving that ends exactly at hour 14 is legal',
    log: ['D1 06:00 ON', 'D1 18:00 D', 'D1 20:00 OFF'],
    checks: [{ at: 'D1 20:30', violations: [] }],
  },
  {
    name: '14-hour window: one minute past hour 14 is a one-minute duty_14',
    log: ['D1 06:00 ON', 'D1 18:00 D', 'D1 20:01 OFF'],
    checks: [{ at: 'D1 20:30', violations: [['duty_14', 'D1 20:00', 'D1 20:01']] }],
  },
  {
    name: 'E2: 1 h ON, 7 h D, 30 min break, 4 h D — no violation, 11 h used at 18:30',
    log: ['D1 06:00 ON', 'D1 07:00 D', 'D1 14:00 OFF', 'D1 14:30 D', 'D1 18:30 ON'],
    checks: [
      { at: 'D1 18:30', violations: [], driveRaw: '0:00', status: 'D' },
      { at: 'D1 18:45', violations: [], driveRaw: '0:00', drive: '0:00', shift: '1:15', break: '4:00', cycle: '57:45' },
    ],
  },
  {
    name: 'E2: one minute more driving is a driving_11 violation',
    log: ['D1 06:00 ON', 'D1 07:00 D', 'D1 14:00 OFF', 'D1 14:30 D', 'D1 18:31 ON'],
    checks: [{ at: 'D1 19:00', violations: [['driving_11', 'D1 18:30', 'D1 18:31']] }],
  },
  {
    name: '11-hour limit reached exactly with a break in between is legal',
    log: ['D1 06:00 D', 'D1 10:00 OFF', 'D1 10:30 D', 'D1 17:30 OFF'],
    checks: [{ at: 'D1 18:00', violations: [], driveRaw: '0:00', shift: '2:00', drive: '0:00' }],
  },
  {
    name: '30-minute break: exactly 8 h of driving is legal and leaves no break time',
    log: ['D1 06:00 D', 'D1 14:00 OFF'],
    checks: [
      { at: 'D1 14:10', violations: [], break: '0:00', driveRaw: '3:00' },
      { at: 'D1 14:30', break: '8:00' },
    ],
  },
  {
    name: '30-minute break: one minute past 8 h is a break_30 violation',
    log: ['D1 06:00 D', 'D1 14:01 OFF'],
    checks: [{ at: 'D1 15:00', violations: [['break_30', 'D1 14:00', 'D1 14:01']] }],
  },
  {
    name: '30-minute break: a 29-minute stop does not count',
    log: ['D1 06:00 D', 'D1 10:00 OFF', 'D1 10:29 D', 'D1 14:30 OFF'],
    checks: [{ at: 'D1 15:00', violations: [['break_30', 'D1 14:29', 'D1 14:30']] }],
  },
  {
    name: 'E7: 15 min ON followed by 15 min OFF is a 30-minute break',
    log: ['D1 06:00 D', 'D1 10:00 ON', 'D1 10:15 OFF', 'D1 10:30 D', 'D1 14:30 OFF'],
    checks: [{ at: 'D1 14:40', violations: [], break: '4:00' }],
  },
  {
    name: 'E7 counter-case: two separate 15-minute stops do not add up',
    log: ['D1 06:00 D', 'D1 09:00 OFF', 'D1 09:15 D', 'D1 12:00 ON', 'D1 12:15 D', 'D1 14:45 OFF'],
    checks: [{ at: 'D1 15:00', violations: [['break_30', 'D1 14:30', 'D1 14:45']] }],
  },
  {
    name: 'driving again after a short stop while over 8 h opens a new break_30 record',
    log: ['D1 06:00 D', 'D1 14:30 OFF', 'D1 14:40 D', 'D1 15:00 OFF'],
    checks: [
      {
        at: 'D1 15:30',
        violations: [
          ['break_30', 'D1 14:00', 'D1 14:30'],
          ['break_30', 'D1 14:40', 'D1 15:00'],
        ],
      },
    ],
  },
  {
    name: 'short-haul exception: no 30-minute break; the break clock follows drive',
    flags: { exception_short_haul: true },
    log: ['D1 06:00 D', 'D1 14:30 OFF'],
    checks: [{ at: 'D1 15:00', violations: [], driveRaw: '2:30', drive: '2:30', break: '2:30' }],
  },
  {
    name: '10-hour reset: clocks are full again when the rest reaches 10 h',
    log: ['D1 06:00 D', 'D1 11:00 OFF', 'D1 11:30 D', 'D1 17:30 OFF', 'D2 03:30 D', 'D2 05:00 OFF'],
    checks: [
      { at: 'D2 03:30', drive: '11:00', shift: '14:00', status: 'OFF' },
      { at: 'D2 05:00', driveRaw: '9:30', shift: '12:30', cycle: '57:30', violations: [] },
    ],
  },
  {
    name: '10-hour reset: 9 h 59 min off is not a reset',
    log: ['D1 06:00 D', 'D1 11:00 OFF', 'D1 11:30 D', 'D1 17:30 OFF', 'D2 03:29 D', 'D2 04:00 OFF'],
    checks: [
      {
        at: 'D2 04:30',
        violations: [
          ['driving_11', 'D2 03:29', 'D2 04:00'],
          ['duty_14', 'D2 03:29', 'D2 04:00'],
        ],
      },
    ],
  },
  {
    name: 'personal conveyance inside a 10-hour rest keeps the rest intact',
    log: [
      'D1 06:00 D',
      'D1 11:00 OFF',
      'D1 11:30 D',
      'D1 17:30 OFF',
      'D1 20:00 PC',
      'D1 21:00 OFF',
      'D2 03:30 D',
      'D2 05:00 OFF',
    ],
    checks: [{ at: 'D2 05:00', driveRaw: '9:30', shift: '12:30', violations: [] }],
  },
  {
    name: 'a yard move inside a 10-hour rest breaks it (and counts on duty)',
    log: [
      'D1 06:00 D',
      'D1 11:00 OFF',
      'D1 11:30 D',
      'D1 17:30 OFF',
      'D1 20:00 YM',
      'D1 20:15 OFF',
      'D2 03:30 D',
      'D2 04:00 OFF',
    ],
    checks: [
      {
        at: 'D2 04:30',
        cycle: '58:15',
        violations: [
          ['driving_11', 'D2 03:30', 'D2 04:00'],
          ['duty_14', 'D2 03:30', 'D2 04:00'],
        ],
      },
    ],
  },
  {
    name: 'adverse driving: a claimed shift may drive 13 h in a 16-hour window',
    flags: { exception_adverse_driving: true },
    claims: ['D1 15:00 adverse'],
    log: ['D1 06:00 D', 'D1 12:00 OFF', 'D1 12:30 D', 'D1 19:30 OFF'],
    checks: [{ at: 'D1 20:00', violations: [], driveRaw: '0:00', shift: '2:00' }],
  },
  {
    name: 'adverse driving: one minute past 13 h is a driving_11 violation',
    flags: { exception_adverse_driving: true },
    claims: ['D1 15:00 adverse'],
    log: ['D1 06:00 D', 'D1 12:00 OFF', 'D1 12:30 D', 'D1 19:31 OFF'],
    checks: [{ at: 'D1 20:00', violations: [['driving_11', 'D1 19:30', 'D1 19:31']] }],
  },
  {
    name: 'adverse driving: a claim is not honoured when the exception is not enabled',
    claims: ['D1 15:00 adverse'],
    log: ['D1 06:00 D', 'D1 12:00 OFF', 'D1 12:30 D', 'D1 19:30 OFF'],
    checks: [{ at: 'D1 20:00', violations: [['driving_11', 'D1 17:30', 'D1 19:30']] }],
  },
  {
    name: 'adverse driving: the window is 16 h, and driving past it is still duty_14',
    flags: { exception_adverse_driving: true },
    claims: ['D1 21:00 adverse'],
    log: ['D1 06:00 ON', 'D1 21:00 D', 'D1 22:30 OFF'],
    checks: [{ at: 'D1 23:00', violations: [['duty_14', 'D1 22:00', 'D1 22:30']] }],
  },
  {
    name: '16-hour exception: a claimed shift may drive until hour 16',
    claims: ['D1 10:00 sixteen'],
    log: ['D1 06:00 ON', 'D1 19:00 D', 'D1 21:30 OFF'],
    checks: [{ at: 'D1 21:45', violations: [], shift: '0:15' }],
  },
  {
    name: '16-hour exception: driving after hour 16 is duty_16',
    claims: ['D1 10:00 sixteen'],
    log: ['D1 06:00 ON', 'D1 21:00 D', 'D1 22:30 OFF'],
    checks: [{ at: 'D1 23:00', violations: [['duty_16', 'D1 22:00', 'D1 22:30']] }],
  },
  {
    name: '16-hour exception used twice within 7 days: the second claim is refused',
    claims: ['D1 10:00 sixteen', 'D3 10:00 sixteen'],
    log: ['D1 06:00 ON', 'D1 20:00 D', 'D1 21:00 OFF', 'D3 06:00 ON', 'D3 20:00 D', 'D3 21:00 OFF'],
    checks: [{ at: 'D3 22:00', violations: [['duty_14', 'D3 20:00', 'D3 21:00']] }],
  },
  {
    name: '16-hour exception: a 34-hour restart allows it again',
    claims: ['D1 10:00 sixteen', 'D3 10:00 sixteen'],
    log: ['D1 06:00 ON', 'D1 20:00 D', 'D1 21:00 OFF', 'D3 07:00 ON', 'D3 21:00 D', 'D3 22:00 OFF'],
    checks: [{ at: 'D3 23:00', violations: [] }],
  },
  {
    name: '16-hour exception: a claim without driving after hour 14 is not spent',
    claims: ['D1 10:00 sixteen', 'D3 10:00 sixteen'],
    log: ['D1 06:00 ON', 'D1 10:00 D', 'D1 12:00 OFF', 'D3 06:00 ON', 'D3 20:00 D', 'D3 21:00 OFF'],
    checks: [{ at: 'D3 22:00', violations: [] }],
  },
  {
    name: 'waiting time is not on duty for the cycle but counts in the 14-hour window',
    log: ['D1 06:00 D', 'D1 10:00 WAIT', 'D1 14:00 D', 'D1 16:00 OFF'],
    checks: [{ at: 'D1 17:00', violations: [], cycle: '64:00', shift: '3:00', driveRaw: '5:00', break: '8:00' }],
  },
  {
    name: 'waiting time is not rest: it breaks a 10-hour reset',
    log: ['D1 06:00 D', 'D1 12:00 OFF', 'D1 20:00 WAIT', 'D1 21:00 OFF', 'D1 23:00 D', 'D2 00:00 OFF'],
    checks: [{ at: 'D2 01:00', violations: [['duty_14', 'D1 23:00', 'D2 00:00']] }],
  },
  {
    name: 'effective drive is capped by the shift clock (D-2)',
    log: ['D1 06:00 ON'],
    checks: [{ at: 'D1 16:00', driveRaw: '11:00', shift: '4:00', drive: '4:00' }],
  },
  {
    name: 'effective drive is capped by the cycle clock (D-2)',
    log: [
      'D1 06:00 ON',
      'D1 15:30 OFF',
      'D2 06:00 ON',
      'D2 15:30 OFF',
      'D3 06:00 ON',
      'D3 15:30 OFF',
      'D4 06:00 ON',
      'D4 15:30 OFF',
      'D5 06:00 ON',
      'D5 15:30 OFF',
      'D6 06:00 ON',
      'D6 15:30 OFF',
      'D7 06:00 ON',
      'D7 15:30 OFF',
    ],
    checks: [{ at: 'D8 06:00', cycle: '3:30', drive: '3:30', driveRaw: '11:00', cycleTomorrow: '13:00' }],
  },
  {
    name: 'a violation still being driven has no end time',
    log: ['D1 06:00 D', 'D1 12:00 OFF', 'D1 12:30 D'],
    checks: [{ at: 'D1 17:45', violations: [['driving_11', 'D1 17:30', null]], status: 'D', driveRaw: '0:00' }],
  },
  {
    name: 'clocks at a past instant ignore later records',
    log: ['D1 06:00 D', 'D1 12:00 OFF', 'D1 12:30 D', 'D1 18:00 OFF'],
    checks: [{ at: 'D1 12:15', violations: [], driveRaw: '5:00', status: 'OFF' }],
  },
];

describe('HOS scenarios: US property-carrying', () => runScenarios(scenarios));
