/**
 * Rules at their boundaries (docs/reference/domain-rules.md §4.4, §5.3, §6.3, §6.4, D-3, D-11, D-13): the fault grace,
 * speeding over the 75-mph policy maximum, harsh events derived from 1-Hz samples, and crawling speeds
 * in utilization.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { drive, engineRec, fix, only, rec, run, sec } from './build.js';
import { mphToKph } from '../../../src/telemetry/units.js';
import { telemetryConfig } from '../../../src/telemetry/thresholds.js';

const dtc = (s: number, key = 'j1939:0:100:1') =>
  rec(s, 'fault', {
    data: {
      protocol: 'j1939',
      status: 'active',
      key,
      code: '100',
      spn: 100,
      fmi: 1,
      source_address: 0,
      is_sid: false,
      occurrence_count: null,
      lamps: null,
    },
  });
const faultEvents = (records: ReturnType<typeof drive>) =>
  only(run(records).outputs, 'fault')
    .filter((o) => o.event)
    .map((o) => [o.event, sec(o.event === 'opened' ? o.row.first : o.row.closedAt)]);

test('fault grace: absent for the whole 300 s closes; re-reported exactly when it runs out does not', () => {
  assert.deepEqual(
    faultEvents([engineRec(0, 'on'), dtc(10), dtc(310), dtc(610), fix(700, 0)]),
    [['opened', 10]],
    'a DM1 every 300 s keeps it open',
  );
  assert.deepEqual(faultEvents([engineRec(0, 'on'), dtc(10), fix(309.999, 0)]), [['opened', 10]]);
  assert.deepEqual(faultEvents([engineRec(0, 'on'), dtc(10), fix(310, 0)]), [
    ['opened', 10],
    ['closed', 310],
  ]);
  assert.deepEqual(
    faultEvents([engineRec(0, 'on'), dtc(10), dtc(310, 'j1939:0:200:1')]),
    [
      ['opened', 10],
      ['closed', 310],
      ['opened', 310],
    ],
    'another code at the boundary does not keep it open',
  );
});

const perf = (records: ReturnType<typeof drive>) =>
  only(run(records).outputs, 'performance').map((o) => ({
    type: o.row.type,
    start: sec(o.row.start),
    end: sec(o.row.end),
  }));

test('speeding: above 75 mph (120.7008 kph), for at least 60 s', () => {
  assert.equal(mphToKph(75).toFixed(4), '120.7008');
  assert.deepEqual(perf([...drive(0, 120, 120.7008), fix(130, 100)]), [], 'exactly 75 mph is not speeding');
  assert.deepEqual(
    perf([...drive(0, 120, mphToKph(75)), fix(130, 100)]),
    [],
    '75 mph converted in floating point (120.70080000000002) is not speeding either',
  );
  assert.deepEqual(
    perf([...drive(0, 60, 120.71), fix(70, 100)]),
    [
      { type: 'speeding', start: 0, end: 60 },
      { type: 'speeding', start: 0, end: 70 },
    ],
    'exactly 60 s is an event',
  );
  assert.deepEqual(
    perf([...drive(0, 50, 120.71), fix(58, 120.71), fix(59, 100)]),
    [],
    '59 s over (until the first fix at or below) is not',
  );
});

test('harsh events derived from speed and heading: 1-Hz samples, the threshold inclusive, the minimum speed', () => {
  assert.deepEqual(
    perf([fix(0, 90), fix(1, 79.4), fix(2, 79.4)]),
    [{ type: 'hard_brake', start: 0, end: 1 }],
    '0.3002 g in 1 s',
  );
  assert.deepEqual(perf([fix(0, 90), fix(1, 79.42), fix(2, 79.42)]), [], '0.2997 g is under 0.30 g');
  assert.deepEqual(
    perf([fix(0, 90), fix(1.5, 72), fix(3, 72)]),
    [],
    'samples 1.5 s apart are slower than 1 Hz: 0.34 g derives nothing',
  );
  assert.deepEqual(
    perf([fix(0, 16), fix(1, 24), fix(2, 24)]),
    [{ type: 'hard_accel', start: 0, end: 1 }],
    'at 16 kph (the minimum) it counts',
  );
  assert.deepEqual(perf([fix(0, 7.9), fix(1, 15.9), fix(2, 15.9)]), [], 'below 16 kph it does not');
  // 72 kph is 20 m/s; 8°/s of turn is 0.285 g sideways, 7.5°/s 0.267 g (threshold 0.28 g).
  const turn = (degPerS: number) => [
    fix(0, 72, { bearing: 90 }),
    fix(1, 72, { bearing: 90 + degPerS }),
    fix(2, 72, { bearing: 90 + degPerS }),
  ];
  assert.deepEqual(perf(turn(8)), [{ type: 'hard_corner', start: 0, end: 1 }]);
  assert.deepEqual(perf(turn(7.5)), []);
});

test('utilization: crawling above 3 mph is driving time, at or below it idle time', () => {
  const split = (kph: number) =>
    only(run([engineRec(0, 'on'), ...drive(10, 620, kph)]).outputs, 'utilization').reduce(
      (a, o) => ({ driving: a.driving + o.row.drivingS, idle: a.idle + o.row.idleS }),
      { driving: 0, idle: 0 },
    );
  assert.deepEqual(
    split(6),
    { driving: 610, idle: 10 },
    '6 kph (3.7 mph): the engine start to the first fix is idle, then driving',
  );
  assert.deepEqual(split(mphToKph(3)), { driving: 0, idle: 620 });
  assert.deepEqual(
    only(run(drive(0, 300, mphToKph(5))).outputs, 'period'),
    [],
    '5 mph converted in floating point is not moving',
  );
  // The idle processor agrees: crawling at 6 kph is no idle event.
  assert.deepEqual(only(run([engineRec(0, 'on'), ...drive(10, 620, 6)]).outputs, 'idle'), []);
});

test('settings written for the older ranges still start: 8.05 kph is read as 5 mph', () => {
  const fail = (m: string) => new Error(m);
  const th = telemetryConfig(
    { MOVING_SPEED_KPH: '8.05', IDLE_SPEED_KPH: '8.05', DERIVED_MAX_SAMPLE_S: '2' },
    fail,
  ).thresholds;
  assert.deepEqual([th.movingSpeedKph, th.idleSpeedKph, th.derivedMaxSampleS], [8.04672, 8.04672, 2]);
  assert.throws(
    () => telemetryConfig({ MOVING_SPEED_KPH: '8.1' }, fail),
    /MOVING_SPEED_KPH must be between 1 and 8.05, got 8.1/,
  );
  assert.throws(
    () => telemetryConfig({ DERIVED_MAX_SAMPLE_S: '3' }, fail),
    /DERIVED_MAX_SAMPLE_S must be between 0.1 and 2, got 3/,
  );
});

test('a DM1 of no active DTCs stored before the parser marked it (key j1939:SA:0:0) still closes, on replay too', () => {
  const old = rec(20, 'fault', {
    data: {
      protocol: 'j1939',
      status: 'active',
      key: 'j1939:0:0:0',
      code: '0',
      spn: 0,
      fmi: 0,
      source_address: 0,
      is_sid: false,
      occurrence_count: null,
      lamps: null,
    },
  });
  assert.deepEqual(faultEvents([engineRec(0, 'on'), dtc(10), old, fix(30, 0)]), [
    ['opened', 10],
    ['closed', 20],
  ]);
});
