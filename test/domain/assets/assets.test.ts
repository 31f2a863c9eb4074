/** /v1/assets: create, list with filters, lookup by external id, bad input, tenant isolation (docs/reference/wire.md §4.24, §9). */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp, type TestCompany } from '../../helper.js';
import {
  DATETIME,
  USER_SUMMARY_KEYS,
  assertError,
  assertKeySet,
  assertList,
  createUser,
  idsOf,
  totalOf,
} from '../../http/fixtures.js';
import { ASSET_KEYS, createAsset } from '../../http/fleet-record-fixtures.js';

eachDialect('assets', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let other: TestCompany;
  let admin: any;
  let a1: any; // "Reefer 12", active
  let a2: any; // "Flatbed 7", deactivated
  let a3: any; // "reefer 120", active
  let group: any;

  before(async () => {
    t = await getApp();
    other = await t.newCompany('Other Co');
    admin = await createUser(t, { role: 'admin' });
    group = (await t.call({ method: 'POST', url: '/v1/groups', payload: { name: 'Yard' } })).body.group;
    a1 = await createAsset(t, {
      name: 'Reefer 12',
      type: 'reefer',
      vin: '1JJV532D8KL123456',
      make: 'Wabash',
      model: 'ArcticLite',
      year: 2019,
      license_plate_state: 'NE',
      license_plate_number: 'TR-1234',
      gvwr: 68000,
      gawr: 34000,
      length: 53,
      axle: 2,
      leased: true,
      notes: 'Door seal replaced',
      group_ids: [group.id],
      external_ids_attributes: [{ external_id: 'TRL-12', integration_name: 'acme_tms' }],
    });
    a2 = await createAsset(t, {
      name: 'Flatbed 7',
      type: 'flatbed',
      status: 'deactivated',
      availability_status: 'out_of_service',
    });
    a3 = await createAsset(t, { name: 'reefer 120' });
  });

  test('POST answers 201 with every field of the asset, as sent', () => {
    assertKeySet(a1, ASSET_KEYS, 'asset');
    assert.equal(a1.name, 'Reefer 12');
    assert.equal(a1.status, 'active');
    assert.equal(a1.type, 'reefer');
    assert.equal(a1.year, '2019', 'year given as an integer comes back as a string');
    assert.deepEqual([a1.gvwr, a1.gawr, a1.length, a1.axle], [68000, 34000, 53, 2]);
    assert.deepEqual([a1.leased, a1.length_metric_units, a1.weight_metric_units], [true, false, false]);
    assert.deepEqual(a1.group_ids, [group.id]);
    assert.deepEqual(a1.external_ids, [{ external_id: 'TRL-12', integration_name: 'acme_tms' }]);
    assert.equal(a1.asset_gateway, null);
    assert.equal(a1.availability_details.availability_status, 'in_service');
    assert.match(a1.availability_details.updated_at, DATETIME);
    assertKeySet(a1.availability_details.updated_by_user, USER_SUMMARY_KEYS, 'updated_by_user');
    assert.equal(a1.availability_details.updated_by_user.id, admin.id, 'the acting admin');
  });

  test('defaults: type other, status active, nulls for what was not sent', () => {
    for (const k of [
      'custom_type',
      'vin',
      'make',
      'model',
      'year',
      'license_plate_state',
      'license_plate_number',
      'gvwr',
      'gawr',
      'length',
      'axle',
      'notes',
    ]) {
      assert.equal(a3[k], null, k);
    }
    assert.equal(a3.type, 'other');
    assert.equal(a3.status, 'active');
    assert.deepEqual(a3.group_ids, []);
    assert.deepEqual(a3.external_ids, []);
    assert.equal(a2.availability_details.availability_status, 'out_of_service');
  });

  test('list: assets first, pagination last, id order, exact totals across pages', async () => {
    const res = await t.call({ method: 'GET', url: '/v1/assets' });
    const items = assertList(res, 'assets', 'asset');
    assert.deepEqual(
      items.map((a) => a.id),
      [a1.id, a2.id, a3.id],
    );
    for (const a of items) assertKeySet(a, ASSET_KEYS, `asset ${a.id}`);
    assert.deepEqual(res.body.pagination, { per_page: 25, page_no: 1, total: 3 });
    const p2 = await t.call({ method: 'GET', url: '/v1/assets?per_page=2&page_no=2' });
    assert.deepEqual(idsOf(p2.body, 'assets', 'asset'), [a3.id]);
    assert.deepEqual(p2.body.pagination, { per_page: 2, page_no: 2, total: 3 });
  });

  test('filter name: a part of the name in any letter case; exact_match: the whole name', async () => {
    const cases: Array<[string, number[]]> = [
      ['name=reefer', [a1.id, a3.id]],
      ['name=REEFER%2012', [a1.id, a3.id]],
      ['name=reefer%2012&exact_match=true', [a1.id]],
      ['name=Reefer%2012&exact_match=false', [a1.id, a3.id]],
      ['name=reefer&exact_match=true', []],
      ['name=flat', [a2.id]],
      ['name=%25', []],
      ['name=', [a1.id, a2.id, a3.id]],
    ];
    for (const [q, ids] of cases) {
      const res = await t.call({ method: 'GET', url: `/v1/assets?${q}` });
      assertList(res, 'assets', 'asset');
      assert.deepEqual(idsOf(res.body, 'assets', 'asset'), ids, q);
      assert.equal(res.body.pagination.total, ids.length, q);
    }
  });

  test('filter status, alone and with name', async () => {
    const cases: Array<[string, number[]]> = [
      ['status=active', [a1.id, a3.id]],
      ['status=deactivated', [a2.id]],
      ['status=active&name=flat', []],
      ['status=active&name=120', [a3.id]],
    ];
    for (const [q, ids] of cases) {
      assert.deepEqual(
        idsOf((await t.call({ method: 'GET', url: `/v1/assets?${q}` })).body, 'assets', 'asset'),
        ids,
        q,
      );
    }
  });

  test('bad filter values are 400 naming the parameter', async () => {
    assertError(
      await t.call({ method: 'GET', url: '/v1/assets?status=parked' }),
      400,
      'status must be one of: active, deactivated',
    );
    assertError(
      await t.call({ method: 'GET', url: '/v1/assets?exact_match=maybe' }),
      400,
      'exact_match must be a boolean',
    );
  });

  test('lookup_by_external_id finds the asset; a miss is 404; both keys are required', async () => {
    const hit = await t.call({
      method: 'GET',
      url: '/v1/assets/lookup_by_external_id?external_id=TRL-12&integration_name=acme_tms',
    });
    assert.equal(hit.status, 200);
    assert.deepEqual(Object.keys(hit.body), ['asset']);
    assert.equal(hit.body.asset.id, a1.id);
    assertKeySet(hit.body.asset, ASSET_KEYS);
    assertError(
      await t.call({
        method: 'GET',
        url: '/v1/assets/lookup_by_external_id?external_id=TRL-12&integration_name=other_tms',
      }),
      404,
      'asset not found',
    );
    assertError(
      await t.call({
        method: 'GET',
        url: '/v1/assets/lookup_by_external_id?external_id=TRL-99&integration_name=acme_tms',
      }),
      404,
      'asset not found',
    );
    assertError(
      await t.call({ method: 'GET', url: '/v1/assets/lookup_by_external_id?external_id=TRL-12' }),
      400,
      'integration_name is required',
    );
    assertError(
      await t.call({ method: 'GET', url: '/v1/assets/lookup_by_external_id?integration_name=acme_tms' }),
      400,
      'external_id is required',
    );
    assertError(
      await t.call({ method: 'GET', url: '/v1/assets/lookup_by_external_id?external_id=&integration_name=acme_tms' }),
      400,
      'external_id must not be empty',
    );
  });

  test('bad input is a 400 or 404 naming the field, and stores nothing', async () => {
    const before = await totalOf(t, '/v1/assets');
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{}, 400, 'name is required'],
      [{ name: '   ' }, 400, 'name must not be empty'],
      [{ name: 5 }, 400, 'name must be a string'],
      [{ name: 'Reefer 12' }, 400, 'name "Reefer 12" is already taken'],
      [{ name: 'X1', status: 'parked' }, 400, 'status must be one of: active, deactivated'],
      [{ name: 'X1', gvwr: 'heavy' }, 400, 'gvwr must be a number'],
      [{ name: 'X1', gvwr: -5 }, 400, 'gvwr must be at least 0'],
      [{ name: 'X1', axle: 2.5 }, 400, 'axle must be an integer'],
      [{ name: 'X1', axle: 30 }, 400, 'axle must be at most 20'],
      [{ name: 'X1', leased: 'yes' }, 400, 'leased must be a boolean'],
      [{ name: 'X1', type: '' }, 400, 'type must not be empty'],
      [
        { name: 'X1', availability_status: 'broken' },
        400,
        'availability_status must be one of: in_service, out_of_service',
      ],
      [{ name: 'X1', group_ids: [987654] }, 404, 'group 987654 not found'],
      [{ name: 'X1', group_ids: ['a'] }, 400, 'group_ids[0] must be an integer'],
      [
        { name: 'X1', external_ids_attributes: [{ external_id: 'TRL-12', integration_name: 'acme_tms' }] },
        400,
        `external_id "TRL-12" of integration "acme_tms" already belongs to asset ${a1.id}`,
      ],
      [
        {
          name: 'X1',
          external_ids_attributes: [
            { external_id: 'E', integration_name: 'i' },
            { external_id: 'F', integration_name: 'i' },
          ],
        },
        400,
        'external_ids_attributes[1].integration_name "i" appears more than once',
      ],
      [
        { name: 'X1', external_ids_attributes: [{ external_id: ' ', integration_name: 'i' }] },
        400,
        'external_ids_attributes[0].external_id must not be empty',
      ],
      [
        { name: 'X1', external_ids_attributes: [{ external_id: 'E' }] },
        400,
        'external_ids_attributes[0].integration_name is required',
      ],
    ];
    for (const [payload, status, message] of cases) {
      assertError(await t.call({ method: 'POST', url: '/v1/assets', payload }), status, message);
    }
    assert.equal(await totalOf(t, '/v1/assets'), before, 'nothing stored');
  });

  test('a group of another company is not found; nothing is stored', async () => {
    const theirs = (await t.call({ method: 'POST', url: '/v1/groups', payload: { name: 'Theirs' }, as: other })).body
      .group;
    assertError(
      await t.call({ method: 'POST', url: '/v1/assets', payload: { name: 'Sneaky', group_ids: [theirs.id] } }),
      404,
      `group ${theirs.id} not found`,
    );
    assert.equal((await t.call({ method: 'GET', url: '/v1/assets?name=Sneaky' })).body.pagination.total, 0);
  });

  test('deleting a group takes it off its assets', async () => {
    const g = (await t.call({ method: 'POST', url: '/v1/groups', payload: { name: 'Temporary' } })).body.group;
    const a = await createAsset(t, { group_ids: [g.id, group.id] });
    assert.deepEqual(
      [...a.group_ids].sort((x: number, y: number) => x - y),
      [group.id, g.id].sort((x, y) => x - y),
    );
    assert.equal((await t.call({ method: 'DELETE', url: `/v1/groups/${g.id}` })).status, 200);
    const after = (
      await t.call({ method: 'GET', url: `/v1/assets?name=${encodeURIComponent(a.name)}&exact_match=true` })
    ).body.assets[0].asset;
    assert.deepEqual(after.group_ids, [group.id]);
  });

  test('tenant isolation: another company sees no assets, cannot look them up, and may reuse names and external ids', async () => {
    const res = await t.call({ method: 'GET', url: '/v1/assets', as: other });
    assert.deepEqual(assertList(res, 'assets', 'asset'), []);
    assert.equal(res.body.pagination.total, 0);
    assertError(
      await t.call({
        method: 'GET',
        url: '/v1/assets/lookup_by_external_id?external_id=TRL-12&integration_name=acme_tms',
        as: other,
      }),
      404,
      'asset not found',
    );
    const mine = await createAsset(t, {}, other);
    const twin = await createAsset(
      t,
      { name: 'Reefer 12', external_ids_attributes: [{ external_id: 'TRL-12', integration_name: 'acme_tms' }] },
      other,
    );
    assert.notEqual(twin.id, a1.id);
    const found = await t.call({
      method: 'GET',
      url: '/v1/assets/lookup_by_external_id?external_id=TRL-12&integration_name=acme_tms',
      as: other,
    });
    assert.equal(found.body.asset.id, twin.id);
    assert.deepEqual(idsOf((await t.call({ method: 'GET', url: '/v1/assets', as: other })).body, 'assets', 'asset'), [
      mine.id,
      twin.id,
    ]);
  });
});
