/**
 * From ingestion to every telemetry endpoint: one vehicle-day sent through the device API (engine,
 * login, idling, a drive through a geofence, a fault raised and cleared, a hard brake, a stop, engine
 * off), then each endpoint's exact keys and values, range limits and tenancy.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp, type TestCompany } from '../helper.js';
import {
  assertError,
  assertKeySet,
  assertList,
  createUser,
  createVehicle,
  USER_SUMMARY_KEYS,
} from '../http/fixtures.js';
import { revokeDevice } from '../../src/domain/devices/service.js';
import { VEHICLE_SUMMARY_KEYS } from '../http/fleet-record-fixtures.js';
import { vehicleHistory, vehicleHistoryJson } from '../../src/telemetry/queries/locations.js';
import { historyTailsV1 } from '../../src/wire/history-json.js';
import { historyPointV1, historyPointV3 } from '../../src/wire/vehicle-location.js';
import { loadEmbeds } from '../../src/wire/embeds.js';
import {
  at,
  login,
  rig,
  send,
  settle,
  track,
  vehicleDay as day,
  DAY,
  DAY_LAT as LAT,
  DAY_LON0 as LON0,
  DEG_PER_KM,
  type Rig,
} from './fixtures.js';

const UTC = { 'x-time-zone': 'UTC' };
const w = (s: number) => `${at(s).slice(0, 19)}Z`;

eachDialect('telemetry endpoints', (dialect) => {
  const getApp = useApp(dialect, { TELEMETRY_REORDER_WINDOW_S: '0', TELEMETRY_SWEEP_MS: '0' });
  let t: TestApp;
  let r: Rig;
  let other: TestCompany;
  let fence: any;
  let located: number;

  before(async () => {
    t = await getApp();
    other = await t.newCompany('Other Co');
    r = await rig(t);
    const g = await t.call({
      method: 'POST',
      url: '/v1/geofences/circular',
      payload: { name: 'Yard', center: { lat: LAT, lon: LON0 + 10 * DEG_PER_KM }, radius_m: 1000 },
    });
    assert.equal(g.status, 201, JSON.stringify(g.body));
    fence = g.body.geofence;
    const records = day(r.driver.id);
    located = records.filter((x) => x.lat !== undefined && (x.type === 'location' || x.type === 'engine')).length;
    for (let i = 0; i < records.length; i += 100) await send(t, r, records.slice(i, i + 100));
    await settle(t);
  });

  test('/v1 and /v2 vehicle_locations: current location (v2 superset) and current driver', async () => {
    for (const v of ['v1', 'v2']) {
      const items = assertList(
        await t.call({ method: 'GET', url: `/${v}/vehicle_locations?vehicle_ids[]=${r.vehicle.id}` }),
        'vehicles',
        'vehicle',
      );
      assert.equal(items.length, 1);
      assertKeySet(items[0], [
        'id',
        'number',
        'year',
        'make',
        'model',
        'vin',
        'fuel_type',
        'current_location',
        'current_driver',
      ]);
      assert.equal(items[0].fuel_type, r.vehicle.fuel_type);
      const c = items[0].current_location;
      assertKeySet(c, [
        'id',
        'lat',
        'lon',
        'description',
        'located_at',
        'bearing',
        'speed',
        'engine_hours',
        'fuel',
        'odometer',
        'type',
        'true_odometer',
        'battery_voltage',
        'fuel_primary_remaining_percentage',
      ]);
      assert.match(c.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.equal(c.located_at, w(2190));
      assert.equal(c.type, 'vehicle_stopped');
      assert.equal(c.speed, 0);
      assert.equal(c.battery_voltage, 13.8);
      assert.equal(c.fuel_primary_remaining_percentage, 61);
      assert.equal(c.odometer, 639.9, '1029.75 km in miles, to 0.1 as in the history');
      assert.match(c.description, /^\d+\.\d mi [NESW]{1,2} of [A-Za-z .]+, IL$/);
      // The same point in the day's history, with the same values.
      const history = (
        await t.call({ method: 'GET', url: `/v1/vehicle_locations/${r.vehicle.id}?date=${DAY}`, headers: UTC })
      ).body.vehicle_locations;
      const same = history.map((p: any) => p.vehicle_location).find((p: any) => p.id === c.id);
      const { driver: _d, ...point } = same;
      assert.deepEqual(point, {
        id: c.id,
        located_at: c.located_at,
        lat: c.lat,
        lon: c.lon,
        bearing: c.bearing,
        engine_hours: c.engine_hours,
        type: c.type,
        description: c.description,
        speed: c.speed,
        odometer: c.odometer,
        fuel: c.fuel,
      });
      assert.equal(items[0].current_driver.id, r.driver.id);
      assertKeySet(items[0].current_driver, USER_SUMMARY_KEYS);
    }
  });

  test('/v3/vehicle_locations: kph, vehicle_state, city and state; no driver', async () => {
    const items = assertList(
      await t.call({ method: 'GET', url: `/v3/vehicle_locations?vehicle_id=${r.vehicle.id}` }),
      'vehicles',
      'vehicle',
    );
    assertKeySet(items[0], ['id', 'number', 'year', 'make', 'model', 'vin', 'current_location']);
    assertKeySet(items[0].current_location, [
      'lat',
      'lon',
      'bearing',
      'located_at',
      'kph',
      'vehicle_state',
      'current_location',
      'city',
      'state',
    ]);
    assert.equal(items[0].current_location.vehicle_state, 'off');
    assert.equal(items[0].current_location.state, 'IL');
  });

  test('/v3/vehicle_locations: an active vehicle with a live ELD or a known location, not one with neither', async () => {
    const listed = async (vehicleId: number) => {
      const res = await t.call({ method: 'GET', url: `/v3/vehicle_locations?vehicle_id=${vehicleId}` });
      return assertList(res, 'vehicles', 'vehicle').map((v: any) => [v.id, v.current_location === null]);
    };
    const eld = await rig(t); // a live ELD, nothing reported yet
    const revoked = await rig(t);
    await revokeDevice(t.db, { companyId: t.company.id }, revoked.device.id);
    const bare = await createVehicle(t, {});
    assert.deepEqual(await listed(r.vehicle.id), [[r.vehicle.id, false]]);
    assert.deepEqual(await listed(eld.vehicle.id), [[eld.vehicle.id, true]]);
    assert.deepEqual(await listed(revoked.vehicle.id), []);
    assert.deepEqual(await listed(bare.id), []);
  });

  test('/v1/vehicle_locations/:id?date=: every point of the day, unpaginated; errors', async () => {
    const res = await t.call({ method: 'GET', url: `/v1/vehicle_locations/${r.vehicle.id}?date=${DAY}`, headers: UTC });
    assert.deepEqual(Object.keys(res.body), ['vehicle_locations']);
    const pts = res.body.vehicle_locations.map((x: any) => x.vehicle_location);
    assert.equal(pts.length, located);
    assertKeySet(pts[0], [
      'id',
      'located_at',
      'lat',
      'lon',
      'bearing',
      'engine_hours',
      'type',
      'description',
      'speed',
      'odometer',
      'fuel',
      'driver',
    ]);
    assert.deepEqual([pts[0].type, pts[0].located_at, pts[0].driver], ['ignition_on', w(0), null]);
    assert.equal(pts[1].driver.id, r.driver.id);
    assert.equal(pts.at(-1).type, 'ignition_off');
    const moving = pts.find((p: any) => p.type === 'vehicle_moving');
    assert.equal(moving.speed, 55.9);
    assertError(await t.call({ method: 'GET', url: `/v1/vehicle_locations/${r.vehicle.id}` }), 400, 'date is required');
    assertError(
      await t.call({ method: 'GET', url: `/v1/vehicle_locations/${r.vehicle.id}?date=2026-02-30` }),
      400,
      'date is not a valid date (2026-02-30)',
    );
    assertError(
      await t.call({ method: 'GET', url: `/v1/vehicle_locations/${r.vehicle.id}?date=${DAY}`, as: other }),
      404,
      `vehicle ${r.vehicle.id} not found`,
    );
    const empty = await t.call({ method: 'GET', url: `/v1/vehicle_locations/${r.vehicle.id}?date=2020-01-01` });
    assert.deepEqual(empty.body, { vehicle_locations: [] });
  });

  test('the history written as text is exactly the documented mapping of every point', async () => {
    const { start, end } = {
      start: new Date(`${DAY}T00:00:00Z`),
      end: new Date(Date.parse(`${DAY}T00:00:00Z`) + 86_400_000),
    };
    const rows = await vehicleHistory(t.db, { companyId: t.company.id }, r.vehicle.id, start, end);
    const e = await loadEmbeds(t.db, t.company.id, {
      users: rows.map((x) => x.driver_id),
      devices: rows.map((x) => x.device_id),
    });
    const v1 = await t.call({ method: 'GET', url: `/v1/vehicle_locations/${r.vehicle.id}?date=${DAY}`, headers: UTC });
    assert.deepEqual(v1.body, { vehicle_locations: rows.map((x) => ({ vehicle_location: historyPointV1(x, e) })) });
    const v3 = await t.call({
      method: 'GET',
      url: `/v3/vehicle_locations/${r.vehicle.id}?start_date=${DAY}&end_date=${DAY}`,
      headers: UTC,
    });
    assert.deepEqual(v3.body, { vehicle_locations: rows.map((x) => ({ vehicle_location: historyPointV3(x, e) })) });
    assert.equal(v1.headers['content-type'], 'application/json; charset=utf-8');
    // Records without their stored text (stored before that column existed, or in a compacted week) are
    // rendered from their columns, to the same bytes: one such record, then all of them.
    const day = () => t.call({ method: 'GET', url: `/v1/vehicle_locations/${r.vehicle.id}?date=${DAY}`, headers: UTC });
    await t.db.kysely.updateTable('telemetry_records').set({ point_json: null }).where('id', '=', rows[3].id).execute();
    assert.equal((await day()).raw, v1.raw);
    await t.db.kysely
      .updateTable('telemetry_records')
      .set({ point_json: null })
      .where('vehicle_id', '=', r.vehicle.id)
      .execute();
    assert.equal((await day()).raw, v1.raw);
  });

  test("with X-Time-Zone the history text writes each point's time in that zone, the same instant, and nothing else differs", async () => {
    // The day in Arizona (UTC-7 all year) holds the test's afternoon (14:00Z is 07:00 there).
    const az = await t.call({
      method: 'GET',
      url: `/v1/vehicle_locations/${r.vehicle.id}?date=${DAY}`,
      headers: { 'x-time-zone': 'Arizona' },
    });
    const utc = await t.call({ method: 'GET', url: `/v1/vehicle_locations/${r.vehicle.id}?date=${DAY}`, headers: UTC });
    const points = (b: any) => b.vehicle_locations.map((p: any) => p.vehicle_location);
    assert.equal(points(az.body).length, points(utc.body).length);
    assert.ok(points(az.body).length > 100);
    points(az.body).forEach((p: any, k: number) => {
      const u = points(utc.body)[k];
      assert.equal(
        p.located_at,
        new Date(Date.parse(u.located_at) - 7 * 3_600_000).toISOString().slice(0, 19) + '-07:00',
      );
      assert.deepEqual({ ...p, located_at: u.located_at }, u);
    });
  });

  test('a history read while records of a new driver arrive stays valid JSON and covers what was stored when it began', async () => {
    const co = await t.newCompany('History Race Co'); // its own company: the lists below stay as they are
    const v = await rig(t, co);
    const records = day(v.driver.id);
    await send(t, v, records.slice(0, 30));
    const { start, end } = {
      start: new Date(`${DAY}T00:00:00Z`),
      end: new Date(Date.parse(`${DAY}T00:00:00Z`) + 86_400_000),
    };
    const before = await vehicleHistory(t.db, { companyId: co.id }, v.vehicle.id, start, end);
    const relief = await createUser(t, {}, co);
    let e: Awaited<ReturnType<typeof loadEmbeds>> | undefined;
    const body = await vehicleHistoryJson(t.db, { companyId: co.id }, v.vehicle.id, start, end, async (driverIds) => {
      // Stored while the read is under way: a login of another driver, then the rest of the day under him.
      await send(t, v, [login(405, relief.id), ...records.slice(30).filter((x) => x.type !== 'driver')]);
      e = await loadEmbeds(t.db, co.id, { users: driverIds });
      return historyTailsV1(driverIds, e);
    });
    const points = JSON.parse(String(body)).vehicle_locations.map((x: any) => x.vehicle_location);
    const after = await vehicleHistory(t.db, { companyId: co.id }, v.vehicle.id, start, end);
    assert.ok(before.length > 0 && before.length < after.length);
    assert.deepEqual(
      points,
      before.map((x) => historyPointV1(x, e!)),
    );
  });

  test('history points come in fix-time order when their records were stored out of order', async () => {
    const late = await rig(t);
    const records = day(late.driver.id).map((x, i) => ({ ...x, seq: i + 1 }));
    const batches = Array.from({ length: Math.ceil(records.length / 20) }, (_, b) =>
      records.slice(b * 20, b * 20 + 20),
    );
    for (const b of batches.reverse()) await send(t, late, b);
    const { start, end } = {
      start: new Date(`${DAY}T00:00:00Z`),
      end: new Date(Date.parse(`${DAY}T00:00:00Z`) + 86_400_000),
    };
    const rows = await vehicleHistory(t.db, { companyId: t.company.id }, late.vehicle.id, start, end);
    const e = await loadEmbeds(t.db, t.company.id, { users: rows.map((x) => x.driver_id) });
    assert.ok(rows.at(-1)!.id < rows[0].id, 'the last fixes were stored first');
    const v1 = await t.call({
      method: 'GET',
      url: `/v1/vehicle_locations/${late.vehicle.id}?date=${DAY}`,
      headers: UTC,
    });
    assert.equal(v1.body.vehicle_locations.length, located);
    assert.deepEqual(v1.body, { vehicle_locations: rows.map((x) => ({ vehicle_location: historyPointV1(x, e) })) });
  });

  test('a history around midday, where PostgreSQL reads the day in two halves: every point once, in order, with its driver', async () => {
    const noon = await rig(t);
    const relief = await createUser(t);
    // Fixes from 11:58:20 to 12:01:40 UTC (one exactly at 12:00:00), the first driver before 12:00:30 and
    // the relief after it, sent newest first.
    const records = [
      login(-7400, noon.driver.id),
      ...track({ fromS: -7300, toS: -7100, kph: 50 }),
      login(-7170, relief.id),
    ]
      .sort((a, b) => Date.parse(a.time as string) - Date.parse(b.time as string))
      .map((x, i) => ({ ...x, seq: i + 1 }));
    for (let b = records.length; b > 0; b -= 4) await send(t, noon, records.slice(Math.max(0, b - 4), b));
    const { start, end } = {
      start: new Date(`${DAY}T00:00:00Z`),
      end: new Date(Date.parse(`${DAY}T00:00:00Z`) + 86_400_000),
    };
    const rows = await vehicleHistory(t.db, { companyId: t.company.id }, noon.vehicle.id, start, end);
    assert.equal(rows.length, 21);
    assert.ok(rows.some((x) => x.fix_time === `${DAY}T12:00:00.000Z`));
    assert.deepEqual(new Set(rows.map((x) => x.driver_id)), new Set([noon.driver.id, relief.id]));
    const e = await loadEmbeds(t.db, t.company.id, { users: rows.map((x) => x.driver_id) });
    const v1 = await t.call({
      method: 'GET',
      url: `/v1/vehicle_locations/${noon.vehicle.id}?date=${DAY}`,
      headers: UTC,
    });
    assert.deepEqual(v1.body, { vehicle_locations: rows.map((x) => ({ vehicle_location: historyPointV1(x, e) })) });
  });

  test('/v3/vehicle_locations/:id: inclusive days, at most 3 months, every v3 key', async () => {
    const res = await t.call({
      method: 'GET',
      url: `/v3/vehicle_locations/${r.vehicle.id}?start_date=${DAY}&end_date=${DAY}&updated_after=2020-01-01`,
      headers: UTC,
    });
    const pts = res.body.vehicle_locations.map((x: any) => x.vehicle_location);
    assert.equal(pts.length, located);
    assertKeySet(pts[5], [
      'id',
      'located_at',
      'lat',
      'lon',
      'type',
      'description',
      'speed',
      'bearing',
      'battery_voltage',
      'odometer',
      'true_odometer',
      'engine_hours',
      'true_engine_hours',
      'fuel',
      'fuel_primary_remaining_percentage',
      'fuel_secondary_remaining_percentage',
      'veh_range',
      'hvb_state_of_charge',
      'hvb_lifetime_energy_output',
      'hvb_charge_status',
      'hvb_charge_source',
      'driver',
      'eld_device',
    ]);
    assert.deepEqual(pts[5].eld_device, { id: r.device.id, identifier: r.device.identifier, model: 'eld-1' });
    assertError(
      await t.call({
        method: 'GET',
        url: `/v3/vehicle_locations/${r.vehicle.id}?start_date=2026-01-01&end_date=2026-04-01`,
      }),
      400,
      'Date range cannot be greater than 3 months',
    );
    assert.equal(
      (
        await t.call({
          method: 'GET',
          url: `/v3/vehicle_locations/${r.vehicle.id}?start_date=2026-01-01&end_date=2026-03-31`,
        })
      ).status,
      200,
    );
    assertError(
      await t.call({ method: 'GET', url: `/v3/vehicle_locations/${r.vehicle.id}?start_date=2026-01-01` }),
      400,
      'end_date is required',
    );
  });

  test('/v1/driver_locations: the driver, where the vehicle is, and which vehicle', async () => {
    const items = assertList(
      await t.call({ method: 'GET', url: `/v1/driver_locations?driver_ids=${r.driver.id}` }),
      'users',
      'user',
    );
    assertKeySet(items[0], [...USER_SUMMARY_KEYS, 'current_location', 'current_vehicle']);
    assertKeySet(items[0].current_location, ['lat', 'lon', 'description', 'located_at']);
    assert.deepEqual(items[0].current_vehicle, {
      id: r.vehicle.id,
      number: r.vehicle.number,
      status: 'active',
      make: 'Freightliner',
      model: 'Cascadia',
    });
  });

  test('/v1/driving_periods: the drive, its keys in captured order, and the 30-day limit', async () => {
    const res = await t.call({ method: 'GET', url: `/v1/driving_periods?start_date=${DAY}&end_date=${DAY}` });
    const [p] = assertList(res, 'driving_periods', 'driving_period');
    assert.deepEqual(Object.keys(p), [
      'id',
      'start_time',
      'end_time',
      'status',
      'type',
      'annotation_status',
      'notes',
      'duration',
      'start_kilometers',
      'end_kilometers',
      'source',
      'driver',
      'vehicle',
      'origin',
      'origin_lat',
      'origin_lon',
      'destination_lat',
      'destination_lon',
      'destination',
      'distance',
      'start_hvb_state_of_charge',
      'end_hvb_state_of_charge',
      'start_hvb_lifetime_energy_output',
      'end_hvb_lifetime_energy_output',
    ]);
    assert.deepEqual(
      [p.start_time, p.end_time, p.status, p.type, p.source, p.duration],
      [w(410), w(1610 + 360), 'complete', 'driving', 'eld', 1560],
    );
    assert.deepEqual([p.start_kilometers, p.end_kilometers, p.distance], [1000, 1029.75, '18.5 mi']);
    assert.equal(p.driver.id, r.driver.id);
    assertKeySet(p.vehicle, VEHICLE_SUMMARY_KEYS);
    const start = new Date(Date.parse(`${DAY}T00:00:00Z`) - 30 * 86_400_000).toISOString().slice(0, 10);
    assert.equal(
      (await t.call({ method: 'GET', url: `/v1/driving_periods?start_date=${start}&end_date=${DAY}` })).status,
      200,
    );
    const tooFar = new Date(Date.parse(`${DAY}T00:00:00Z`) - 31 * 86_400_000).toISOString().slice(0, 10);
    assertError(
      await t.call({ method: 'GET', url: `/v1/driving_periods?start_date=${tooFar}&end_date=${DAY}` }),
      400,
      'Date range cannot be greater than 30 days',
    );
    assert.deepEqual(
      assertList(
        await t.call({ method: 'GET', url: `/v1/driving_periods?start_date=${DAY}&end_date=${DAY}`, as: other }),
        'driving_periods',
        'driving_period',
      ),
      [],
    );
  });

  test('/v1/idle_events: both idles, end_time ascending, with fuel and place', async () => {
    const items = assertList(
      await t.call({ method: 'GET', url: `/v1/idle_events?start_date=${DAY}&end_date=${DAY}`, headers: UTC }),
      'idle_events',
      'idle_event',
    );
    assert.equal(items.length, 2);
    assertKeySet(items[0], [
      'id',
      'start_time',
      'end_time',
      'veh_fuel_start',
      'veh_fuel_end',
      'lat',
      'lon',
      'city',
      'state',
      'rg_brg',
      'rg_km',
      'rg_match',
      'end_type',
      'location',
      'driver',
      'vehicle',
      'eld_device',
      'pto_active',
    ]);
    assert.deepEqual(
      items.map((i) => [i.start_time, i.end_time, i.end_type]),
      [
        [w(0), w(410), 'vehicle_moving'],
        [w(1610), w(2200), 'engine_stop'],
      ],
    );
    assert.equal(items[0].veh_fuel_start, Math.round((500 / 3.785411784) * 100) / 100);
    assert.equal(items[0].state, 'IL');
    assert.equal(typeof items[0].rg_match, 'boolean');
  });

  test('utilization: /v1 and /v2 vehicle_utilization and driver_utilization', async () => {
    for (const v of ['v1', 'v2']) {
      const [u] = assertList(
        await t.call({
          method: 'GET',
          url: `/${v}/vehicle_utilization?start_date=${DAY}&end_date=${DAY}&vehicle_ids=${r.vehicle.id}`,
          headers: UTC,
        }),
        'vehicle_utilizations',
        'vehicle_utilization',
      );
      assertKeySet(u, [
        'vehicle',
        'driving_fuel',
        'driving_time',
        'idle_fuel',
        'idle_time',
        'total_distance',
        'total_fuel',
        'utilization_percentage',
        'last_located_at',
        'message',
      ]);
      assert.deepEqual([u.driving_time, u.idle_time, u.total_distance], [1200, 1000, 18.5]);
      assert.equal(u.utilization_percentage, 54.55);
      const d = assertList(
        await t.call({
          method: 'GET',
          url: `/${v}/driver_utilization?start_date=${DAY}&end_date=${DAY}&driver_ids=${r.driver.id}`,
          headers: UTC,
        }),
        'driver_idle_rollups',
        'driver_idle_rollup',
      );
      assertKeySet(d[0], ['driver', 'utilization', 'driving_time', 'idle_time', 'driving_fuel', 'idle_fuel']);
      assert.deepEqual([d[0].driving_time, d[0].idle_time], [1200, 990]); // the first 10 s ran before the login
    }
    const quiet = await t.call({
      method: 'GET',
      url: '/v2/vehicle_utilization?start_date=2020-01-01&end_date=2020-01-02',
    });
    assert.equal(quiet.body.vehicle_utilizations[0].vehicle_utilization.message, 'No engine activity in this period');
  });

  test('/v1/fault_codes: opened and cleared, with updated_after', async () => {
    const [f] = assertList(await t.call({ method: 'GET', url: '/v1/fault_codes' }), 'fault_codes', 'fault_code');
    assertKeySet(f, [
      'id',
      'code',
      'code_label',
      'code_description',
      'source_address_label',
      'source_address_name',
      'source_address',
      'status',
      'first_observed_at',
      'last_observed_at',
      'type',
      'fmi',
      'fmi_description',
      'occurrence_count',
      'num_observations',
      'sum_num_observations',
      'is_sid',
      'dtc_status',
      'dtc_severity',
      'functional_grp_id',
      'ftb',
      'vehicle',
      'eld_device',
      'network',
    ]);
    assert.deepEqual(
      [
        f.code,
        f.code_label,
        f.code_description,
        f.source_address_name,
        f.status,
        f.dtc_status,
        f.dtc_severity,
        f.fmi_description,
      ],
      [
        '110',
        'SPN 110 FMI 0',
        'Engine Coolant Temperature',
        'Engine #1',
        'closed',
        'cleared',
        'warning',
        'Data valid but above normal range, most severe',
      ],
    );
    assert.equal(f.first_observed_at, w(500));
    assert.equal(f.vehicle.vin, r.vehicle.vin);
    const later = new Date(Date.now() + 60_000).toISOString();
    assert.deepEqual(
      assertList(
        await t.call({ method: 'GET', url: `/v1/fault_codes?updated_after=${encodeURIComponent(later)}` }),
        'fault_codes',
        'fault_code',
      ),
      [],
    );
  });

  test('/v1/driver_performance_events: the hard brake', async () => {
    const [e] = assertList(
      await t.call({
        method: 'GET',
        url: `/v1/driver_performance_events?event_types=hard_brake&start_date=${DAY}&end_date=${DAY}`,
        headers: UTC,
      }),
      'driver_performance_events',
      'driver_performance_event',
    );
    assertKeySet(e, [
      'id',
      'type',
      'start_time',
      'end_time',
      'duration',
      'start_speed',
      'end_speed',
      'start_bearing',
      'end_bearing',
      'acceleration',
      'lat',
      'lon',
      'location',
      'intensity',
      'coaching_status',
      'm_gps_lat',
      'm_gps_lon',
      'm_gps_heading',
      'm_gps_spd',
      'm_veh_spd',
      'm_veh_odo',
      'driver',
      'vehicle',
      'eld_device',
    ]);
    assert.deepEqual(
      [e.type, e.start_time, e.duration, e.start_speed, e.end_speed, e.intensity, e.coaching_status],
      ['hard_brake', w(1000), 2, 90, 60, '-15.9 kph/s', 'pending_review'],
    );
    assert.equal(e.driver.id, r.driver.id);
  });

  test('/v1/geofences/events: the pass through the yard with its duration', async () => {
    const [g] = assertList(
      await t.call({ method: 'GET', url: `/v1/geofences/events?geofence_ids=${fence.id}` }),
      'geofence_events',
      'geofence_event',
    );
    assertKeySet(g, [
      'id',
      'geofence_id',
      'start_time',
      'end_time',
      'duration',
      'vehicle',
      'start_driver',
      'end_driver',
    ]);
    // Entry at km 9 (410 + 360 s), exit at km 11 (410 + 440 s): the interpolated crossings.
    assert.ok(Math.abs(Date.parse(g.start_time) - Date.parse(at(770))) <= 1000, g.start_time);
    assert.ok(Math.abs(g.duration - 80) <= 1, String(g.duration));
    assert.equal(g.start_driver.id, r.driver.id);
  });

  // The location events are recorded only while a webhook listens (test/events/webhooks/telemetry-events.test.ts).
  test('every announced change is in the outbox', async () => {
    const rows = await t.db.kysely
      .selectFrom('domain_events')
      .select(['action', 'trigger'])
      .where('company_id', '=', t.company.id)
      .orderBy('id')
      .execute();
    const actions = rows
      .map((x) => `${x.action}${x.trigger ? `:${x.trigger}` : ''}`)
      .filter((a) => !a.startsWith('user_') && !a.startsWith('vehicle_upserted') && !a.startsWith('geofence'));
    for (const want of [
      'engine_toggle_event:on',
      'engine_toggle_event:off',
      'fault_code_opened',
      'fault_code_closed',
      'driver_performance_event_created',
      'vehicle_geofence_event:entered',
      'vehicle_geofence_event:exited',
    ]) {
      assert.ok(actions.includes(want), `${want} in ${actions.join(', ')}`);
    }
  });
});
