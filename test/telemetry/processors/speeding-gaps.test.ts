/**
 * Speeding across stretches without fixes (docs/telemetry.md, driver performance): the data-gap
 * threshold shared by every processor (`TELEMETRY_GAP_S`, 600 s by default) decides. An interval up to
 * it is continuous — the speed holds until the next fix, which ends the event with its time and speed;
 * a longer one ends the event at the last fix before it, with that fix's time and speed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { drive, fix, only, run, sec } from './build.js';
import { DEFAULT_THRESHOLDS, type Thresholds } from '../../../src/telemetry/thresholds.js';

const speeding = (records: ReturnType<typeof drive>, th: Partial<Thresholds> = {}) =>
  only(run(records, th).outputs, 'performance').map((o) => ({
    start: sec(o.row.start),
    end: sec(o.row.end),
    endKph: o.row.endSpeedKph,
    maxKph: o.row.maxSpeedKph,
  }));

test('the gap threshold is the shared TELEMETRY_GAP_S (600 s by default)', () => {
  assert.equal(DEFAULT_THRESHOLDS.gapS, 600);
});

test('speeding, then the next fix exactly TELEMETRY_GAP_S later: continuous, the event ends at that fix', () => {
  assert.deepEqual(speeding([...drive(0, 100, 125), fix(700, 0)]), [
    { start: 0, end: 60, endKph: 125, maxKph: 125 },
    { start: 0, end: 700, endKph: 0, maxKph: 125 },
  ]);
});

test('speeding, then the next fix just over TELEMETRY_GAP_S later: the event ends at the last fix before the gap', () => {
  const want = [
    { start: 0, end: 60, endKph: 125, maxKph: 125 },
    { start: 0, end: 100, endKph: 125, maxKph: 125 },
  ];
  assert.deepEqual(speeding([...drive(0, 100, 125), fix(700.001, 0)]), want);
  assert.deepEqual(speeding([...drive(0, 100, 125), fix(701, 0)]), want);
  // Still over the limit after the gap: the old event ends before it; the new excursion starts at that fix.
  assert.deepEqual(speeding([...drive(0, 100, 125), ...drive(701, 771, 130), fix(781, 100)]), [
    ...want,
    { start: 701, end: 761, endKph: 130, maxKph: 130 },
    { start: 701, end: 781, endKph: 100, maxKph: 130 },
  ]);
});

test('a gap does not make up the minimum duration: 50 s over, then a gap, is no event', () => {
  assert.deepEqual(speeding([...drive(0, 50, 125), fix(650.001, 0)]), []);
  // Up to the threshold it is continuous, so the interval counts toward SPEEDING_MIN_S.
  assert.deepEqual(speeding([...drive(0, 50, 125), fix(650, 0)]), [{ start: 0, end: 650, endKph: 0, maxKph: 125 }]);
});

test('the threshold follows the setting: 80 s at 130 kph, then 75 s without fixes, then a stop', () => {
  // Fixes at 130 kph from 0 s to 80 s (13:25:36–13:26:56), the next at 0 kph at 155 s (13:28:11).
  const records = [...drive(0, 80, 130), fix(155, 0)];
  assert.deepEqual(
    speeding(records),
    [
      { start: 0, end: 60, endKph: 130, maxKph: 130 },
      { start: 0, end: 155, endKph: 0, maxKph: 130 },
    ],
    '75 s is under the default 600 s: no gap',
  );
  assert.deepEqual(
    speeding(records, { gapS: 75 }),
    [
      { start: 0, end: 60, endKph: 130, maxKph: 130 },
      { start: 0, end: 155, endKph: 0, maxKph: 130 },
    ],
    'exactly the threshold: no gap',
  );
  assert.deepEqual(
    speeding(records, { gapS: 74 }),
    [
      { start: 0, end: 60, endKph: 130, maxKph: 130 },
      { start: 0, end: 80, endKph: 130, maxKph: 130 },
    ],
    'over the threshold: ends at the last fix, 80 s',
  );
});
