/**
 * Rolling cycles (60/7, 70/8) counted in log days of the home-terminal zone, the 34-hour restart, cycle
 * tomorrow across local midnight, daylight-saving days, and FMCSA's example E5.
 */
import { describe } from 'node:test';
import { runScenarios, type Scenario } from './dsl.js';

/** `ON hh:mm-hh:mm` on each of the given days. */
const days = (from: number, to: number, start: string, end: string, status = 'ON') =>
  Array.from({ length: to - from + 1 }, (_, i) => [
    `D${from + i} ${start} ${status}`,
    `D${from + i} ${end} OFF`,
  ]).flat();

const E5 = [
  'D2 06:00 ON',
  'D2 16:00 OFF',
  'D3 06:00 ON',
  'D3 14:30 OFF',
  'D4 06:00 ON',
  'D4 18:30 OFF',
  'D5 06:00 ON',
  'D5 15:00 OFF',
  'D6 06:00 ON',
  'D6 16:00 OFF',
  'D7 06:00 ON',
  'D7 18:00 OFF',
  'D8 06:00 ON',
  'D8 11:00 OFF',
];

const scenarios: Scenario[] = [
  {
    name: 'E5: days 1–8 total 67 h (legal), days 2–9 reach 70 h after 3 h of day 9: the rest of its driving is cycle_70',
    base: '2024-03-03',
    log: [...E5, 'D9 06:00 D', 'D9 12:00 OFF'],
    checks: [
      { at: 'D8 23:00', cycle: '3:00', violations: [] },
      { at: 'D9 06:00', cycle: '3:00', cycleTomorrow: '13:00' },
      {
        at: 'D9 13:00',
        violations: [['cycle_70', 'D9 09:00', 'D9 12:00']],
        recap: [
          ['2024-03-04', '10:00', '0:00'],
          ['2024-03-05', '8:30', '0:00'],
          ['2024-03-06', '12:30', '0:00'],
          ['2024-03-07', '9:00', '0:00'],
          ['2024-03-08', '10:00', '0:00'],
          ['2024-03-09', '12:00', '0:00'],
          ['2024-03-10', '5:00', '0:00'],
          ['2024-03-11', '6:00', '6:00'],
        ],
      },
      { at: 'D10 12:00', cycle: '7:00' },
    ],
  },
  {
    name: 'E5: on-duty (not driving) time beyond 70 hours is legal',
    base: '2024-03-03',
    log: [...E5, 'D9 06:00 D', 'D9 09:00 ON', 'D9 12:00 OFF'],
    checks: [{ at: 'D9 13:00', violations: [], cycle: '0:00', drive: '0:00' }],
  },
  {
    name: '60/7: exactly 60 hours in the window makes all driving a violation',
    cycle: '60_7',
    log: [...days(1, 6, '06:00', '16:00'), 'D7 06:00 D', 'D7 08:00 OFF'],
    checks: [
      { at: 'D7 06:00', cycle: '0:00', drive: '0:00' },
      { at: 'D7 09:00', violations: [['cycle_60', 'D7 06:00', 'D7 08:00']] },
    ],
  },
  {
    name: '60/7: 59 h 59 min leaves one legal minute',
    cycle: '60_7',
    log: ['D1 06:00 ON', 'D1 15:59 OFF', ...days(2, 6, '06:00', '16:00'), 'D7 06:00 D', 'D7 08:00 OFF'],
    checks: [{ at: 'D7 09:00', violations: [['cycle_60', 'D7 06:01', 'D7 08:00']] }],
  },
  {
    name: 'a cycle violation ends at midnight when the oldest day drops out',
    log: [
      'D1 06:00 ON',
      'D1 16:00 OFF',
      ...days(2, 7, '06:00', '15:00'),
      'D8 06:00 ON',
      'D8 12:00 OFF',
      'D8 22:00 D',
      'D9 01:00 OFF',
    ],
    checks: [{ at: 'D9 02:00', violations: [['cycle_70', 'D8 22:00', 'D9 00:00']] }],
  },
  {
    name: '34-hour restart: the full cycle is back and reported as the last cycle reset',
    log: [...days(1, 6, '06:00', '17:00'), 'D8 03:00 ON'],
    checks: [
      { at: 'D8 02:59', cycle: '4:00', lastReset: null },
      { at: 'D8 03:00', cycle: '70:00', lastReset: ['34_hour', 'D6 17:00', null] },
      { at: 'D8 04:00', cycle: '69:00', lastReset: ['34_hour', 'D6 17:00', 'D8 03:00'] },
    ],
  },
  {
    name: '33 h 59 min off is not a restart',
    log: [...days(1, 6, '06:00', '17:00'), 'D8 02:59 ON'],
    checks: [{ at: 'D8 03:59', cycle: '3:00', lastReset: null }],
  },
  {
    name: 'a 34-hour restart straddling two midnights drops on-duty time still inside the 8 days',
    log: [...days(1, 3, '06:00', '18:00'), 'D5 04:00 ON'],
    checks: [
      {
        at: 'D5 10:00',
        cycle: '64:00',
        recap: [
          ['2024-03-06', '12:00', '0:00'],
          ['2024-03-07', '0:00', '0:00'],
          ['2024-03-08', '6:00', '0:00'],
        ],
      },
    ],
  },
  {
    name: 'oil-field 24-hour restart (exception_24_hour_restart)',
    flags: { exception_24_hour_restart: true },
    log: [...days(1, 6, '06:00', '17:00'), 'D7 17:00 ON'],
    checks: [{ at: 'D7 18:00', cycle: '69:00', lastReset: ['24_hour', 'D6 17:00', 'D7 17:00'] }],
  },
  {
    name: 'without the oil-field exception 24 hours off restart nothing',
    log: [...days(1, 6, '06:00', '17:00'), 'D7 17:00 ON'],
    checks: [{ at: 'D7 18:00', cycle: '3:00', lastReset: null }],
  },
  {
    name: 'cycle tomorrow across local midnight in the home-terminal zone (Chicago)',
    zone: 'America/Chicago',
    log: days(1, 8, '06:00', '14:00'),
    checks: [
      { at: 'D8 23:30', cycle: '6:00', cycleTomorrow: '14:00' },
      { at: 'D9 00:30', cycle: '14:00', cycleTomorrow: '22:00' },
    ],
  },
  {
    name: 'a shift across local midnight counts in two log days (New York)',
    zone: 'America/New_York',
    log: ['D1 22:00 D', 'D2 02:00 OFF'],
    checks: [
      {
        at: 'D2 03:00',
        recap: [
          ['2024-03-04', '2:00', '2:00'],
          ['2024-03-05', '2:00', '2:00'],
        ],
      },
    ],
  },
  {
    name: 'the same instants are one day in UTC',
    zone: 'UTC',
    log: ['D1 03:00 D', 'D1 07:00 OFF'],
    checks: [{ at: 'D1 08:00', recap: [['2024-03-04', '4:00', '4:00']] }],
  },
  {
    name: 'a spring-forward day has 23 hours: 01:00–04:00 local is 2 hours on duty',
    zone: 'America/New_York',
    base: '2024-03-09',
    log: ['D2 01:00 ON', 'D2 04:00 OFF'],
    checks: [
      {
        at: 'D2 12:00',
        recap: [
          ['2024-03-09', '0:00', '0:00'],
          ['2024-03-10', '2:00', '0:00'],
        ],
      },
    ],
  },
  {
    name: 'a fall-back day has 25 hours',
    zone: 'America/New_York',
    base: '2024-11-02',
    log: ['D2 00:00 ON', 'D3 00:00 OFF'],
    checks: [
      {
        at: 'D3 06:00',
        violations: [],
        recap: [
          ['2024-11-03', '25:00', '0:00'],
          ['2024-11-04', '0:00', '0:00'],
        ],
      },
    ],
  },
];

describe('HOS scenarios: cycles, restarts, days and time zones', () => runScenarios(scenarios));
