/** PTO idling (docs/reference/domain-rules.md §4.3, §7 D-3): flagged on the idle event, counted apart in utilization. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { drive, engineRec, fix, only, run, sec } from './build.js';

const idles = (records: ReturnType<typeof drive>) =>
  only(run(records).outputs, 'idle').map((o) => ({ start: sec(o.row.start), end: sec(o.row.end), pto: o.row.pto }));
const util = (records: ReturnType<typeof drive>) =>
  only(run(records).outputs, 'utilization').reduce(
    (a, o) => ({ idle: a.idle + o.row.idleS, pto: a.pto + o.row.ptoIdleS }),
    { idle: 0, pto: 0 },
  );
const ptoFix = (s: number, on: boolean) => fix(s, 0, { data: { pto: on } });

test('an idle event is flagged when the PTO was engaged at any time during it', () => {
  assert.deepEqual(idles([engineRec(0, 'on'), ...drive(10, 400, 0), fix(410, 50)]), [
    { start: 0, end: 410, pto: false },
  ]);
  assert.deepEqual(
    idles([
      engineRec(0, 'on'),
      ...drive(10, 200, 0),
      ptoFix(210, true),
      ...drive(220, 300, 0),
      ptoFix(310, false),
      ...drive(320, 400, 0),
      fix(410, 50),
    ]),
    [{ start: 0, end: 410, pto: true }],
  );
  // Engaged with the engine start record; an engine stop disengages it: the next idle is not PTO.
  assert.deepEqual(
    idles([
      engineRec(0, 'on', { data: { state: 'on', pto: true } }),
      ...drive(10, 400, 0),
      engineRec(410, 'off'),
      engineRec(500, 'on'),
      ...drive(510, 900, 0),
      fix(910, 50),
    ]),
    [
      { start: 0, end: 410, pto: true },
      { start: 500, end: 910, pto: false },
    ],
  );
});

test('PTO engaged by the fix that ends the idling (driving off with the drum turning) does not flag it', () => {
  assert.deepEqual(
    idles([engineRec(0, 'on'), ...drive(10, 400, 0), fix(410, 50, { data: { pto: true } }), fix(420, 50)]),
    [{ start: 0, end: 410, pto: false }],
  );
});

test('utilization counts the idle time with PTO engaged apart, as a part of idle time', () => {
  const u = util([
    engineRec(0, 'on'),
    ...drive(10, 100, 0),
    ptoFix(110, true),
    ...drive(120, 300, 0),
    ptoFix(310, false),
    ...drive(320, 400, 0),
    fix(410, 50),
  ]);
  assert.deepEqual(u, { idle: 410, pto: 200 });
});
