/** /v1/fuel_purchases CRUD: 201 and full key set, summaries, receipts, partial PUT, DELETE; bad input changes nothing. */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp, type TestCompany } from '../../helper.js';
import { DATETIME, USER_SUMMARY_KEYS, assertError, createUser, createVehicle } from '../../http/fixtures.js';
import {
  FUEL_KEYS,
  VEHICLE_SUMMARY_KEYS,
  blobEnv,
  createFuelPurchase,
  eventsOf,
  today,
  uploadDocument,
} from '../../http/record-fixtures.js';

eachDialect('fuel purchases: writing', (dialect) => {
  const getApp = useApp(dialect, blobEnv().env);
  let t: TestApp;
  let other: TestCompany;
  let admin: any;
  let driver: any;
  let truck: any;
  let theirTruck: any;

  before(async () => {
    t = await getApp();
    admin = await createUser(t, { role: 'admin' });
    driver = await createUser(t, { first_name: 'Fay', last_name: 'Fuel' });
    truck = await createVehicle(t, { number: 'F-1', make: 'Mack' });
    other = await t.newCompany('Other Co');
    theirTruck = await createVehicle(t, {}, other);
  });

  /** Every fuel purchase of the company, whatever its date. */
  const all = async () =>
    (await t.call({ method: 'GET', url: '/v1/fuel_purchases?start_date=2000-01-01&per_page=100' })).body.pagination
      .total;

  async function refused(
    method: 'POST' | 'PUT',
    url: string,
    payload: unknown,
    status: number,
    message: string | RegExp,
  ) {
    const before = await all();
    assertError(await t.call({ method, url, payload: payload as any }), status, message);
    assert.equal(await all(), before, 'nothing stored');
  }

  test('POST → 201 with the full key set in order, defaults, summaries and the acting admin as uploader', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/v1/fuel_purchases',
      payload: {
        vehicle_id: truck.id,
        driver_id: driver.id,
        purchased_at: '2019-04-23',
        jurisdiction: 'al',
        fuel_type: 'diesel',
        fuel: 12,
        fuel_unit: 'gal',
        total_cost: 40.5,
        vendor: 'Pilot #123',
        ref_no: 'R-77',
        offline_id: 'off-1',
        odometer: 120345.5,
      },
    });
    assert.equal(res.status, 201, res.raw);
    assert.deepEqual(Object.keys(res.body), ['fuel_purchase']);
    const f = res.body.fuel_purchase;
    assert.deepEqual(Object.keys(f), FUEL_KEYS);
    assert.equal(f.purchased_at, '2019-04-23T00:00:00Z');
    assert.equal(f.jurisdiction, 'AL', 'codes are upper-cased');
    assert.equal(f.fuel_type, 'diesel');
    assert.equal(f.fuel, 12);
    assert.equal(f.fuel_unit, 'gal');
    assert.equal(f.total_cost, 40.5);
    assert.equal(f.currency, 'USD');
    assert.equal(f.odometer, 120345.5);
    assert.equal(f.odometer_unit, 'mi', 'odometer_unit defaults to mi when an odometer is given');
    assert.equal(f.vendor, 'Pilot #123');
    assert.equal(f.ref_no, 'R-77');
    assert.equal(f.offline_id, 'off-1');
    assert.equal(f.source, 'api');
    assert.equal(f.receipt_upload_url, null);
    assert.equal(f.receipt_filename, null);
    assert.deepEqual(Object.keys(f.vehicle), VEHICLE_SUMMARY_KEYS);
    assert.equal(f.vehicle.id, truck.id);
    assert.deepEqual(Object.keys(f.driver), USER_SUMMARY_KEYS);
    assert.equal(f.driver.id, driver.id);
    assert.equal(f.uploader.id, admin.id);
    assert.match(f.created_at, DATETIME);
    assert.deepEqual((await t.call({ method: 'GET', url: `/v1/fuel_purchases/${f.id}` })).body, { fuel_purchase: f });
    assert.deepEqual((await eventsOf(t, 'fuel_purchase')).at(-1), {
      action: 'fuel_purchase_upserted',
      trigger: 'created',
      subject_id: String(f.id),
    });
  });

  test('the minimal body: purchased_at, jurisdiction, fuel; null summaries and units', async () => {
    const f = await createFuelPurchase(t, {
      purchased_at: '2024-05-01T13:45:10Z',
      jurisdiction: 'ON',
      fuel: 80.25,
      fuel_unit: 'l',
      currency: 'cad',
    });
    assert.equal(f.purchased_at, '2024-05-01T13:45:10Z');
    assert.equal(f.currency, 'CAD');
    assert.equal(f.fuel_unit, 'l');
    for (const k of [
      'offline_id',
      'fuel_type',
      'ref_no',
      'vendor',
      'total_cost',
      'odometer',
      'odometer_unit',
      'vehicle',
      'driver',
    ])
      assert.equal(f[k], null, k);
  });

  test('a bare day is read in X-Time-Zone; a datetime keeps its offset', async () => {
    let res = await t.call({
      method: 'POST',
      url: '/v1/fuel_purchases',
      headers: { 'X-Time-Zone': 'Eastern Time (US & Canada)' },
      payload: { purchased_at: '2024-01-15', jurisdiction: 'NY', fuel: 10 },
    });
    // Midnight in New York, written back in that zone (2024-01-15T05:00:00Z).
    assert.equal(res.body.fuel_purchase.purchased_at, '2024-01-15T00:00:00-05:00');
    const stored = await t.call({ method: 'GET', url: `/v1/fuel_purchases/${res.body.fuel_purchase.id}` });
    assert.equal(stored.body.fuel_purchase.purchased_at, '2024-01-15T05:00:00Z');
    res = await t.call({
      method: 'POST',
      url: '/v1/fuel_purchases',
      payload: { purchased_at: '2024-01-15T09:30:00-06:00', jurisdiction: 'TX', fuel: 10 },
    });
    assert.equal(res.body.fuel_purchase.purchased_at, '2024-01-15T15:30:00Z');
  });

  test('every IFTA and non-IFTA code is accepted (US states, DC, provinces and territories)', async () => {
    for (const code of ['AK', 'HI', 'DC', 'YT', 'NT', 'NU', 'QC', 'wy']) {
      const f = await createFuelPurchase(t, { jurisdiction: code });
      assert.equal(f.jurisdiction, code.toUpperCase());
    }
  });

  test('a receipt document gives receipt_upload_url (its download URL) and receipt_filename', async () => {
    const doc = await uploadDocument(t, { name: 'receipt' }, { name: 'receipt.pdf' });
    const f = await createFuelPurchase(t, { receipt_document_id: doc.id });
    assert.equal(f.receipt_upload_url, doc.download_url);
    assert.match(f.receipt_upload_url, new RegExp(`/v1/documents/${doc.id}/download$`));
    assert.equal(f.receipt_filename, 'receipt.pdf');
    assert.equal((await t.call({ method: 'DELETE', url: `/v1/documents/${doc.id}` })).status, 200);
    const after = (await t.call({ method: 'GET', url: `/v1/fuel_purchases/${f.id}` })).body.fuel_purchase;
    assert.equal(after.receipt_upload_url, null, 'a deleted receipt is no longer linked');
  });

  test('missing, wrong-typed and out-of-range fields are 400 naming the field; nothing stored', async () => {
    const ok = { purchased_at: today(), jurisdiction: 'TX', fuel: 10 };
    const url = '/v1/fuel_purchases';
    await refused('POST', url, { jurisdiction: 'TX', fuel: 10 }, 400, 'purchased_at is required');
    await refused('POST', url, { purchased_at: today(), fuel: 10 }, 400, 'jurisdiction is required');
    await refused('POST', url, { purchased_at: today(), jurisdiction: 'TX' }, 400, 'fuel is required');
    await refused(
      'POST',
      url,
      { ...ok, jurisdiction: 'ZZ' },
      400,
      /^jurisdiction must be the two-letter code of a US state, DC, a Canadian province or territory, or MX .*got "ZZ"$/,
    );
    await refused('POST', url, { ...ok, jurisdiction: 'PR' }, 400, /jurisdiction/);
    await refused('POST', url, { ...ok, jurisdiction: 5 }, 400, 'jurisdiction must be a string');
    await refused('POST', url, { ...ok, fuel: 0 }, 400, 'fuel must be greater than 0');
    await refused('POST', url, { ...ok, fuel: -3 }, 400, 'fuel must be greater than 0');
    await refused('POST', url, { ...ok, fuel: '12' }, 400, 'fuel must be a number');
    await refused('POST', url, { ...ok, fuel_type: 'coal' }, 400, /fuel_type must be one of/);
    await refused('POST', url, { ...ok, fuel_unit: 'barrel' }, 400, 'fuel_unit must be one of: gal, l');
    await refused('POST', url, { ...ok, odometer_unit: 'furlong' }, 400, /odometer_unit/);
    await refused('POST', url, { ...ok, total_cost: -1 }, 400, 'total_cost must be at least 0');
    await refused('POST', url, { ...ok, currency: 'dollars' }, 400, 'currency has an invalid format');
    await refused('POST', url, { ...ok, source: 'psychic' }, 400, /source must be one of: api, driver, fuel_card/);
    await refused('POST', url, { ...ok, purchased_at: 'yesterday' }, 400, 'purchased_at has an invalid format');
    await refused(
      'POST',
      url,
      { ...ok, purchased_at: '2024-02-30' },
      400,
      'purchased_at is not a valid date (2024-02-30)',
    );
    await refused(
      'POST',
      url,
      { ...ok, purchased_at: '2024-01-01T10:00:00' },
      400,
      'purchased_at has an invalid format',
    );
    await refused('POST', url, { ...ok, vehicle_id: 'abc' }, 400, /vehicle_id/);
  });

  test('unknown ids and ids of another company are 404 naming the field; a non-driver is 400', async () => {
    const ok = { purchased_at: today(), jurisdiction: 'TX', fuel: 10 };
    const url = '/v1/fuel_purchases';
    await refused('POST', url, { ...ok, vehicle_id: 999999 }, 404, 'vehicle_id: vehicle 999999 not found');
    await refused(
      'POST',
      url,
      { ...ok, vehicle_id: theirTruck.id },
      404,
      `vehicle_id: vehicle ${theirTruck.id} not found`,
    );
    await refused('POST', url, { ...ok, driver_id: 999999 }, 404, 'driver_id: user 999999 not found');
    await refused(
      'POST',
      url,
      { ...ok, driver_id: admin.id },
      400,
      `driver_id must name a driver; user ${admin.id} is a admin`,
    );
    await refused(
      'POST',
      url,
      { ...ok, receipt_document_id: 999999 },
      404,
      'receipt_document_id: document 999999 not found',
    );
  });

  test('offline_id is unique in the company (and free in another)', async () => {
    await createFuelPurchase(t, { offline_id: 'dup-1' });
    await refused(
      'POST',
      '/v1/fuel_purchases',
      { purchased_at: today(), jurisdiction: 'TX', fuel: 1, offline_id: 'dup-1' },
      400,
      'offline_id "dup-1" is already taken',
    );
    const theirs = await createFuelPurchase(t, { offline_id: 'dup-1' }, other);
    assert.equal(theirs.offline_id, 'dup-1');
  });

  test('PUT changes only the fields sent', async () => {
    const f = await createFuelPurchase(t, { vehicle_id: truck.id, fuel_type: 'diesel', vendor: 'Loves' });
    const res = await t.call({
      method: 'PUT',
      url: `/v1/fuel_purchases/${f.id}`,
      payload: { fuel: 99.5, jurisdiction: 'ok', vendor: null, driver_id: driver.id },
    });
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(Object.keys(res.body), ['fuel_purchase']);
    const after = res.body.fuel_purchase;
    assert.equal(after.fuel, 99.5);
    assert.equal(after.jurisdiction, 'OK');
    assert.equal(after.vendor, null);
    assert.equal(after.driver.id, driver.id);
    for (const k of FUEL_KEYS.filter((k) => !['fuel', 'jurisdiction', 'vendor', 'driver', 'updated_at'].includes(k))) {
      assert.deepEqual(after[k], f[k], `${k} unchanged`);
    }
    assert.deepEqual((await eventsOf(t, 'fuel_purchase')).at(-1), {
      action: 'fuel_purchase_upserted',
      trigger: 'updated',
      subject_id: String(f.id),
    });
  });

  test('PUT refusals change nothing', async () => {
    const f = await createFuelPurchase(t, { offline_id: 'keep-1' });
    await createFuelPurchase(t, { offline_id: 'taken-1' });
    const url = `/v1/fuel_purchases/${f.id}`;
    const before = (await t.call({ method: 'GET', url })).body;
    await refused('PUT', url, { jurisdiction: 'XX' }, 400, /jurisdiction/);
    await refused('PUT', url, { fuel: 0 }, 400, 'fuel must be greater than 0');
    await refused('PUT', url, { fuel: null }, 400, /fuel/);
    await refused('PUT', url, { offline_id: 'taken-1' }, 400, 'offline_id "taken-1" is already taken');
    await refused('PUT', url, { vendor: 'X', vehicle_id: theirTruck.id }, 404, /vehicle_id/);
    assert.deepEqual((await t.call({ method: 'GET', url })).body, before);
    assert.equal(
      (await t.call({ method: 'PUT', url, payload: { offline_id: 'keep-1' } })).status,
      200,
      'keeping its own offline_id is fine',
    );
  });

  test('DELETE → {"success":true}; afterwards 404; unknown and foreign ids 404', async () => {
    const f = await createFuelPurchase(t);
    const res = await t.call({ method: 'DELETE', url: `/v1/fuel_purchases/${f.id}` });
    assert.equal(res.status, 200);
    assert.equal(res.raw, '{"success":true}');
    assertError(
      await t.call({ method: 'GET', url: `/v1/fuel_purchases/${f.id}` }),
      404,
      `fuel purchase ${f.id} not found`,
    );
    assertError(await t.call({ method: 'DELETE', url: `/v1/fuel_purchases/${f.id}` }), 404, /not found/);
    assert.deepEqual((await eventsOf(t, 'fuel_purchase')).at(-1), {
      action: 'fuel_purchase_deleted',
      trigger: null,
      subject_id: String(f.id),
    });
    const theirs = await createFuelPurchase(t, {}, other);
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res2 = await t.call({
        method,
        url: `/v1/fuel_purchases/${theirs.id}`,
        payload: method === 'PUT' ? { fuel: 1 } : undefined,
      });
      assertError(res2, 404, `fuel purchase ${theirs.id} not found`);
    }
    assert.equal(
      (await t.call({ method: 'GET', url: `/v1/fuel_purchases/${theirs.id}`, as: other })).body.fuel_purchase.fuel,
      50,
      'untouched',
    );
  });
});
