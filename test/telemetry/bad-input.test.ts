/**
 * The device API against input that once slipped through: times past the range of dates, impossible
 * calendar dates, inspection and form entry records of the wrong shape, a seq used twice in a batch,
 * re-sent logins and logouts; and what a logout or a late login does to the current driver.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../helper.js';
import { assertError } from '../http/fixtures.js';
import { createInspectionReport } from '../../src/domain/inspections/create.js';
import { createForm, recordFormEntry } from '../../src/domain/dispatch/forms.js';
import { at, engine, login, post, rig, send, settle, track, DAY, type Rig } from './fixtures.js';

const statuses = (res: any) => res.results.map((x: any) => [x.index, x.seq, x.status, x.error_message ?? null]);

eachDialect('device ingestion: bad input', (dialect) => {
  const getApp = useApp(dialect, { TELEMETRY_REORDER_WINDOW_S: '0', TELEMETRY_SWEEP_MS: '0' });
  let t: TestApp;
  let r: Rig;
  before(async () => {
    t = await getApp();
    r = await rig(t);
  });

  const fixAt = (seq: number, s: number) => ({
    seq,
    type: 'location',
    time: at(s),
    lat: 39.8,
    lon: -89.6,
    speed_kph: 0,
  });
  const storedSeqs = async (deviceId: number) =>
    (
      await t.db.kysely
        .selectFrom('telemetry_records')
        .select('seq')
        .where('device_id', '=', deviceId)
        .orderBy('seq')
        .execute()
    ).map((x) => Number(x.seq));

  test("times past the range of dates and impossible calendar dates are that record's rejection, not a 500", async () => {
    const v = await rig(t);
    const res = await post(t, v.device.device_token, {
      records: [
        { ...fixAt(1, 0), time: 8_700_000_000_000_000 },
        { ...fixAt(2, 0), time: 1e20 },
        { ...fixAt(3, 0), time: -8.7e15 },
        { ...fixAt(4, 0), time: '2026-02-30T12:00:00Z' },
        { ...fixAt(5, 0), time: `${DAY}T24:00:00Z` },
        fixAt(6, 10),
      ],
    });
    assert.equal(res.status, 200);
    assert.deepEqual(statuses(res.body), [
      [0, 1, 'rejected', 'time 8700000000000000 is in the future (more than 300 s ahead of the server clock)'],
      [1, 2, 'rejected', 'time 100000000000000000000 is in the future (more than 300 s ahead of the server clock)'],
      // The accepted age stops at how long raw records are kept (RETENTION_RAW_DAYS, 184 by default).
      [2, 3, 'rejected', 'time -8700000000000000 is older than 184 days'],
      [3, 4, 'rejected', 'time is not a valid datetime ("2026-02-30T12:00:00Z")'],
      [4, 5, 'rejected', `time is not a valid datetime ("${DAY}T24:00:00Z")`],
      [5, 6, 'accepted', null],
    ]);
    assert.deepEqual(await storedSeqs(v.device.id), [6]);
  });

  test('inspection and form entry records of the wrong shape are rejected one by one; nothing else is stored twice or lost', async () => {
    const v = await rig(t);
    const insp = (seq: number, fields: Record<string, unknown>) => ({
      seq,
      type: 'inspection',
      time: at(20),
      driver_id: v.driver.id,
      ...fields,
    });
    const res = await post(t, v.device.device_token, {
      records: [
        fixAt(10, 0),
        insp(11, { defects: 'x' }),
        insp(12, { defects: [null] }),
        insp(13, { defects: [{ area: 'Brakes' }] }),
        insp(14, { trailer_nums: 'T1' }),
        insp(15, { external_ids: [null] }),
        insp(16, { location: { a: 1 } }),
        insp(17, { log_id: 'abc' }),
        insp(18, { log_id: 99_999 }),
        insp(19, { inspection_type: 'mid_trip' }),
        { seq: 20, type: 'form_entry', time: at(20), driver_id: v.driver.id, form_id: 'f-1', entry: [] },
        { seq: 21, type: 'form_entry', time: at(20), driver_id: v.driver.id, entry: {} },
        insp(22, { inspection_type: 'pre_trip', defects: [{ area: 'Brakes', category: 'Air leak' }] }),
      ],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(statuses(res.body), [
      [0, 10, 'accepted', null],
      [1, 11, 'rejected', 'defects must be an array'],
      [2, 12, 'rejected', 'defects[0] must be an object'],
      [3, 13, 'rejected', 'defects[0].category is required'],
      [4, 14, 'rejected', 'trailer_nums must be an array'],
      [5, 15, 'rejected', 'external_ids[0] must be an object'],
      [6, 16, 'rejected', 'location must be a string'],
      [7, 17, 'rejected', 'log_id must be an integer'],
      [8, 18, 'rejected', `log_id names no log of driver ${v.driver.id} (99999)`],
      [9, 19, 'rejected', 'inspection_type must be one of: pre_trip, post_trip, other'],
      [10, 20, 'rejected', 'entry must be an object'],
      [11, 21, 'rejected', 'form_id is required'],
      [12, 22, 'accepted', null],
    ]);
    assert.deepEqual(await storedSeqs(v.device.id), [10, 22]);
    const reports = await t.db.kysely
      .selectFrom('inspection_reports')
      .select(['log_id', 'defect_count'])
      .where('vehicle_id', '=', v.vehicle.id)
      .execute();
    assert.equal(reports.length, 1);
    assert.equal(reports[0].defect_count, 1);
    assert.notEqual(reports[0].log_id, 99_999);
  });

  test('a seq used twice in one batch: `duplicate` only when the first record was stored', async () => {
    const v = await rig(t);
    const other = await t.newCompany(`Elsewhere ${dialect}`);
    const stranger = (await rig(t, other)).driver;
    const res = await post(t, v.device.device_token, {
      records: [
        { seq: 51, type: 'driver', time: at(0), action: 'login', driver_id: stranger.id },
        fixAt(51, 1),
        fixAt(52, 2),
        fixAt(52, 3),
        { seq: 53, type: 'form_entry', time: at(4), driver_id: v.driver.id, form_id: 'no-such-form' },
        fixAt(53, 5),
      ],
    });
    assert.deepEqual(statuses(res.body), [
      [0, 51, 'rejected', `driver_id ${stranger.id} is not a driver of this company`],
      [1, 51, 'accepted', null],
      [2, 52, 'accepted', null],
      [3, 52, 'duplicate', null],
      [4, 53, 'rejected', 'form_id names no form of this company ("no-such-form")'],
      [5, 53, 'rejected', 'seq 53 was already used by the record at index 4 of this batch, which was rejected'],
    ]);
    assert.deepEqual(await storedSeqs(v.device.id), [51, 52]);
    // What was rejected was not stored: sent again on its own, it is accepted.
    assert.deepEqual(statuses((await post(t, v.device.device_token, { records: [fixAt(53, 5)] })).body), [
      [0, 53, 'accepted', null],
    ]);
  });

  test('a re-sent login or logout changes nothing: the first version wins, for who was driving too', async () => {
    const v = await rig(t);
    await send(t, v, [{ ...login(0, v.driver.id), seq: 60 }, fixAt(61, 10)]);
    const again = await send(t, v, [{ seq: 60, type: 'driver', time: at(0), action: 'logout' }, fixAt(62, 20)]);
    assert.deepEqual(statuses(again), [
      [0, 60, 'duplicate', null],
      [1, 62, 'accepted', null],
    ]);
    const rows = await t.db.kysely
      .selectFrom('telemetry_records')
      .select(['seq', 'driver_id'])
      .where('device_id', '=', v.device.id)
      .where('type', '=', 'location')
      .orderBy('seq')
      .execute();
    assert.deepEqual(
      rows.map((x) => [Number(x.seq), x.driver_id]),
      [
        [61, v.driver.id],
        [62, v.driver.id],
      ],
    );
  });

  test('an empty device name is a 400 naming the field', async () => {
    assertError(
      await post(t, r.device.device_token, { device: '', records: [fixAt(1, 0)] }),
      400,
      'device must be the identifier of the sending device, or left out; got an empty string',
    );
  });

  test('the current driver follows logins and logouts that come after the last fix', async () => {
    const v = await rig(t);
    const current = async () => {
      const list = await t.call({ method: 'GET', url: `/v1/vehicle_locations?vehicle_ids=${v.vehicle.id}` });
      assert.equal(list.status, 200);
      return list.body.vehicles[0].vehicle.current_driver?.id ?? null;
    };
    await send(t, v, [engine(0, 'on'), ...track({ fromS: 5, toS: 60, kph: 50 })]);
    assert.equal(await current(), null);
    // The truck is parked: the login comes after its last fix, and no fix follows.
    await send(t, v, [login(70, v.driver.id)]);
    assert.equal(await current(), v.driver.id);
    await send(t, v, [
      ...track({ fromS: 80, toS: 120, kph: 50 }),
      engine(130, 'off'),
      { type: 'driver', time: at(135), action: 'logout' },
    ]);
    await settle(t);
    assert.equal(await current(), null, 'logged out: no driver (the vehicle has no assigned driver)');
    const drivers = await t.call({ method: 'GET', url: `/v1/driver_locations?driver_ids=${v.driver.id}` });
    assert.equal(drivers.status, 200);
    assert.equal(drivers.body.users[0].user.current_vehicle, null);
    // A logout older than the newest fix arrives late: the fixes after it had no driver after all.
    await send(t, v, [login(140, v.driver.id), ...track({ fromS: 150, toS: 170, kph: 50 })]);
    assert.equal(await current(), v.driver.id);
    await send(t, v, [{ type: 'driver', time: at(145), action: 'logout' }]);
    assert.equal(await current(), null);
  });

  test('history: an impossible date names the date parameter', async () => {
    for (const date of ['2026-13-01', '2026-02-30']) {
      assertError(
        await t.call({ method: 'GET', url: `/v1/vehicle_locations/${r.vehicle.id}?date=${date}` }),
        400,
        `date is not a valid date (${date})`,
      );
    }
  });
});

eachDialect('device ingestion: inspection reports and form entries', (dialect) => {
  const getApp = useApp(dialect, { TELEMETRY_REORDER_WINDOW_S: '0', TELEMETRY_SWEEP_MS: '0' });
  let t: TestApp;
  before(async () => {
    t = await getApp();
  });

  const entriesOf = (driverId: number) =>
    t.db.kysely
      .selectFrom('form_entries')
      .select(['id', 'entry'])
      .where('driver_id', '=', driverId)
      .orderBy('id')
      .execute();
  const recordData = async (deviceId: number, seq: number) =>
    JSON.parse(
      (
        await t.db.kysely
          .selectFrom('telemetry_records')
          .select('data')
          .where('device_id', '=', deviceId)
          .where('seq', '=', seq)
          .executeTakeFirstOrThrow()
      ).data!,
    );

  test('a form entry from a device is created once: a re-send is a duplicate, and after a crash between the entry and its record the entry is found again', async () => {
    const v = await rig(t);
    const form = await createForm(
      t.db,
      { companyId: t.company.id },
      { name: `Fuel stop ${dialect}`, fields: [{ name: 'gallons', label: 'Gallons', type: 'number', required: true }] },
    );
    const rec = (seq: number, s: number) => ({
      seq,
      type: 'form_entry',
      time: at(s),
      driver_id: v.driver.id,
      form_id: form.id,
      entry: { gallons: 80 + seq },
    });
    const first = await post(t, v.device.device_token, { records: [rec(1, 0)] });
    assert.deepEqual(statuses(first.body), [[0, 1, 'accepted', null]]);
    const again = await post(t, v.device.device_token, { records: [rec(1, 0)] });
    assert.deepEqual(statuses(again.body), [[0, 1, 'duplicate', null]]);
    const [one] = await entriesOf(v.driver.id);
    assert.deepEqual((await recordData(v.device.id, 1)).form_entry_id, one.id);
    // The crash: the entry of seq 2 was created, its record never stored, the batch never answered.
    const orphan = await recordFormEntry(
      t.db,
      { companyId: t.company.id },
      {
        form_id: form.id,
        driver_id: v.driver.id,
        vehicle_id: v.vehicle.id,
        entry: { gallons: 82 },
        submitted_at: at(10),
      },
    );
    const resent = await post(t, v.device.device_token, { records: [rec(2, 10)] });
    assert.deepEqual(statuses(resent.body), [[0, 2, 'accepted', null]]);
    const entries = await entriesOf(v.driver.id);
    assert.deepEqual(
      entries.map((e) => e.id),
      [one.id, orphan.id],
    );
    assert.equal((await recordData(v.device.id, 2)).form_entry_id, orphan.id);
    // Another entry of the same form by the same driver at the same instant, with other answers: a new entry.
    const other = await post(t, v.device.device_token, { records: [{ ...rec(3, 10), entry: { gallons: 99 } }] });
    assert.deepEqual(statuses(other.body), [[0, 3, 'accepted', null]]);
    const all = await entriesOf(v.driver.id);
    assert.equal(all.length, 3);
    assert.equal((await recordData(v.device.id, 3)).form_entry_id, all[2].id);
    assert.deepEqual(JSON.parse(all[2].entry), { gallons: 99 });
  });

  test('an inspection report from a device is created once, found again by its external id after a crash', async () => {
    const v = await rig(t);
    const rec = (seq: number, s: number) => ({
      seq,
      type: 'inspection',
      time: at(s),
      driver_id: v.driver.id,
      inspection_type: 'pre_trip',
      defects: [{ area: 'tractor', category: 'Tires' }],
    });
    const reportsOf = async () =>
      (
        await t.db.kysely
          .selectFrom('inspection_reports')
          .select('id')
          .where('vehicle_id', '=', v.vehicle.id)
          .orderBy('id')
          .execute()
      ).map((x) => x.id);
    assert.deepEqual(statuses((await post(t, v.device.device_token, { records: [rec(1, 0)] })).body), [
      [0, 1, 'accepted', null],
    ]);
    assert.deepEqual(statuses((await post(t, v.device.device_token, { records: [rec(1, 0)] })).body), [
      [0, 1, 'duplicate', null],
    ]);
    const [first] = await reportsOf();
    const found = await t.call({
      method: 'GET',
      url: `/v1/inspection_reports/lookup_by_external_id?external_id=${v.device.identifier}:1&integration_name=fleet_device`,
    });
    assert.equal(found.status, 200, JSON.stringify(found.body));
    assert.equal(found.body.inspection_report.id, first);
    // The crash: the report of seq 2 was created, its record never stored.
    const orphan = await createInspectionReport(
      t.db,
      { companyId: t.company.id },
      {
        driver_id: v.driver.id,
        vehicle_id: v.vehicle.id,
        time: at(10),
        external_ids: [{ external_id: `${v.device.identifier}:2`, integration_name: 'fleet_device' }],
      },
    );
    assert.deepEqual(statuses((await post(t, v.device.device_token, { records: [rec(2, 10)] })).body), [
      [0, 2, 'accepted', null],
    ]);
    assert.deepEqual(await reportsOf(), [first, orphan.id]);
    assert.equal((await recordData(v.device.id, 2)).inspection_report_id, orphan.id);
  });
});
