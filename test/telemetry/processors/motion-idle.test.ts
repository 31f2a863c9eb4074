/** Driving periods and idle events on synthetic sequences: boundaries, timeouts, gaps, engine stops. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { drive, engineRec, final, fix, loginRec, only, rec, run, sec, DEG_PER_KM, LON } from './build.js';

const periods = (records: ReturnType<typeof drive>, th = {}) =>
  final(only(run(records, th).outputs, 'period').map((o) => o.row)).map((p) => ({
    start: sec(p.start),
    end: sec(p.end),
  }));

test('driving periods: table of motion sequences', () => {
  const lonAfter = (kph: number, s: number) => LON + ((kph * s) / 3600) * DEG_PER_KM;
  const cases: Array<{
    name: string;
    records: ReturnType<typeof drive>;
    want: Array<{ start: number; end: number | null }>;
  }> = [
    {
      name: 'stop longer than 6 min ends the period at stop + 360 s',
      records: [...drive(0, 600, 80), ...drive(610, 1100, 0, { lon0: lonAfter(80, 600) })],
      want: [{ start: 0, end: 610 + 360 }],
    },
    {
      name: 'a stop of 4 min does not split the period',
      records: [
        ...drive(0, 300, 80),
        ...drive(310, 550, 0, { lon0: lonAfter(80, 300) }),
        ...drive(560, 900, 80, { lon0: lonAfter(80, 300) }),
      ],
      want: [{ start: 0, end: null }],
    },
    {
      name: 'exactly the timeout ends it (boundary inclusive)',
      records: [...drive(0, 100, 80), ...drive(110, 470, 0, { lon0: lonAfter(80, 100) })],
      want: [{ start: 0, end: 470 }],
    },
    {
      name: 'one second short of the timeout keeps it open',
      records: [...drive(0, 100, 80), fix(110, 0), fix(469, 0)],
      want: [{ start: 0, end: null }],
    },
    {
      name: 'speed at exactly 5 mph (8.04672 kph) is not moving',
      records: drive(0, 300, 8.04672),
      want: [],
    },
    {
      name: 'just above 5 mph is moving',
      records: drive(0, 300, 8.047),
      want: [{ start: 0, end: null }],
    },
    {
      name: 'a data gap over 10 min ends the period at the last fix; driving after it is a new period',
      records: [...drive(0, 300, 80), ...drive(1000, 1300, 80, { lon0: lonAfter(80, 1000) })],
      want: [
        { start: 0, end: 300 },
        { start: 1000, end: null },
      ],
    },
    {
      name: 'engine off while stopped is no status event: the period still ends at stop + 360 s (D-10 (a))',
      records: [...drive(0, 300, 80), fix(310, 0, { lon: lonAfter(80, 300) }), engineRec(400, 'off')],
      want: [{ start: 0, end: 310 + 360 }],
    },
    {
      name: 'fixes without speed move by their displacement',
      records: drive(0, 300, 80).map((r) => ({ ...r, speedKph: null })),
      want: [{ start: 10, end: null }],
    },
  ];
  for (const c of cases) assert.deepEqual(periods(c.records), c.want, c.name);
});

test('driving period fields: odometer distance, origin/destination, driver, type, source', () => {
  const records = [
    loginRec(0, 42),
    rec(1, 'duty_status', { data: { status: 'personal_conveyance', driver_id: 42 } }),
    ...drive(10, 610, 60, { km0: 1000 }).map((r, i) => ({ ...r, description: i === 0 ? 'A' : 'B' })),
    fix(620, 0, { lon: LON + 10 * DEG_PER_KM, odometerKm: 1010, description: 'Destination' }),
    engineRec(700, 'off'),
  ];
  const [p] = final(only(run(records).outputs, 'period').map((o) => o.row));
  assert.equal(p.driverId, 42);
  assert.equal(p.type, 'personal_conveyance');
  assert.equal(p.source, 'eld');
  assert.equal(p.origin, 'A');
  assert.equal(p.destination, 'Destination');
  assert.equal(p.startKm, 1000);
  assert.equal(p.endKm, 1010);
  assert.equal(p.distanceKm, 10);
  assert.equal(sec(p.end), 620 + 360);
  // Without odometers the distance is the GPS path (10 km here).
  const gps = final(only(run(drive(0, 600, 60)).outputs, 'period').map((o) => o.row));
  assert.equal(gps[0].end, null);
  const closed = final(only(run([...drive(0, 600, 60), engineRec(601, 'off')]).outputs, 'period').map((o) => o.row));
  assert.ok(Math.abs(closed[0].distanceKm! - 10) < 0.05, String(closed[0].distanceKm));
});

const idleOf = (records: ReturnType<typeof drive>, th = {}) =>
  only(run(records, th).outputs, 'idle').map((o) => ({
    start: sec(o.row.start),
    end: sec(o.row.end),
    endType: o.row.endType,
  }));

test('idle events: table of engine-on standing sequences', () => {
  const cases: Array<{
    name: string;
    records: ReturnType<typeof drive>;
    want: Array<{ start: number; end: number; endType: string }>;
  }> = [
    {
      name: 'engine on, standing 6 min, then moving: one event from the engine start',
      records: [engineRec(0, 'on'), ...drive(10, 370, 0), ...drive(380, 500, 50)],
      want: [{ start: 0, end: 380, endType: 'vehicle_moving' }],
    },
    {
      name: 'standing 4 min is below the 5-min threshold: no event',
      records: [engineRec(0, 'on'), ...drive(10, 240, 0), ...drive(250, 400, 50)],
      want: [],
    },
    {
      name: 'exactly the threshold makes an event',
      records: [...drive(0, 100, 50), engineRec(0, 'on'), ...drive(110, 410, 0), ...drive(410, 500, 50)].sort(
        (a, b) => a.t - b.t,
      ),
      want: [{ start: 110, end: 410, endType: 'vehicle_moving' }],
    },
    {
      name: 'the engine stop ends it',
      records: [engineRec(0, 'on'), ...drive(10, 600, 0), engineRec(700, 'off')],
      want: [{ start: 0, end: 700, endType: 'engine_stop' }],
    },
    {
      name: 'a data gap ends it at the last record before the gap',
      records: [engineRec(0, 'on'), ...drive(10, 400, 0), ...drive(2000, 2100, 0)],
      want: [{ start: 0, end: 400, endType: 'data_gap' }],
    },
    {
      name: 'creeping at exactly 3 mph (4.828032 kph) is still idle; above it is moving',
      records: [engineRec(0, 'on'), ...drive(10, 400, 4.828032), fix(410, 4.829)],
      want: [{ start: 0, end: 410, endType: 'vehicle_moving' }],
    },
    {
      name: 'without engine information nothing is idle',
      records: [...drive(0, 900, 0), ...drive(910, 1000, 50)],
      want: [],
    },
  ];
  for (const c of cases) assert.deepEqual(idleOf(c.records), c.want, c.name);
});

test('idle event fuel, driver and position; idle time under the threshold still counts as utilization', () => {
  const records = [
    loginRec(0, 9),
    engineRec(1, 'on'),
    ...drive(10, 400, 0, { fuel0: 100, fuelPerS: 0.001 }),
    fix(410, 60, { fuelUsedL: 100.5 }),
  ];
  const { outputs } = run(records);
  const [e] = only(outputs, 'idle').map((o) => o.row);
  assert.equal(e.driverId, 9);
  assert.equal(e.fuelStartL, null); // the engine start carried no fuel counter
  assert.equal(e.lat, 39.8);
  assert.equal(e.fuelEndL, 100.5);
  const short = run([engineRec(0, 'on'), ...drive(10, 120, 0), fix(130, 60)]);
  const idleS = only(short.outputs, 'utilization').reduce((a, o) => a + o.row.idleS, 0);
  assert.equal(idleS, 130); // from the engine start to the first moving fix
  assert.equal(only(short.outputs, 'idle').length, 0);
});

test('idle event driver: a driver who logs in during a warm-up idle owns it; a driver set at the start stays', () => {
  const warmUp = run([engineRec(0, 'on'), ...drive(1, 4, 0), loginRec(5, 9), ...drive(10, 400, 0), fix(410, 60)]);
  assert.deepEqual(
    only(warmUp.outputs, 'idle').map((o) => [o.row.driverId, sec(o.row.start)]),
    [[9, 0]],
  );
  const nobody = run([engineRec(0, 'on'), ...drive(10, 400, 0), fix(410, 60)]);
  assert.deepEqual(
    only(nobody.outputs, 'idle').map((o) => o.row.driverId),
    [null],
  );
  const handover = run([
    loginRec(0, 7),
    engineRec(1, 'on'),
    ...drive(10, 200, 0),
    loginRec(205, 9),
    ...drive(210, 400, 0),
    fix(410, 60),
  ]);
  assert.deepEqual(
    only(handover.outputs, 'idle').map((o) => o.row.driverId),
    [7],
  );
});

test('fixes without speed: idling and utilization judge them by the distance from the previous fix, as driving periods do', () => {
  const parked = run([
    engineRec(0, 'on'),
    fix(1, 0),
    fix(100, 0),
    fix(200, null),
    fix(300, 0),
    fix(400, 0),
    engineRec(500, 'off'),
  ]);
  assert.deepEqual(
    only(parked.outputs, 'idle').map((o) => [sec(o.row.start), sec(o.row.end), o.row.endType]),
    [[0, 500, 'engine_stop']],
  );
  const phone = run([
    engineRec(0, 'on'),
    ...drive(10, 610, 80).map((r) => ({ ...r, speedKph: null })),
    engineRec(620, 'off'),
  ]);
  const used = only(phone.outputs, 'utilization').reduce(
    (a, o) => ({ driving: a.driving + o.row.drivingS, idle: a.idle + o.row.idleS }),
    { driving: 0, idle: 0 },
  );
  // The first fix has no speed to derive (nothing before it): 0–20 s count as idle, the rest as driving.
  assert.deepEqual(used, { driving: 600, idle: 20 });
  // Stopped by the engine stop while moving: stop + 360 s.
  assert.deepEqual(
    final(only(phone.outputs, 'period').map((o) => o.row)).map((p) => [sec(p.start), sec(p.end)]),
    [[20, 620 + 360]],
  );
});
