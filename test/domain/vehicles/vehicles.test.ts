/** /v1/vehicles: envelope, field set and wire types, embedded drivers, filters (docs/reference/wire.md §3, §4.1, §4.3, §9, §10). */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../../helper.js';
import {
  DATETIME,
  USER_SUMMARY_KEYS,
  VEHICLE_KEYS,
  assertError,
  assertKeySet,
  assertList,
  createUser,
  createVehicle,
  idsOf,
} from '../../http/fixtures.js';

eachDialect('vehicles: reading', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let d1: any;
  let d2: any;
  let d3: any;
  let v1: any; // permanent d1, diesel, active
  let v2: any; // permanent d2, gasoline, inactive
  let v3: any; // current driver d3 (set in the database: no API sets it), diesel
  let v4: any; // no driver, no fuel type, deactivated

  before(async () => {
    t = await getApp();
    d1 = await createUser(t, { first_name: 'Dan', last_name: 'One', driver_company_id: 'D-1' });
    d2 = await createUser(t, { first_name: 'Dora', last_name: 'Two' });
    d3 = await createUser(t, { first_name: 'Dirk', last_name: 'Three' });
    v1 = await createVehicle(t, {
      number: '101',
      permanent_driver_id: d1.id,
      fuel_type: 'diesel',
      year: 2019,
      make: 'Volvo',
      model: 'VNL',
      vin: '1XKYDP9X0LJ123456',
    });
    v2 = await createVehicle(t, {
      number: '102',
      permanent_driver_id: d2.id,
      fuel_type: 'gasoline',
      status: 'inactive',
      year: '2021',
    });
    v3 = await createVehicle(t, { number: '103', fuel_type: 'diesel' });
    v4 = await createVehicle(t, { number: '104', status: 'deactivated' });
    await t.db.kysely.updateTable('vehicles').set({ current_driver_id: d3.id }).where('id', '=', v3.id).execute();
  });

  test('list envelope: vehicles first, pagination last, wrapped items in id order', async () => {
    const res = await t.call({ method: 'GET', url: '/v1/vehicles' });
    const items = assertList(res, 'vehicles', 'vehicle');
    assert.deepEqual(res.body.pagination, { per_page: 25, page_no: 1, total: 4 });
    assert.deepEqual(
      items.map((v) => v.id),
      [v1.id, v2.id, v3.id, v4.id],
    );
    for (const v of items) assertKeySet(v, VEHICLE_KEYS, `vehicle ${v.id}`);
  });

  test('GET :id: exact key set and wire types', async () => {
    const res = await t.call({ method: 'GET', url: `/v1/vehicles/${v1.id}` });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body), ['vehicle']);
    const v = res.body.vehicle;
    assertKeySet(v, VEHICLE_KEYS, 'vehicle');
    assert.equal(v.id, v1.id);
    assert.equal(v.company_id, t.company.id);
    assert.ok(Number.isInteger(v.company_id), 'company_id is an integer');
    assert.equal(v.number, '101');
    assert.equal(typeof v.number, 'string');
    assert.equal(v.year, '2019', 'year given as an integer comes back as a string');
    assert.equal(v.make, 'Volvo');
    assert.equal(v.model, 'VNL');
    assert.equal(v.vin, '1XKYDP9X0LJ123456');
    assert.equal(v.status, 'active');
    assert.equal(v.fuel_type, 'diesel');
    assert.equal(typeof v.ifta, 'boolean');
    assert.equal(typeof v.metric_units, 'boolean');
    assert.equal(typeof v.prevent_auto_odometer_entry, 'boolean');
    for (const k of ['incab_alert_live_stream_enable', 'driver_facing_camera', 'incab_audio_recording'])
      assert.equal(v[k], -1, k);
    assert.deepEqual(v.group_ids, []);
    assert.match(v.created_at, DATETIME);
    assert.match(v.updated_at, DATETIME);
    assert.equal(v.availability_details.availability_status, 'in_service', 'every vehicle has an availability');
    assert.deepEqual(v.external_ids, []);
    for (const k of [
      'license_plate_state',
      'license_plate_number',
      'license_plate_country_code',
      'notes',
      'eld_device',
      'current_driver',
      'carb_ctc_test_enabled',
      'carb_ctc_emission_status',
      'registration_expiry_date',
    ]) {
      assert.equal(v[k], null, `${k} is null`);
    }
  });

  test('year given as a string comes back as the same string', async () => {
    const res = await t.call({ method: 'GET', url: `/v1/vehicles/${v2.id}` });
    assert.equal(res.body.vehicle.year, '2021');
    const v = (await t.call({ method: 'GET', url: `/v1/vehicles/${v3.id}` })).body.vehicle;
    assert.equal(v.year, null);
  });

  test('permanent_driver embeds a UserSummary with exactly its eight keys', async () => {
    const v = (await t.call({ method: 'GET', url: `/v1/vehicles/${v1.id}` })).body.vehicle;
    assertKeySet(v.permanent_driver, USER_SUMMARY_KEYS, 'permanent_driver');
    assert.deepEqual(v.permanent_driver, {
      id: d1.id,
      first_name: 'Dan',
      last_name: 'One',
      username: d1.username,
      email: d1.email,
      driver_company_id: 'D-1',
      status: 'active',
      role: 'driver',
    });
    assert.equal(v.current_driver, null);
  });

  test('current_driver embeds a UserSummary with exactly its eight keys', async () => {
    const v = (await t.call({ method: 'GET', url: `/v1/vehicles/${v3.id}` })).body.vehicle;
    assertKeySet(v.current_driver, USER_SUMMARY_KEYS, 'current_driver');
    assert.equal(v.current_driver.id, d3.id);
    assert.equal(v.current_driver.driver_company_id, null);
    assert.equal(v.permanent_driver, null);
  });

  test('GET :id of an unknown id is 404 with an error body', async () => {
    assertError(await t.call({ method: 'GET', url: '/v1/vehicles/999999' }), 404, /not found/);
  });

  test('filter status', async () => {
    const cases: Array<[string, number[]]> = [
      ['active', [v1.id, v3.id]],
      ['inactive', [v2.id]],
      ['deactivated', [v4.id]],
    ];
    for (const [status, ids] of cases) {
      const res = await t.call({ method: 'GET', url: `/v1/vehicles?status=${status}` });
      assertList(res, 'vehicles', 'vehicle');
      assert.deepEqual(idsOf(res.body, 'vehicles', 'vehicle'), ids, status);
      assert.equal(res.body.pagination.total, ids.length);
    }
  });

  test('filter fuel_type', async () => {
    let res = await t.call({ method: 'GET', url: '/v1/vehicles?fuel_type=diesel' });
    assert.deepEqual(idsOf(res.body, 'vehicles', 'vehicle'), [v1.id, v3.id]);
    assert.equal(res.body.pagination.total, 2);
    res = await t.call({ method: 'GET', url: '/v1/vehicles?fuel_type=propane' });
    assert.deepEqual(res.body.vehicles, []);
    assert.equal(res.body.pagination.total, 0);
    res = await t.call({ method: 'GET', url: '/v1/vehicles?fuel_type=diesel&status=active' });
    assert.deepEqual(idsOf(res.body, 'vehicles', 'vehicle'), [v1.id, v3.id]);
  });

  test('bad filter values are 400 naming the parameter', async () => {
    assertError(await t.call({ method: 'GET', url: '/v1/vehicles?fuel_type=coal' }), 400, /fuel_type/);
    assertError(await t.call({ method: 'GET', url: '/v1/vehicles?status=parked' }), 400, /status/);
    assertError(await t.call({ method: 'GET', url: '/v1/vehicles?driver_ids=abc' }), 400, /driver_ids/);
    assertError(await t.call({ method: 'GET', url: '/v1/vehicles?driver_ids[]=1&driver_ids[]=x' }), 400, /driver_ids/);
  });

  describe('driver_ids in every array syntax', () => {
    // permanent (v1 ← d1, v2 ← d2) and current (v3 ← d3) drivers both match
    const forms = (a: number, b: number): Array<[string, string]> => [
      ['brackets', `driver_ids[]=${a}&driver_ids[]=${b}`],
      ['indexed', `driver_ids[0]=${a}&driver_ids[1]=${b}`],
      ['comma', `driver_ids=${a},${b}`],
      ['repeated', `driver_ids=${a}&driver_ids=${b}`],
      ['encoded brackets', `driver_ids%5B%5D=${a}&driver_ids%5B%5D=${b}`],
    ];

    test('two ids', async () => {
      for (const [name, q] of forms(d1.id, d3.id)) {
        const res = await t.call({ method: 'GET', url: `/v1/vehicles?${q}` });
        assertList(res, 'vehicles', 'vehicle');
        assert.deepEqual(idsOf(res.body, 'vehicles', 'vehicle'), [v1.id, v3.id], name);
        assert.equal(res.body.pagination.total, 2, name);
      }
    });

    test('one id: bare, bracketed, indexed', async () => {
      for (const q of [`driver_ids=${d2.id}`, `driver_ids[]=${d2.id}`, `driver_ids[0]=${d2.id}`]) {
        const res = await t.call({ method: 'GET', url: `/v1/vehicles?${q}` });
        assert.deepEqual(idsOf(res.body, 'vehicles', 'vehicle'), [v2.id], q);
        assert.equal(res.body.pagination.total, 1, q);
      }
    });

    test('a driver with no vehicle, and an unknown id, match nothing', async () => {
      const lonely = await createUser(t, { first_name: 'Lonely' });
      for (const q of [`driver_ids=${lonely.id}`, 'driver_ids[]=999999']) {
        const res = await t.call({ method: 'GET', url: `/v1/vehicles?${q}` });
        assert.deepEqual(res.body.vehicles, [], q);
        assert.equal(res.body.pagination.total, 0, q);
      }
    });

    test('combined with status', async () => {
      const res = await t.call({ method: 'GET', url: `/v1/vehicles?driver_ids=${d1.id},${d2.id}&status=inactive` });
      assert.deepEqual(idsOf(res.body, 'vehicles', 'vehicle'), [v2.id]);
    });
  });
});
