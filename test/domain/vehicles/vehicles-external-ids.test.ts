/**
 * External ids of vehicles (docs/vehicles.md): the rules of assets and inspection reports — set on
 * create, replaced by PUT (`[]` clears, absent keeps), one per integration, a pair naming at most one
 * vehicle of a company — answered on every vehicle. Refusals change nothing.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../../helper.js';
import { assertError, createVehicle } from '../../http/fixtures.js';
import { plainVehicle } from './vehicle-bodies.js';

eachDialect('vehicles: external ids', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;

  before(async () => {
    t = await getApp();
  });

  const get = async (id: number) => (await t.call({ method: 'GET', url: `/v1/vehicles/${id}` })).body;
  const put = (id: number, payload: unknown) =>
    t.call({ method: 'PUT', url: `/v1/vehicles/${id}`, payload: payload as any });

  test('POST with external_ids_attributes: 201 and the exact vehicle, ids trimmed, by integration name', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/v1/vehicles',
      payload: {
        number: 'EX-1',
        external_ids_attributes: [
          { external_id: ' 987 ', integration_name: 'generic_tms' },
          { external_id: 'A-1', integration_name: 'erp' },
        ],
      },
    });
    assert.equal(res.status, 201, res.raw);
    const v = res.body.vehicle;
    assert.deepEqual(res.body, {
      vehicle: plainVehicle(v, {
        external_ids: [
          { external_id: 'A-1', integration_name: 'erp' },
          { external_id: '987', integration_name: 'generic_tms' },
        ],
      }),
    });
    assert.deepEqual(await get(v.id), res.body);
    const list = await t.call({ method: 'GET', url: '/v1/vehicles?per_page=100' });
    assert.deepEqual(
      list.body.vehicles.find((x: any) => x.vehicle.id === v.id),
      res.body,
    );
  });

  test('PUT replaces them; without the key they stay; [] clears them', async () => {
    const v = await createVehicle(t, {
      number: 'EX-2',
      external_ids_attributes: [{ external_id: '1', integration_name: 'tms' }],
    });
    let res = await put(v.id, { external_ids_attributes: [{ external_id: '2', integration_name: 'payroll' }] });
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(
      res.body.vehicle,
      plainVehicle(v, {
        updated_at: res.body.vehicle.updated_at,
        external_ids: [{ external_id: '2', integration_name: 'payroll' }],
      }),
    );
    res = await put(v.id, { make: 'Mack' });
    assert.deepEqual(res.body.vehicle.external_ids, [{ external_id: '2', integration_name: 'payroll' }]);
    res = await put(v.id, { external_ids_attributes: [] });
    assert.deepEqual(res.body.vehicle.external_ids, []);
    // The freed pair can go to another vehicle.
    const w = await createVehicle(t, {
      number: 'EX-3',
      external_ids_attributes: [{ external_id: '2', integration_name: 'payroll' }],
    });
    assert.deepEqual(w.external_ids, [{ external_id: '2', integration_name: 'payroll' }]);
  });

  test("another vehicle's pair, two ids of one integration, empty values → 400 naming it, nothing changes", async () => {
    const holder = await createVehicle(t, {
      number: 'EX-4',
      external_ids_attributes: [{ external_id: 'K-9', integration_name: 'tms' }],
    });
    const v = await createVehicle(t, {
      number: 'EX-5',
      external_ids_attributes: [{ external_id: 'K-10', integration_name: 'tms' }],
    });
    const before = await get(v.id);
    assertError(
      await put(v.id, { external_ids_attributes: [{ external_id: 'K-9', integration_name: 'tms' }] }),
      400,
      `external_id "K-9" of integration "tms" already belongs to vehicle ${holder.id}`,
    );
    assertError(
      await put(v.id, {
        external_ids_attributes: [
          { external_id: 'a', integration_name: 'x' },
          { external_id: 'b', integration_name: 'x' },
        ],
      }),
      400,
      'external_ids_attributes[1].integration_name "x" appears more than once',
    );
    assertError(
      await put(v.id, { external_ids_attributes: [{ external_id: '  ', integration_name: 'x' }] }),
      400,
      'external_ids_attributes[0].external_id must not be empty',
    );
    assertError(await put(v.id, { external_ids_attributes: [{ external_id: 'z' }] }), 400, /integration_name/);
    assert.deepEqual(await get(v.id), before);
    const total = (await t.call({ method: 'GET', url: '/v1/vehicles' })).body.pagination.total;
    assertError(
      await t.call({
        method: 'POST',
        url: '/v1/vehicles',
        payload: { number: 'EX-6', external_ids_attributes: [{ external_id: 'K-9', integration_name: 'tms' }] },
      }),
      400,
      `external_id "K-9" of integration "tms" already belongs to vehicle ${holder.id}`,
    );
    assert.equal((await t.call({ method: 'GET', url: '/v1/vehicles' })).body.pagination.total, total);
  });

  test('a pair is per company and per kind: another company, or an asset, may hold it too', async () => {
    await createVehicle(t, {
      number: 'EX-7',
      external_ids_attributes: [{ external_id: 'SAME', integration_name: 'tms' }],
    });
    const other = await t.newCompany('Other Fleet');
    const theirs = await createVehicle(
      t,
      { number: 'EX-7', external_ids_attributes: [{ external_id: 'SAME', integration_name: 'tms' }] },
      other,
    );
    assert.deepEqual(theirs.external_ids, [{ external_id: 'SAME', integration_name: 'tms' }]);
    const asset = await t.call({
      method: 'POST',
      url: '/v1/assets',
      payload: { name: 'Trailer SAME', external_ids_attributes: [{ external_id: 'SAME', integration_name: 'tms' }] },
    });
    assert.equal(asset.status, 201, asset.raw);
  });
});
