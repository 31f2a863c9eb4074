/** POST /v1/vehicles and PUT /v1/vehicles/:id: 201, validation, uniqueness, drivers; bad input changes nothing. */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../../helper.js';
import {
  DATETIME,
  USER_SUMMARY_KEYS,
  VEHICLE_KEYS,
  assertError,
  assertKeySet,
  createUser,
  createVehicle,
  totalOf,
} from '../../http/fixtures.js';

eachDialect('vehicles: writing', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let driver: any;
  let admin: any;
  let truck: any;

  before(async () => {
    t = await getApp();
    driver = await createUser(t, { first_name: 'Pat', last_name: 'Driver' });
    admin = await createUser(t, { role: 'admin' });
    truck = await createVehicle(t, { number: 'T-1', year: '2018', make: 'Kenworth' });
  });

  async function refused(
    method: 'POST' | 'PUT',
    url: string,
    payload: unknown,
    message: string | RegExp,
    status = 400,
  ) {
    const before = await totalOf(t, '/v1/vehicles');
    const res = await t.call({ method, url, payload: payload as any });
    assertError(res, status, message);
    assert.equal(await totalOf(t, '/v1/vehicles'), before, 'list total unchanged');
  }

  test('POST creates: 201, wrapped, full key set, defaults', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/v1/vehicles',
      payload: {
        number: 'NEW-1',
        year: 2020,
        vin: 'VIN1',
        fuel_type: 'cng',
        license_plate_number: 'ABC123',
        license_plate_state: 'CA',
        ifta: false,
        notes: 'n',
      },
    });
    assert.equal(res.status, 201);
    assert.deepEqual(Object.keys(res.body), ['vehicle']);
    const v = res.body.vehicle;
    assertKeySet(v, VEHICLE_KEYS, 'created vehicle');
    assert.equal(v.number, 'NEW-1');
    assert.equal(v.year, '2020');
    assert.equal(v.company_id, t.company.id);
    assert.equal(v.status, 'active');
    assert.equal(v.ifta, false);
    assert.equal(v.fuel_type, 'cng');
    assert.equal(v.license_plate_number, 'ABC123');
    assert.equal(v.permanent_driver, null);
    assert.match(v.created_at, DATETIME);
    assert.match(v.updated_at, DATETIME);
    assert.deepEqual((await t.call({ method: 'GET', url: `/v1/vehicles/${v.id}` })).body.vehicle, v);
  });

  test('year: "" and "0" are kept as strings; null is null', async () => {
    for (const [year, expected] of [
      ['', ''],
      ['0', '0'],
      [0, '0'],
      [null, null],
    ] as const) {
      const v = await createVehicle(t, { year });
      assert.equal(v.year, expected, `year ${JSON.stringify(year)}`);
    }
  });

  test('POST with permanent_driver_id embeds the driver summary', async () => {
    const v = await createVehicle(t, { permanent_driver_id: driver.id });
    assertKeySet(v.permanent_driver, USER_SUMMARY_KEYS, 'permanent_driver');
    assert.equal(v.permanent_driver.id, driver.id);
    assert.equal(v.permanent_driver.role, 'driver');
  });

  test('POST missing number → 400 naming number', async () => {
    await refused('POST', '/v1/vehicles', { make: 'Mack' }, /number.*required/);
    await refused('POST', '/v1/vehicles', { number: '   ' }, /number/);
  });

  test('POST duplicate number in the company → 400 with a message', async () => {
    await refused('POST', '/v1/vehicles', { number: 'T-1' }, 'number "T-1" is already taken');
    await refused('POST', '/v1/vehicles', { number: ' T-1 ' }, /number.*already taken/);
  });

  test('the same number in another company is fine', async () => {
    const other = await t.newCompany('Other Co');
    const v = await createVehicle(t, { number: 'T-1' }, other);
    assert.equal(v.company_id, other.id);
  });

  test('POST wrong types and unknown enums → 400 naming the field', async () => {
    await refused('POST', '/v1/vehicles', { number: 5 }, 'number must be a string');
    await refused('POST', '/v1/vehicles', { number: 'X1', year: 20.5 }, /year/);
    await refused('POST', '/v1/vehicles', { number: 'X1', year: true }, /year/);
    await refused('POST', '/v1/vehicles', { number: 'X1', ifta: 'yes' }, /ifta/);
    await refused('POST', '/v1/vehicles', { number: 'X1', fuel_type: 'coal' }, /fuel_type/);
    await refused('POST', '/v1/vehicles', { number: 'X1', status: 'parked' }, /status/);
    await refused('POST', '/v1/vehicles', { number: 'X1', permanent_driver_id: 'abc' }, /permanent_driver_id/);
    await refused('POST', '/v1/vehicles', { number: 'X1', make: 'm'.repeat(256) }, /make.*255/);
    await refused('POST', '/v1/vehicles', { number: 'n'.repeat(65) }, /number.*64/);
  });

  test('permanent_driver_id must be a driver of the company', async () => {
    await refused('POST', '/v1/vehicles', { number: 'X2', permanent_driver_id: admin.id }, /permanent_driver_id/);
    await refused('POST', '/v1/vehicles', { number: 'X2', permanent_driver_id: 999999 }, /not found/, 404);
  });

  test('PUT partial update changes only the fields sent', async () => {
    const before = (await t.call({ method: 'GET', url: `/v1/vehicles/${truck.id}` })).body.vehicle;
    const res = await t.call({
      method: 'PUT',
      url: `/v1/vehicles/${truck.id}`,
      payload: { model: 'T680', year: 2019, permanent_driver_id: driver.id },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body), ['vehicle']);
    const after = res.body.vehicle;
    assertKeySet(after, VEHICLE_KEYS, 'updated vehicle');
    assert.equal(after.model, 'T680');
    assert.equal(after.year, '2019');
    assert.equal(after.permanent_driver.id, driver.id);
    assert.ok(after.updated_at >= before.updated_at);
    for (const k of VEHICLE_KEYS.filter((k) => !['model', 'year', 'permanent_driver', 'updated_at'].includes(k))) {
      assert.deepEqual(after[k], before[k], `${k} unchanged`);
    }
  });

  test('PUT permanent_driver_id null removes the driver', async () => {
    const v = await createVehicle(t, { permanent_driver_id: driver.id });
    const res = await t.call({ method: 'PUT', url: `/v1/vehicles/${v.id}`, payload: { permanent_driver_id: null } });
    assert.equal(res.status, 200);
    assert.equal(res.body.vehicle.permanent_driver, null);
  });

  test('PUT may keep its own number', async () => {
    const res = await t.call({ method: 'PUT', url: `/v1/vehicles/${truck.id}`, payload: { number: 'T-1' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  });

  test('PUT refusals change nothing', async () => {
    const other = await createVehicle(t, { number: 'T-2' });
    const url = `/v1/vehicles/${truck.id}`;
    const before = (await t.call({ method: 'GET', url })).body.vehicle;
    await refused('PUT', url, { number: other.number }, /number.*already taken/);
    await refused('PUT', url, { number: '' }, /number/);
    await refused('PUT', url, { year: [2019] }, /year/);
    await refused('PUT', url, { fuel_type: 'coal' }, /fuel_type/);
    await refused('PUT', url, { permanent_driver_id: admin.id }, /permanent_driver_id/);
    await refused('PUT', url, { make: 'Volvo', permanent_driver_id: 999999 }, /not found/, 404);
    assert.deepEqual((await t.call({ method: 'GET', url })).body.vehicle, before);
  });

  test('availability_status fills availability_details, updated by the acting admin', async () => {
    const boss = await createUser(t, { role: 'admin' });
    const url = `/v1/vehicles/${truck.id}`;
    let res = await t.call({
      method: 'PUT',
      url,
      headers: { 'X-User-Id': String(boss.id) },
      payload: { availability_status: 'out_of_service' },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    let ad = res.body.vehicle.availability_details;
    assert.deepEqual(Object.keys(ad).sort(), [
      'additional_note',
      'availability_status',
      'custom_driver_app_warning_prompt',
      'out_of_service_reason',
      'updated_at',
      'updated_by_user',
    ]);
    assert.equal(ad.availability_status, 'out_of_service');
    assert.match(ad.updated_at, DATETIME);
    assertKeySet(ad.updated_by_user, USER_SUMMARY_KEYS, 'updated_by_user');
    assert.equal(ad.updated_by_user.id, boss.id);
    // without X-User-Id the request acts as the company's first active admin (docs/reference/wire.md §2.4)
    res = await t.call({ method: 'PUT', url, payload: { availability_status: 'in_service' } });
    ad = res.body.vehicle.availability_details;
    assert.equal(ad.availability_status, 'in_service');
    assert.equal(ad.updated_by_user?.id, admin.id, 'updated_by_user is the first active admin');
    await refused('PUT', url, { availability_status: 'broken' }, /availability_status/);
  });

  test('PUT of an unknown id is 404', async () => {
    assertError(await t.call({ method: 'PUT', url: '/v1/vehicles/999999', payload: { make: 'X' } }), 404, /not found/);
  });
});
