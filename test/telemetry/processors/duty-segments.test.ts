/**
 * Driving periods are the D, PC and YM segments (docs/reference/domain-rules.md §4.1, §7 D-10 (a)): a driver's status
 * event ends a standing period before the timeout, a PC/YM or driver change on the move splits it, and
 * an engine stop is not a status event.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { drive, engineRec, final, fix, loginRec, only, rec, run, sec, DEG_PER_KM, LON } from './build.js';

type Records = ReturnType<typeof drive>;
const lonAfter = (kph: number, s: number) => LON + ((kph * s) / 3600) * DEG_PER_KM;
const duty = (s: number, status: string) => rec(s, 'duty_status', { data: { status, driver_id: 42 } });
const logout = (s: number) => rec(s, 'driver', { data: { action: 'logout' } });
/** 80 kph from 0 to 600 s, then standing from 610 s to `until` s. */
const driveThenStand = (until = 1100) => [...drive(0, 600, 80), ...drive(610, until, 0, { lon0: lonAfter(80, 600) })];
const withAt = (records: Records, ...extra: Records) => [...records, ...extra].sort((a, b) => a.t - b.t);

const periods = (records: Records) =>
  final(only(run(records).outputs, 'period').map((o) => o.row)).map((p) => ({
    start: sec(p.start),
    end: sec(p.end),
    type: p.type,
    driver: p.driverId,
  }));

test('a status event while standing ends the period there; driving status does not', () => {
  const cases: Array<{ name: string; records: Records; want: ReturnType<typeof periods> }> = [
    {
      name: 'on duty 5 s after the stop',
      records: withAt(driveThenStand(), duty(615, 'on_duty')),
      want: [{ start: 0, end: 615, type: 'driving', driver: null }],
    },
    {
      name: 'off duty one second before the timeout',
      records: withAt(driveThenStand(), duty(969, 'off_duty')),
      want: [{ start: 0, end: 969, type: 'driving', driver: null }],
    },
    {
      name: 'a driving status confirms D: the timeout still ends it',
      records: withAt(driveThenStand(), duty(615, 'driving')),
      want: [{ start: 0, end: 970, type: 'driving', driver: null }],
    },
    {
      name: 'a status event after the timeout changes nothing',
      records: withAt(driveThenStand(), duty(975, 'on_duty')),
      want: [{ start: 0, end: 970, type: 'driving', driver: null }],
    },
    {
      name: 'a logout while standing',
      records: withAt(driveThenStand(), loginRec(-1, 42), logout(700)),
      want: [{ start: 0, end: 700, type: 'driving', driver: 42 }],
    },
  ];
  for (const c of cases) assert.deepEqual(periods(c.records), c.want, c.name);
});

test('a PC/YM or driver change on the move splits the period at that instant', () => {
  const cases: Array<{ name: string; records: Records; want: ReturnType<typeof periods> }> = [
    {
      name: 'personal conveyance set while moving',
      records: withAt(drive(0, 900, 80), duty(305, 'personal_conveyance')),
      want: [
        { start: 0, end: 305, type: 'driving', driver: null },
        { start: 305, end: null, type: 'personal_conveyance', driver: null },
      ],
    },
    {
      name: 'a yard move cleared while moving',
      records: withAt(drive(0, 900, 30), duty(-1, 'yard_move'), duty(400, 'on_duty')),
      want: [
        { start: 0, end: 400, type: 'yard_move', driver: null },
        { start: 400, end: null, type: 'driving', driver: null },
      ],
    },
    {
      name: 'a driver logs in on an unidentified drive',
      records: withAt(drive(0, 900, 80), loginRec(305, 42)),
      want: [
        { start: 0, end: 305, type: 'driving', driver: null },
        { start: 305, end: null, type: 'driving', driver: 42 },
      ],
    },
    {
      name: 'on duty while moving is not a change of segment',
      records: withAt(drive(0, 900, 80), duty(305, 'on_duty')),
      want: [{ start: 0, end: null, type: 'driving', driver: null }],
    },
  ];
  for (const c of cases) assert.deepEqual(periods(c.records), c.want, c.name);
});

test('an engine stop ends the period at stop + timeout, corrected by what comes before that end', () => {
  const stand = (from: number, to: number) => drive(from, to, 0, { lon0: lonAfter(80, 600) });
  const cases: Array<{ name: string; records: Records; want: ReturnType<typeof periods> }> = [
    {
      name: 'stopped at 610 s, engine off at 700 s, nothing after: ends at 970 s',
      records: [...drive(0, 600, 80), fix(610, 0, { lon: lonAfter(80, 600) }), engineRec(700, 'off')],
      want: [{ start: 0, end: 970, type: 'driving', driver: null }],
    },
    {
      name: 'engine off while still moving: the engine stop is the stop',
      records: [...drive(0, 600, 80), engineRec(601, 'off')],
      want: [{ start: 0, end: 961, type: 'driving', driver: null }],
    },
    {
      name: 'off duty after the engine stop, before the timeout: ends there',
      records: [
        ...drive(0, 600, 80),
        fix(610, 0, { lon: lonAfter(80, 600) }),
        engineRec(700, 'off'),
        duty(800, 'off_duty'),
      ],
      want: [{ start: 0, end: 800, type: 'driving', driver: null }],
    },
    {
      name: 'moving again before the timeout: the same period goes on',
      records: [
        ...drive(0, 600, 80),
        ...stand(610, 690),
        engineRec(700, 'off'),
        engineRec(850, 'on'),
        ...drive(900, 1200, 80, { lon0: lonAfter(80, 600) }),
      ],
      want: [{ start: 0, end: null, type: 'driving', driver: null }],
    },
    {
      name: 'moving again after the timeout: a new period',
      records: [
        ...drive(0, 600, 80),
        ...stand(610, 690),
        engineRec(700, 'off'),
        engineRec(960, 'on'),
        ...drive(980, 1200, 80, { lon0: lonAfter(80, 600) }),
      ],
      want: [
        { start: 0, end: 970, type: 'driving', driver: null },
        { start: 980, end: null, type: 'driving', driver: null },
      ],
    },
  ];
  for (const c of cases) assert.deepEqual(periods(c.records), c.want, c.name);
});

test('a period reopened after an engine stop keeps its distance and loses its destination until it ends again', () => {
  const records = [
    ...drive(0, 600, 60, { km0: 1000 }),
    fix(610, 0, { lon: lonAfter(60, 600), odometerKm: 1010, description: 'Stop' }),
    engineRec(700, 'off'),
    engineRec(800, 'on'),
    ...drive(810, 1410, 60, { km0: 1010, lon0: lonAfter(60, 600) }),
  ];
  const [p] = final(only(run(records).outputs, 'period').map((o) => o.row));
  assert.equal(p.end, null);
  assert.equal(p.destination, null);
  assert.equal(p.startKm, 1000);
  const closed = final(
    only(
      run([
        ...records,
        fix(1420, 0, { lon: lonAfter(60, 1200), odometerKm: 1020, description: 'End' }),
        engineRec(1430, 'off'),
      ]).outputs,
      'period',
    ).map((o) => o.row),
  );
  assert.deepEqual(
    closed.map((r) => [sec(r.start), sec(r.end), r.distanceKm, r.destination]),
    [[0, 1420 + 360, 20, 'End']],
  );
});

test('a status event finds the period as a fix would: ended across a gap, or at stop + timeout', () => {
  const cases: Array<{ name: string; records: Records; want: ReturnType<typeof periods> }> = [
    {
      name: 'moving, an hour without data, then a logout: ended at the last fix, nothing split',
      records: [
        loginRec(-1, 42),
        ...drive(0, 600, 80),
        logout(4000),
        ...drive(4010, 4100, 80, { lon0: lonAfter(80, 600) }),
      ],
      want: [
        { start: 0, end: 600, type: 'driving', driver: 42 },
        { start: 4010, end: null, type: 'driving', driver: null },
      ],
    },
    {
      name: 'personal conveyance set after a gap: no period of it before the next movement',
      records: [
        ...drive(0, 600, 80),
        duty(4000, 'personal_conveyance'),
        ...drive(4010, 4100, 80, { lon0: lonAfter(80, 600) }),
      ],
      want: [
        { start: 0, end: 600, type: 'driving', driver: null },
        { start: 4010, end: null, type: 'personal_conveyance', driver: null },
      ],
    },
    {
      name: 'stopped at 610 s, no fix until on duty at 1100 s: ended at 970 s',
      records: [
        ...drive(0, 600, 80),
        fix(610, 0, { lon: lonAfter(80, 600) }),
        fix(900, 0, { lon: lonAfter(80, 600) }),
        duty(1100, 'on_duty'),
      ],
      want: [{ start: 0, end: 970, type: 'driving', driver: null }],
    },
  ];
  for (const c of cases) {
    const got = periods(c.records);
    assert.deepEqual(got, c.want, c.name);
    for (const p of got) assert.ok(p.end === null || p.end >= p.start!, `${c.name}: ends before it starts`);
  }
});

test("an engine stop's period that cannot go on ends where the next movement starts: no overlap", () => {
  const cases: Array<{ name: string; records: Records; want: ReturnType<typeof periods> }> = [
    {
      name: 'personal conveyance ended by the power cycle',
      records: [
        duty(-1, 'personal_conveyance'),
        ...drive(0, 600, 80),
        fix(610, 0, { lon: lonAfter(80, 600) }),
        engineRec(700, 'off'),
        engineRec(790, 'on'),
        ...drive(800, 900, 80, { lon0: lonAfter(80, 600) }),
      ],
      want: [
        { start: 0, end: 800, type: 'personal_conveyance', driver: null },
        { start: 800, end: null, type: 'driving', driver: null },
      ],
    },
    {
      name: 'a yard move cleared by a driving status while the engine was off',
      records: [
        duty(-1, 'yard_move'),
        ...drive(0, 600, 20),
        fix(610, 0, { lon: lonAfter(20, 600) }),
        engineRec(700, 'off'),
        duty(750, 'driving'),
        engineRec(790, 'on'),
        ...drive(800, 900, 80, { lon0: lonAfter(20, 600) }),
      ],
      want: [
        { start: 0, end: 800, type: 'yard_move', driver: null },
        { start: 800, end: null, type: 'driving', driver: null },
      ],
    },
  ];
  for (const c of cases) assert.deepEqual(periods(c.records), c.want, c.name);
  // A data gap shorter than the timeout (TELEMETRY_GAP_S 60): moving again after it starts a new period, and the old one ends there.
  const th = { gapS: 60 };
  const rows = final(
    only(
      run(
        [
          ...drive(0, 600, 80),
          engineRec(601, 'off'),
          engineRec(690, 'on'),
          ...drive(700, 800, 80, { lon0: lonAfter(80, 600) }),
        ],
        th,
      ).outputs,
      'period',
    ).map((o) => o.row),
  );
  assert.deepEqual(
    rows.map((p) => [sec(p.start), sec(p.end)]),
    [
      [0, 700],
      [700, null],
    ],
  );
});
