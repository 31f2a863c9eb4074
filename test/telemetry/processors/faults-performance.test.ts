/** Fault code lifecycle and driver performance events on synthetic sequences. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { drive, engineRec, fix, only, rec, run, sec } from './build.js';
import { classify } from '../../../src/telemetry/processors/performance.js';
import { DEFAULT_THRESHOLDS } from '../../../src/telemetry/thresholds.js';

const dtc = (
  s: number,
  status: 'active' | 'cleared' = 'active',
  key: string | null = 'j1939:0:100:1',
  oc: number | null = null,
) =>
  rec(s, 'fault', {
    data: {
      protocol: 'j1939',
      status,
      key,
      code: '100',
      spn: 100,
      fmi: 1,
      source_address: 0,
      is_sid: false,
      occurrence_count: oc,
      lamps: null,
    },
  });

const faultEvents = (records: ReturnType<typeof drive>) =>
  only(run(records).outputs, 'fault')
    .filter((o) => o.event)
    .map((o) => ({
      event: o.event,
      at: sec(o.event === 'opened' ? o.row.first : o.row.closedAt),
      cleared: o.row.cleared,
    }));

test('fault codes: table of lifecycles', () => {
  const cases: Array<{
    name: string;
    records: ReturnType<typeof drive>;
    want: Array<{ event: string | null; at: number | null; cleared: boolean }>;
  }> = [
    {
      name: 'opened at the first observation; closed 5 min of engine-on reporting after the last',
      records: [engineRec(0, 'on'), dtc(10), dtc(70), ...drive(80, 400, 50)],
      want: [
        { event: 'opened', at: 10, cleared: false },
        { event: 'closed', at: 70 + 300, cleared: false },
      ],
    },
    {
      name: 'still reported: stays open',
      records: [engineRec(0, 'on'), dtc(10), dtc(250), dtc(500), fix(700, 50)],
      want: [{ event: 'opened', at: 10, cleared: false }],
    },
    {
      name: 'an explicit clear closes it at once',
      records: [engineRec(0, 'on'), dtc(10), dtc(20, 'cleared')],
      want: [
        { event: 'opened', at: 10, cleared: false },
        { event: 'closed', at: 20, cleared: true },
      ],
    },
    {
      name: 'a clear without a code clears every open fault',
      records: [engineRec(0, 'on'), dtc(10), dtc(11, 'active', 'obd2:P0420'), dtc(30, 'cleared', null)],
      want: [
        { event: 'opened', at: 10, cleared: false },
        { event: 'opened', at: 11, cleared: false },
        { event: 'closed', at: 30, cleared: true },
        { event: 'closed', at: 30, cleared: true },
      ],
    },
    {
      name: 'nothing closes while the engine is off; the grace counts from the next engine start',
      records: [
        engineRec(0, 'on'),
        dtc(10),
        engineRec(20, 'off'),
        fix(2000, 0),
        engineRec(3000, 'on'),
        fix(3100, 0),
        fix(3400, 0),
      ],
      want: [
        { event: 'opened', at: 10, cleared: false },
        { event: 'closed', at: 3300, cleared: false },
      ],
    },
    {
      name: 'a code seen again after closing opens a new record',
      records: [engineRec(0, 'on'), dtc(10), fix(400, 0), dtc(500)],
      want: [
        { event: 'opened', at: 10, cleared: false },
        { event: 'closed', at: 310, cleared: false },
        { event: 'opened', at: 500, cleared: false },
      ],
    },
    {
      name: 'the ignition flag of fixes is the engine too: nothing closes while it is off',
      records: [
        fix(0, 0, { data: { ignition: true } }),
        dtc(1),
        fix(60, 0, { data: { ignition: false } }),
        fix(10_000, 0, { data: { ignition: true } }),
        fix(10_100, 0),
        fix(10_400, 0),
      ],
      want: [
        { event: 'opened', at: 1, cleared: false },
        { event: 'closed', at: 10_300, cleared: false },
      ],
    },
    {
      name: 'an ignition cycle without the code closes it at the engine stop, before 5 min of engine-on',
      records: [
        engineRec(0, 'on'),
        dtc(1),
        engineRec(30, 'off'),
        engineRec(40, 'on'),
        fix(100, 0),
        engineRec(200, 'off'),
      ],
      want: [
        { event: 'opened', at: 1, cleared: false },
        { event: 'closed', at: 200, cleared: false },
      ],
    },
    {
      name: 'the cycle in which the code was seen does not close it',
      records: [engineRec(0, 'on'), dtc(1), engineRec(30, 'off'), fix(60, 0)],
      want: [{ event: 'opened', at: 1, cleared: false }],
    },
    {
      name: 'a data gap is not engine-on reporting: the grace starts again after it',
      records: [engineRec(0, 'on'), dtc(1), fix(10, 0), fix(3600, 0), fix(3700, 0), fix(3910, 0)],
      want: [
        { event: 'opened', at: 1, cleared: false },
        { event: 'closed', at: 3900, cleared: false },
      ],
    },
  ];
  for (const c of cases) assert.deepEqual(faultEvents(c.records), c.want, c.name);
});

test('fault counts: observations and the largest occurrence count', () => {
  const rows = only(
    run([
      engineRec(0, 'on'),
      dtc(10, 'active', 'j1939:0:100:1', 2),
      dtc(20, 'active', 'j1939:0:100:1', 5),
      dtc(30, 'active', 'j1939:0:100:1', 3),
    ]).outputs,
    'fault',
  );
  const last = rows[rows.length - 1].row;
  assert.equal(last.observations, 3);
  assert.equal(last.occurrenceCount, 5);
  assert.equal(sec(last.first), 10);
  assert.equal(sec(last.last), 30);
  assert.equal(last.closedAt, null);
});

test('harsh event classification: thresholds and the dominant type', () => {
  const env = { th: DEFAULT_THRESHOLDS, geofences: [] };
  const cases: Array<[number | null, number | null, string | null]> = [
    [-0.3, null, 'hard_brake'],
    [-0.29, null, null],
    [0.22, null, 'hard_accel'],
    [0.21, 0, null],
    [null, 0.28, 'hard_corner'],
    [null, -0.5, 'hard_corner'],
    [-0.31, 0.5, 'hard_corner'],
    [-0.6, 0.3, 'hard_brake'],
  ];
  for (const [lg, la, want] of cases) assert.equal(classify(lg, la, env)?.type ?? null, want, `${lg} / ${la}`);
});

const perf = (records: ReturnType<typeof drive>) =>
  only(run(records).outputs, 'performance').map((o) => ({
    type: o.row.type,
    start: sec(o.row.start),
    end: sec(o.row.end),
  }));

test('driver performance events: accelerometer, derived samples and speeding', () => {
  const accel = (s: number, longG: number, speed: number, latG: number | null = null) =>
    rec(s, 'acceleration', {
      speedKph: speed,
      lat: 39.8,
      lon: -89.6,
      data: { longitudinal_g: longG, lateral_g: latG, duration_ms: 1500, end_speed_kph: speed - 20 },
    });
  const oneHz = (speeds: number[], from = 0) => speeds.map((v, i) => fix(from + i, v));
  const cases: Array<{
    name: string;
    records: ReturnType<typeof drive>;
    want: Array<{ type: string; start: number; end: number }>;
  }> = [
    {
      name: 'accelerometer hard brake',
      records: [accel(5, -0.45, 70)],
      want: [{ type: 'hard_brake', start: 5, end: 6.5 }],
    },
    { name: 'below the minimum speed nothing counts', records: [accel(5, -0.9, 12)], want: [] },
    { name: 'under the threshold nothing counts', records: [accel(5, -0.2, 70)], want: [] },
    {
      name: 'derived from 1 Hz speeds: one event per excursion (90 → 54 kph in 3 s at 12 kph/s)',
      records: oneHz([90, 90, 78, 66, 54, 54, 54]),
      want: [{ type: 'hard_brake', start: 1, end: 4 }],
    },
    { name: 'samples 10 s apart derive nothing', records: [fix(0, 90), fix(10, 20)], want: [] },
    {
      name: 'a derived hard brake under way when the first accelerometer record arrives is kept',
      records: [...oneHz([100, 85, 70]), accel(3, 0.05, 70)],
      want: [{ type: 'hard_brake', start: 0, end: 2 }],
    },
    {
      name: 'derived hard acceleration',
      records: oneHz([20, 20, 30, 30]),
      want: [{ type: 'hard_accel', start: 1, end: 2 }],
    },
    {
      name: 'a vehicle with an accelerometer gets no derived events',
      records: [accel(0, 0.05, 50), ...oneHz([90, 90, 70, 50], 1)],
      want: [],
    },
    {
      name: 'speeding above 75 mph for 90 s is an event from the 60th second on, ending at the first fix at or below the limit',
      records: [...drive(0, 100, 100), ...drive(110, 200, 125), fix(210, 110)],
      want: [
        { type: 'speeding', start: 110, end: 170 },
        { type: 'speeding', start: 110, end: 210 },
      ],
    },
    { name: 'speeding for 30 s is not an event', records: [...drive(0, 30, 125), fix(40, 100)], want: [] },
    {
      name: 'a gap ends speeding at the last fix before it',
      records: [...drive(0, 100, 125), fix(1000, 125), fix(1010, 90)],
      want: [
        { type: 'speeding', start: 0, end: 60 },
        { type: 'speeding', start: 0, end: 100 },
      ],
    },
  ];
  for (const c of cases) assert.deepEqual(perf(c.records), c.want, c.name);
});

test('a derived hard brake carries its peak, speeds and samples', () => {
  const [e] = only(
    run([
      fix(0, 90, { bearing: 10 }),
      fix(1, 78, { bearing: 10 }),
      fix(2, 60, { bearing: 12 }),
      fix(3, 60, { bearing: 12 }),
    ]).outputs,
    'performance',
  ).map((o) => o.row);
  assert.equal(e.type, 'hard_brake');
  assert.equal(e.startSpeedKph, 90);
  assert.equal(e.endSpeedKph, 60);
  assert.ok(Math.abs(e.peakG! - -18 / 35.30394) < 1e-9, String(e.peakG));
  assert.deepEqual(e.samples.speed_kph, [90, 78, 60]);
});
