/**
 * Remarks, certifications and ELD malfunctions from devices (docs/device-protocol.md): each reaches
 * the driver's log whenever it arrives (in time, after an hour of newer fixes, a day late), shows in
 * `/v1/logs` (`remarks`, `driver_signed_at`, `form_and_manner_errors`), changes nothing when sent
 * again, survives a replay, and a bad one is rejected with the reason and leaves nothing behind.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../helper.js';
import { driver } from '../domain/hos/fixtures.js';
import { replayVehicle } from '../../src/telemetry/store/replay.js';
import { DEFAULT_THRESHOLDS } from '../../src/telemetry/thresholds.js';
import { at, DAY, login, rig, send, track, type Rig } from './fixtures.js';
import { duty } from './hos-fixtures.js';

const H = 3600;
const nextDay = new Date(Date.parse(`${DAY}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
/** The wire's time of `s` seconds after T0. */
const wire = (s: number) => `${at(s).slice(0, 19)}Z`;

const remark = (s: number, driverId: number, extra: Record<string, unknown> = {}) => ({
  type: 'remark',
  time: at(s),
  driver_id: driverId,
  ...extra,
});
const certify = (s: number, driverId: number, date: unknown = DAY) => ({
  type: 'certification',
  time: at(s),
  driver_id: driverId,
  date,
});
const malfunction = (s: number, extra: Record<string, unknown>) => ({ type: 'malfunction', time: at(s), ...extra });

eachDialect('remarks, certifications and malfunctions from devices', (dialect) => {
  const getApp = useApp(dialect, { TELEMETRY_SWEEP_MS: '0' });
  let t: TestApp;
  before(async () => {
    t = await getApp();
  });

  const logOf = async (driverId: number, date = DAY) => {
    const res = await t.call({ url: `/v1/logs?driver_ids[]=${driverId}&start_date=${date}&end_date=${date}` });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.logs[0].log;
  };
  /** The log records of a driver other than duty statuses, in the order of their instants. */
  const logged = (driverId: number) =>
    t.db.kysely
      .selectFrom('hos_events')
      .select([
        'id',
        'kind',
        'event_type',
        'event_code',
        'code',
        'record_origin',
        'notes',
        'location',
        'occurred_at',
        'sequence_id',
        'eld_device_id',
        'vehicle_id',
      ])
      .where('driver_id', '=', driverId)
      .where('kind', '!=', 'duty_status')
      .orderBy('occurred_at')
      .orderBy('id')
      .execute();
  const statuses = (body: any) => body.results.map((x: any) => [x.status, x.late ?? false]);
  /** A driver's working day: on duty, driving from hour 1 to hour 3, then off duty. */
  const workDay = (d: number) => [duty(0, d, 'on_duty'), duty(H, d, 'driving'), duty(3 * H, d, 'off_duty')];

  test('each record is in the log with its fields: remarks with their place, malfunctions by name, the certification signing the day', async () => {
    const r = await rig(t);
    const d = await driver(t);
    const records = [
      ...workDay(d.id),
      malfunction(1.5 * H, { driver_id: d.id, code: 'P', status: 'began', note: 'ELD unplugged from the port' }),
      remark(2 * H, d.id, { note: 'Loading at dock 4', lat: 39.8, lon: -89.6 }),
      malfunction(2.5 * H, { driver_id: d.id, code: 'P', status: 'cleared' }),
      malfunction(2.75 * H, { driver_id: d.id, code: '3', status: 'began' }),
      certify(9 * H, d.id),
    ].map((x) => ({ ...x, seq: ++r.seq }));
    const res = await send(t, r, records);
    assert.deepEqual(statuses(res), Array(8).fill(['accepted', false]));

    const rows = await logged(d.id);
    const seqOf = (i: number) => records[i]!.seq % 0x10000;
    const common = { eld_device_id: r.device.id, vehicle_id: r.vehicle.id };
    assert.deepEqual(
      rows.map(({ id: _id, ...x }) => x),
      [
        {
          kind: 'malfunction',
          event_type: 7,
          event_code: 1,
          code: 'P',
          record_origin: 1,
          notes: 'ELD unplugged from the port',
          location: null,
          occurred_at: at(1.5 * H),
          sequence_id: seqOf(3),
          ...common,
        },
        {
          kind: 'remark',
          event_type: 0,
          event_code: 0,
          code: null,
          record_origin: 2,
          notes: 'Loading at dock 4',
          location: '2.3 mi E of Springfield, IL',
          occurred_at: at(2 * H),
          sequence_id: seqOf(4),
          ...common,
        },
        {
          kind: 'malfunction_cleared',
          event_type: 7,
          event_code: 2,
          code: 'P',
          record_origin: 1,
          notes: null,
          location: null,
          occurred_at: at(2.5 * H),
          sequence_id: seqOf(5),
          ...common,
        },
        {
          kind: 'diagnostic',
          event_type: 7,
          event_code: 3,
          code: '3',
          record_origin: 1,
          notes: null,
          location: null,
          occurred_at: at(2.75 * H),
          sequence_id: seqOf(6),
          ...common,
        },
        {
          kind: 'certification',
          event_type: 4,
          event_code: 1,
          code: DAY,
          record_origin: 2,
          notes: null,
          location: null,
          occurred_at: at(9 * H),
          sequence_id: seqOf(7),
          ...common,
        },
      ],
    );
    const log = await logOf(d.id);
    assert.deepEqual(log.remarks, [
      {
        remark: {
          id: rows[0]!.id,
          time: wire(1.5 * H),
          notes: 'Malfunction P (power compliance) began: ELD unplugged from the port',
          location: null,
        },
      },
      {
        remark: {
          id: rows[1]!.id,
          time: wire(2 * H),
          notes: 'Loading at dock 4',
          location: '2.3 mi E of Springfield, IL',
        },
      },
      {
        remark: {
          id: rows[2]!.id,
          time: wire(2.5 * H),
          notes: 'Malfunction P (power compliance) cleared',
          location: null,
        },
      },
      {
        remark: {
          id: rows[3]!.id,
          time: wire(2.75 * H),
          notes: 'Data diagnostic 3 (missing required data elements) began',
          location: null,
        },
      },
    ]);
    assert.equal(log.driver_signed_at, wire(9 * H));
    assert.deepEqual(log.form_and_manner_errors, []);
  });

  test('late (after an hour of newer fixes, and a day late): in the log all the same; a re-send changes nothing; a late change asks for a new certification, which gets the next code', async () => {
    const r = await rig(t);
    const d = await driver(t);
    await send(t, r, [duty(0, d.id, 'on_duty'), duty(600, d.id, 'driving'), duty(1800, d.id, 'off_duty')]);
    await send(t, r, track({ fromS: 0, toS: H, everyS: 30, kph: 0 }));
    const hourLate = [
      remark(1200, d.id, { note: 'Fuel stop, Pilot #412' }),
      malfunction(900, { driver_id: d.id, code: 'E', status: 'began' }),
    ].map((x) => ({ ...x, seq: ++r.seq }));
    assert.deepEqual(statuses(await send(t, r, hourLate)), [
      ['accepted', true],
      ['accepted', true],
    ]);
    await send(t, r, track({ fromS: 37 * H, toS: 37 * H + 120, everyS: 60, kph: 0 }));
    const dayLate = [
      certify(9 * H, d.id),
      malfunction(2400, { driver_id: d.id, code: 'E', status: 'cleared', note: 'ECM link back' }),
    ].map((x) => ({ ...x, seq: ++r.seq }));
    assert.deepEqual(statuses(await send(t, r, dayLate)), [
      ['accepted', true],
      ['accepted', true],
    ]);
    const before = await logOf(d.id);
    assert.deepEqual(
      before.remarks.map(({ remark: x }: any) => [x.time, x.notes]),
      [
        [wire(900), 'Malfunction E (engine synchronization compliance) began'],
        [wire(1200), 'Fuel stop, Pilot #412'],
        [wire(2400), 'Malfunction E (engine synchronization compliance) cleared: ECM link back'],
      ],
    );
    assert.equal(before.driver_signed_at, wire(9 * H));
    assert.deepEqual(before.form_and_manner_errors, []);

    const rows = await logged(d.id);
    assert.deepEqual(statuses(await send(t, r, [...hourLate, ...dayLate])), Array(4).fill(['duplicate', false]));
    assert.deepEqual(await logged(d.id), rows);
    assert.deepEqual(await logOf(d.id), before);

    // A status of the certified day arrives later still: the log changed after it was certified.
    await send(t, r, [duty(3000, d.id, 'on_duty')]);
    const changed = await logOf(d.id);
    assert.equal(changed.driver_signed_at, wire(9 * H));
    assert.deepEqual(changed.form_and_manner_errors, [
      { form_and_manner_error: { type: 'log_not_certified', name: 'Log changed after certification' } },
    ]);
    // The driver certifies it again the next day (before the newest fixes: late): certified, the
    // second certification of the day.
    assert.deepEqual(statuses(await send(t, r, [certify(24 * H, d.id)])), [['accepted', true]]);
    const again = await logOf(d.id);
    assert.equal(again.driver_signed_at, `${nextDay}T14:00:00Z`);
    assert.deepEqual(again.form_and_manner_errors, []);
    assert.deepEqual(
      (await logged(d.id)).filter((x) => x.kind === 'certification').map((x) => [x.code, x.event_code]),
      [
        [DAY, 1],
        [DAY, 2],
      ],
    );
  });

  test('a malfunction naming no driver goes to the log of the driver logged in; with nobody logged in, to none until a replay finds the login', async () => {
    const r = await rig(t);
    const d = await driver(t);
    await send(t, r, [login(0, d.id), ...workDay(d.id), malfunction(1800, { code: 'L', status: 'began' })]);
    assert.deepEqual(
      (await logOf(d.id)).remarks.map(({ remark: x }: any) => [x.time, x.notes]),
      [[wire(1800), 'Malfunction L (positioning compliance) began']],
    );

    const alone = await rig(t);
    const d2 = await driver(t);
    await send(t, alone, workDay(d2.id));
    const res = await send(t, alone, [malfunction(1800, { code: '5', status: 'began' })]);
    assert.deepEqual(statuses(res), [['accepted', true]], 'stored (late: the statuses after it were processed)');
    assert.deepEqual((await logOf(d2.id)).remarks, []);
    // The login the device had not sent yet: a replay links the malfunction to the driver it names.
    await send(t, alone, [login(0, d2.id)]);
    assert.equal((await replayVehicle(t.db, t.company.id, alone.vehicle.id, null, DEFAULT_THRESHOLDS)).hosRecords, 1);
    assert.deepEqual(
      (await logOf(d2.id)).remarks.map(({ remark: x }: any) => [x.time, x.notes]),
      [[wire(1800), 'Data diagnostic 5 (unidentified driving records) began']],
    );
  });

  test('replay keeps them: nothing logged twice, and those missing from the log are brought back', async () => {
    const r = await rig(t);
    const d = await driver(t);
    await send(t, r, [
      ...workDay(d.id),
      remark(2 * H, d.id, { note: 'Loading at dock 4' }),
      malfunction(2.5 * H, { driver_id: d.id, code: 'T', status: 'began' }),
      certify(9 * H, d.id),
    ]);
    const replay = () => replayVehicle(t.db, t.company.id, r.vehicle.id, null, DEFAULT_THRESHOLDS);
    const before = await logOf(d.id);
    assert.equal((await replay()).hosRecords, 0);
    assert.deepEqual(await logOf(d.id), before);

    await t.db.kysely
      .deleteFrom('hos_events')
      .where('driver_id', '=', d.id)
      .where('kind', 'in', ['remark', 'malfunction', 'certification'])
      .execute();
    const lost = await logOf(d.id);
    assert.deepEqual([lost.remarks, lost.driver_signed_at], [[], null]);
    assert.equal((await replay()).hosRecords, 3);
    const back = await logOf(d.id);
    const noIds = (log: any) => log.remarks.map(({ remark: { id: _id, ...x } }: any) => x);
    assert.deepEqual(noIds(back), noIds(before));
    assert.deepEqual(noIds(back), [
      { time: wire(2 * H), notes: 'Loading at dock 4', location: null },
      { time: wire(2.5 * H), notes: 'Malfunction T (timing compliance) began', location: null },
    ]);
    assert.equal(back.driver_signed_at, wire(9 * H));
    assert.deepEqual(back.form_and_manner_errors, []);
    assert.equal((await replay()).hosRecords, 0);
  });

  test('bad records are rejected one by one with the reason, and leave nothing behind', async () => {
    const r: Rig = await rig(t);
    const d = await driver(t);
    const chicago = await driver(t, { time_zone: 'Central Time (US & Canada)' });
    const other = await t.newCompany('Elsewhere');
    const stranger = await driver(t, {}, other);
    const note = 'Loading at dock 4';
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ type: 'remark', time: at(100), note }, 'driver_id is required'],
      [remark(100, d.id), "note is required: the remark's text, 4 to 60 characters"],
      [remark(100, d.id, { note: 'abc' }), 'note must be 4 to 60 characters long, got "abc"'],
      [remark(100, d.id, { note: '  ab  ' }), 'note must be 4 to 60 characters long, got "  ab  "'],
      [remark(100, d.id, { note: 'x'.repeat(61) }), 'note must be at most 60 characters long'],
      [remark(100, d.id, { note: 42 }), 'note must be a string'],
      [remark(100, d.id, { note, lat: 91, lon: 0 }), 'lat must be between -90 and 90, got 91'],
      [remark(100, stranger.id, { note }), `driver_id ${stranger.id} is not a driver of this company`],
      [{ type: 'certification', time: at(100), date: DAY }, 'driver_id is required'],
      [certify(100, d.id, null), 'date is required: the log day certified, YYYY-MM-DD'],
      [certify(100, d.id, '2026-02-30'), 'date must be a log day as YYYY-MM-DD, got "2026-02-30"'],
      [certify(100, d.id, 20260302), 'date must be a log day as YYYY-MM-DD, got 20260302'],
      [certify(100, d.id, '0001-01-01'), 'date must be a date from 1970-01-01 to 2199-12-31 (got 0001-01-01)'],
      [certify(100, d.id, '1969-12-31'), 'date must be a date from 1970-01-01 to 2199-12-31 (got 1969-12-31)'],
      [
        certify(9 * H, d.id, nextDay),
        `date ${nextDay} has not begun at the certification's time ${at(9 * H)} (log day ${DAY} in UTC)`,
      ],
      // 00:00 UTC of the next day is still the evening of the test day in Chicago.
      [
        certify(10 * H, chicago.id, nextDay),
        `date ${nextDay} has not begun at the certification's time ${at(10 * H)} (log day ${DAY} in America/Chicago)`,
      ],
      [malfunction(100, { driver_id: d.id, status: 'began' }), 'code is required'],
      [
        malfunction(100, { driver_id: d.id, code: 'X', status: 'began' }),
        'code must be one of: P, E, T, L, R, S, O, 1, 2, 3, 4, 5, 6',
      ],
      [
        malfunction(100, { driver_id: d.id, code: 5, status: 'began' }),
        'code must be one of: P, E, T, L, R, S, O, 1, 2, 3, 4, 5, 6',
      ],
      [malfunction(100, { driver_id: d.id, code: 'P' }), 'status is required'],
      [malfunction(100, { driver_id: d.id, code: 'P', status: 'active' }), 'status must be one of: began, cleared'],
      [
        malfunction(100, { driver_id: d.id, code: 'P', status: 'began', note: 'ab' }),
        'note must be 4 to 60 characters long, got "ab"',
      ],
    ];
    const records = bad.map(([x]) => ({ ...x, seq: ++r.seq }));
    const good = { ...certify(10 * H, chicago.id, DAY), seq: ++r.seq };
    const res = await send(t, r, [...records, good]);
    assert.deepEqual(
      res.results.map((x: any) => [x.status, x.error_message ?? null]),
      [...bad.map(([, why]) => ['rejected', why]), ['accepted', null]],
    );
    // Sent again: refused again (nothing was stored under those seqs), the good one a duplicate.
    const again = await send(t, r, [...records, good]);
    assert.deepEqual(
      again.results.map((x: any) => x.status),
      [...bad.map(() => 'rejected'), 'duplicate'],
    );
    const stored = await t.db.kysely
      .selectFrom('telemetry_records')
      .select('seq')
      .where('device_id', '=', r.device.id)
      .orderBy('seq')
      .execute();
    assert.deepEqual(
      stored.map((x) => Number(x.seq)),
      [good.seq],
    );
    assert.deepEqual(
      (await logged(d.id)).map((x) => x.kind),
      [],
    );
    assert.deepEqual(
      (await logged(chicago.id)).map((x) => [x.kind, x.code, x.occurred_at]),
      [['certification', DAY, at(10 * H)]],
    );
  });
});
