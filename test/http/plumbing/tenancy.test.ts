/** Tenant isolation on users and vehicles: a second company sees and touches nothing of the first. */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp, type TestCompany } from '../../helper.js';
import { assertError, assertList, createUser, createVehicle, idsOf, totalOf } from '../fixtures.js';

eachDialect('tenant isolation', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let other: TestCompany;
  let driver: any;
  let admin: any;
  let vehicle: any;
  let theirDriver: any;
  let theirVehicle: any;

  before(async () => {
    t = await getApp();
    driver = await createUser(t, {
      first_name: 'Mine',
      last_name: 'Driver',
      driver_company_id: 'MINE-1',
      username: `mine_${dialect}`,
    });
    admin = await createUser(t, { role: 'admin' });
    vehicle = await createVehicle(t, { number: 'MINE-V', permanent_driver_id: driver.id, fuel_type: 'diesel' });
    other = await t.newCompany('Second Co');
  });

  test('a second company sees empty lists with total 0, under every filter', async () => {
    for (const url of [
      '/v1/users',
      '/v1/users?role=driver',
      '/v1/users?name=mine',
      '/v1/vehicles',
      '/v1/vehicles?fuel_type=diesel',
    ]) {
      const res = await t.call({ method: 'GET', url, as: other });
      const plural = url.includes('users') ? 'users' : 'vehicles';
      assert.deepEqual(assertList(res, plural, plural.slice(0, -1)), [], url);
      assert.equal(res.body.pagination.total, 0, url);
    }
  });

  test("GET of the first company's user and vehicle ids is 404", async () => {
    for (const url of [`/v1/users/${driver.id}`, `/v1/users/${admin.id}`, `/v1/vehicles/${vehicle.id}`]) {
      assertError(await t.call({ method: 'GET', url, as: other }), 404, /not found/);
    }
  });

  test("PUT on the first company's user and vehicle is 404 and changes nothing", async () => {
    const beforeUser = (await t.call({ method: 'GET', url: `/v1/users/${driver.id}` })).body.user;
    const beforeVehicle = (await t.call({ method: 'GET', url: `/v1/vehicles/${vehicle.id}` })).body.vehicle;
    assertError(
      await t.call({ method: 'PUT', url: `/v1/users/${driver.id}`, payload: { first_name: 'Stolen' }, as: other }),
      404,
      /not found/,
    );
    assertError(
      await t.call({ method: 'PUT', url: `/v1/vehicles/${vehicle.id}`, payload: { number: 'STOLEN' }, as: other }),
      404,
      /not found/,
    );
    assert.deepEqual((await t.call({ method: 'GET', url: `/v1/users/${driver.id}` })).body.user, beforeUser);
    assert.deepEqual((await t.call({ method: 'GET', url: `/v1/vehicles/${vehicle.id}` })).body.vehicle, beforeVehicle);
  });

  test("lookup does not find the first company's users", async () => {
    for (const q of [
      `username=mine_${dialect}`,
      `email=${encodeURIComponent(driver.email)}`,
      'driver_company_id=MINE-1',
    ]) {
      const res = await t.call({ method: 'GET', url: `/v1/users/lookup?${q}`, as: other });
      assert.equal(res.status, 404, q);
      assert.equal(res.raw, '{"error_message":"user not found"}');
    }
  });

  test("the first company's driver cannot be a permanent_driver_id of the second: 404, nothing created", async () => {
    const before = await totalOf(t, '/v1/vehicles', other);
    const res = await t.call({
      method: 'POST',
      url: '/v1/vehicles',
      payload: { number: 'X-1', permanent_driver_id: driver.id },
      as: other,
    });
    assertError(res, 404);
    assert.equal(await totalOf(t, '/v1/vehicles', other), before);
    theirVehicle = await createVehicle(t, { number: 'THEIRS-1' }, other);
    const put = await t.call({
      method: 'PUT',
      url: `/v1/vehicles/${theirVehicle.id}`,
      payload: { permanent_driver_id: driver.id },
      as: other,
    });
    assertError(put, 404);
    const after = (await t.call({ method: 'GET', url: `/v1/vehicles/${theirVehicle.id}`, as: other })).body.vehicle;
    assert.equal(after.permanent_driver, null);
  });

  test('the 404 for a foreign permanent_driver_id names the field', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/v1/vehicles',
      payload: { number: 'X-2', permanent_driver_id: driver.id },
      as: other,
    });
    assertError(res, 404, /permanent_driver_id/);
  });

  test("driver_ids naming the first company's driver returns nothing to the second", async () => {
    theirDriver = await createUser(t, { first_name: 'Their', last_name: 'Driver' }, other);
    await createVehicle(t, { number: 'THEIRS-2', permanent_driver_id: theirDriver.id }, other);
    for (const q of [`driver_ids=${driver.id}`, `driver_ids[]=${driver.id}`, `driver_ids[0]=${driver.id}`]) {
      const res = await t.call({ method: 'GET', url: `/v1/vehicles?${q}`, as: other });
      assert.deepEqual(assertList(res, 'vehicles', 'vehicle'), [], q);
      assert.equal(res.body.pagination.total, 0, q);
    }
    // mixed: only the second company's own driver matches
    const res = await t.call({
      method: 'GET',
      url: `/v1/vehicles?driver_ids=${driver.id},${theirDriver.id}`,
      as: other,
    });
    assert.equal(res.body.pagination.total, 1);
    assert.equal(res.body.vehicles[0].vehicle.permanent_driver.id, theirDriver.id);
    // and the first company does not see the second's vehicle through its driver id either
    const mine = await t.call({ method: 'GET', url: `/v1/vehicles?driver_ids=${theirDriver.id}` });
    assert.deepEqual(mine.body.vehicles, []);
  });

  test('X-User-Id naming an admin of another company is 403', async () => {
    assertError(
      await t.call({ method: 'GET', url: '/v1/users', headers: { 'X-User-Id': String(admin.id) }, as: other }),
      403,
    );
  });

  test('each company still sees exactly its own records', async () => {
    const mine = await t.call({ method: 'GET', url: '/v1/vehicles' });
    assert.deepEqual(idsOf(mine.body, 'vehicles', 'vehicle'), [vehicle.id]);
    const theirs = await t.call({ method: 'GET', url: '/v1/vehicles', as: other });
    assert.equal(theirs.body.pagination.total, 2);
    for (const w of theirs.body.vehicles) assert.equal(w.vehicle.company_id, other.id);
    const theirUsers = await t.call({ method: 'GET', url: '/v1/users', as: other });
    assert.deepEqual(idsOf(theirUsers.body, 'users', 'user'), [theirDriver.id]);
  });
});
