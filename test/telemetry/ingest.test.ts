/** The device API: credentials, per-record results, idempotent re-sends, late and out-of-order records. */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../helper.js';
import { assertError } from '../http/fixtures.js';
import { provisionDevice, revokeDevice } from '../../src/domain/devices/service.js';
import { at, engine, login, post, rig, send, settle, track, DAY, type Rig } from './fixtures.js';

eachDialect('device ingestion', (dialect) => {
  const getApp = useApp(dialect, { TELEMETRY_REORDER_WINDOW_S: '600', TELEMETRY_SWEEP_MS: '0' });
  let t: TestApp;
  let r: Rig;
  before(async () => {
    t = await getApp();
    r = await rig(t);
  });

  test('credentials: missing 401, unknown 401, revoked 403, another device of the company 403, a foreign or unknown device 404', async () => {
    const body = { records: [{ seq: 1, type: 'location', time: at(0), lat: 39.8, lon: -89.6 }] };
    assertError(await post(t, null, body), 401, /device credential required/);
    assertError(await post(t, 'fd_nope', body), 401, 'invalid device credential');
    const spare = await rig(t);
    await revokeDevice(t.db, { companyId: t.company.id }, spare.device.id);
    assertError(
      await post(t, spare.device.device_token, body),
      403,
      `device ${spare.device.identifier} has been revoked; provision a new device for this vehicle`,
    );
    const mate = await rig(t);
    assertError(
      await post(t, r.device.device_token, { ...body, device: mate.device.identifier }),
      403,
      `this credential belongs to device ${r.device.identifier}, not ${mate.device.identifier}`,
    );
    const other = await t.newCompany('Other Co');
    const theirs = await rig(t, other);
    assertError(
      await post(t, r.device.device_token, { ...body, device: theirs.device.identifier }),
      404,
      `device ${theirs.device.identifier} not found`,
    );
    assertError(await post(t, r.device.device_token, { ...body, device: 'NO-SUCH' }), 404, 'device NO-SUCH not found');
    // Its own identifier is fine; nothing was stored by the refused requests.
    const ok = await post(t, r.device.device_token, { ...body, device: r.device.identifier });
    assert.equal(ok.status, 200);
    const n = await t.db.kysely.selectFrom('telemetry_records').select('id').execute();
    assert.equal(n.length, 1);
  });

  test('malformed batches are a 400 for the whole request', async () => {
    assertError(await post(t, r.device.device_token, { records: [] }), 400, 'records must have at least 1 item');
    assertError(await post(t, r.device.device_token, {}), 400, 'records is required');
    assertError(await post(t, r.device.device_token, { records: 'x' }), 400, 'records must be an array');
  });

  test('bad records are rejected one by one with a reason; the rest of the batch is stored', async () => {
    const other = await t.newCompany('Third Co');
    const foreignDriver = (await rig(t, other)).driver;
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const { body: res } = await post(t, r.device.device_token, {
      records: [
        { seq: 100, type: 'location', time: at(10), lat: 39.8, lon: -89.6, speed_kph: 50 },
        { seq: 101, type: 'location', time: at(20), lat: 91, lon: -89.6 },
        { seq: 102, type: 'location', time: future, lat: 39.8, lon: -89.6 },
        { type: 'location', time: at(30), lat: 39.8, lon: -89.6 },
        { seq: 104, type: 'teleport', time: at(40) },
        { seq: 105, type: 'location', time: 'yesterday', lat: 39.8, lon: -89.6 },
        { seq: 106, type: 'driver', time: at(50), action: 'login', driver_id: foreignDriver.id },
        { seq: 107, type: 'fault', time: at(60), protocol: 'obd2', code: 'X1234' },
        { seq: 108, type: 'location', time: at(70), lat: 0, lon: 0 },
        'not an object',
        { seq: 100, type: 'location', time: at(10), lat: 39.8, lon: -89.6 },
        { seq: 111, type: 'fault', time: at(80), protocol: 'j1939', spn: 100, fmi: 40 },
      ],
    });
    assert.deepEqual(
      res.results.map((x: any) => [x.index, x.seq, x.status, x.error_message ?? null]),
      [
        [0, 100, 'accepted', null],
        [1, 101, 'rejected', 'lat must be between -90 and 90, got 91'],
        [
          2,
          102,
          'rejected',
          `time ${new Date(future).toISOString()} is in the future (more than 300 s ahead of the server clock)`,
        ],
        [3, null, 'rejected', 'seq is required'],
        [
          4,
          104,
          'rejected',
          'type must be one of: location, engine, driver, fault, acceleration, power, duty_status, exception, remark, certification, malfunction, inspection, form_entry',
        ],
        [
          5,
          105,
          'rejected',
          'time must be an ISO-8601 datetime with a zone, e.g. 2026-03-01T10:00:00Z, got "yesterday"',
        ],
        [6, 106, 'rejected', `driver_id ${foreignDriver.id} is not a driver of this company`],
        [
          7,
          107,
          'rejected',
          'code must be an OBD-II code such as P0420 (letter P, C, B or U, a digit 0–3, then 3 hex digits), got "X1234"',
        ],
        [8, 108, 'rejected', 'lat 0, lon 0 is not a position (a device without a GPS fix must leave lat and lon out)'],
        [9, null, 'rejected', 'record must be a JSON object'],
        [10, 100, 'duplicate', null],
        [11, 111, 'rejected', 'fmi must be between 0 and 31, got 40'],
      ],
    );
    assert.deepEqual([res.accepted, res.duplicates, res.rejected], [1, 1, 10]);
  });

  test('re-sending a batch is harmless: every record is a duplicate and nothing is stored twice', async () => {
    const v = await rig(t);
    const records = [engine(0, 'on'), login(1, v.driver.id), ...track({ fromS: 10, toS: 100, kph: 60 })].map(
      (x, i) => ({ ...x, seq: 1000 + i }),
    );
    const events = async () =>
      (
        await t.db.kysely
          .selectFrom('domain_events')
          .select('action')
          .where('subject_id', '=', String(v.vehicle.id))
          .execute()
      ).map((e) => e.action);
    const first = await post(t, v.device.device_token, { records });
    assert.equal(first.body.accepted, records.length);
    const announced = await events();
    const again = await post(t, v.device.device_token, { records });
    assert.deepEqual([again.body.accepted, again.body.duplicates], [0, records.length]);
    assert.ok(again.body.results.every((x: any) => x.status === 'duplicate'));
    const rows = await t.db.kysely
      .selectFrom('telemetry_records')
      .select('seq')
      .where('device_id', '=', v.device.id)
      .execute();
    assert.equal(rows.length, records.length);
    assert.deepEqual(await events(), announced, 'the re-send announced nothing');
  });

  test('out-of-order records within the window are processed in fix-time order; older ones are late', async () => {
    const v = await rig(t);
    // Engine on, then fixes; the batch with the earliest fixes arrives last, within the 600 s window.
    const early = track({ fromS: 0, toS: 200, kph: 0 });
    const later = track({ fromS: 210, toS: 800, kph: 0 });
    await send(t, v, [engine(-5, 'on'), ...later]);
    await send(t, v, early);
    await settle(t);
    const idle = await t.db.kysely
      .selectFrom('idle_events')
      .selectAll()
      .where('vehicle_id', '=', v.vehicle.id)
      .execute();
    assert.equal(idle.length, 0, 'still idling: no event yet');
    const state = await t.db.kysely
      .selectFrom('telemetry_state')
      .selectAll()
      .where('vehicle_id', '=', v.vehicle.id)
      .executeTakeFirstOrThrow();
    assert.equal(state.horizon, new Date(Date.parse(at(800))).toISOString());
    // A record older than the horizon is stored (history shows it) but flagged late.
    const late = await send(t, v, [{ type: 'location', time: at(100.5), lat: 39.8, lon: -89.65, speed_kph: 0 }]);
    assert.deepEqual(late.results[0], { index: 0, seq: v.seq, status: 'accepted', late: true });
    await send(t, v, [engine(900, 'off')]);
    await settle(t);
    const [e] = await t.db.kysely
      .selectFrom('idle_events')
      .selectAll()
      .where('vehicle_id', '=', v.vehicle.id)
      .execute();
    assert.equal(e.start_time, new Date(Date.parse(at(-5))).toISOString());
    assert.equal(e.end_type, 'engine_stop');
    const hist = await t.call({
      method: 'GET',
      url: `/v1/vehicle_locations/${v.vehicle.id}?date=${DAY}`,
      headers: { 'x-time-zone': 'UTC' },
    });
    assert.equal(hist.status, 200);
    assert.ok(
      hist.body.vehicle_locations.some((p: any) => p.vehicle_location.located_at === at(100.5).slice(0, 19) + 'Z'),
    );
  });

  test('an asset gateway stores asset locations and refuses other record types', async () => {
    const asset = (await t.call({ method: 'POST', url: '/v1/assets', payload: { name: `Trailer ${dialect}` } })).body
      .asset;
    const gw = await provisionDevice(
      t.db,
      { companyId: t.company.id },
      { identifier: `GW-${dialect}-x`, assetId: asset.id },
    );
    const res = await post(t, gw.device_token, {
      records: [
        { seq: 1, type: 'location', time: at(0), lat: 41.25, lon: -95.99, speed_kph: 0, battery_v: 12.4 },
        { seq: 2, type: 'engine', time: at(1), state: 'on' },
      ],
    });
    assert.deepEqual(
      res.body.results.map((x: any) => x.status),
      ['accepted', 'rejected'],
    );
    assert.equal(res.body.results[1].error_message, 'an asset gateway sends location records only, not engine');
    const list = await t.call({ method: 'GET', url: `/v1/asset_locations?asset_ids=${asset.id}` });
    const loc = list.body.asset_locations[0].asset_location.current_location;
    assert.equal(loc.description, '2.6 mi W of Omaha, NE');
    assert.equal(loc.battery_voltage, 12.4);
    assert.equal(loc.located_at, at(0).slice(0, 19) + 'Z');
  });
});
