/** /v1/asset_locations and /v1/asset_locations/:id: what the telemetry pipeline stores, read back (empty until then). */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp, type TestCompany } from '../../helper.js';
import { assertError, assertKeySet, assertList } from '../../http/fixtures.js';
import { provisionDevice } from '../../../src/domain/devices/service.js';
import { addAssetLocation, createAsset, wire } from '../../http/fleet-record-fixtures.js';

const POINT_KEYS = ['id', 'located_at', 'lat', 'lon', 'bearing', 'speed', 'description', 'battery_voltage'];

eachDialect('asset locations', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let other: TestCompany;
  let a1: any;
  let a2: any;
  let theirs: any;

  before(async () => {
    t = await getApp();
    other = await t.newCompany('Other Co');
    a1 = await createAsset(t, { name: 'Trailer 1', vin: '1JJV532D8KL000001', make: 'Utility', model: '3000R' });
    a2 = await createAsset(t, { name: 'Trailer 2' });
    theirs = await createAsset(t, { name: 'Their trailer' }, other);
  });

  test('before the telemetry pipeline stores anything: every asset, current_location null; history empty', async () => {
    const res = await t.call({ method: 'GET', url: '/v1/asset_locations' });
    const items = assertList(res, 'asset_locations', 'asset_location');
    assert.deepEqual(
      items.map((i) => i.asset.id),
      [a1.id, a2.id],
    );
    for (const i of items) {
      assertKeySet(i, ['asset', 'asset_gateway', 'current_location']);
      assertKeySet(i.asset, [
        'id',
        'name',
        'status',
        'type',
        'vin',
        'license_plate_state',
        'license_plate_number',
        'make',
        'model',
      ]);
      assert.equal(i.current_location, null);
      assert.equal(i.asset_gateway, null);
    }
    assert.deepEqual(items[0].asset, {
      id: a1.id,
      name: 'Trailer 1',
      status: 'active',
      type: 'other',
      vin: '1JJV532D8KL000001',
      license_plate_state: null,
      license_plate_number: null,
      make: 'Utility',
      model: '3000R',
    });
    const hist = await t.call({ method: 'GET', url: `/v1/asset_locations/${a1.id}` });
    assert.deepEqual(assertList(hist, 'asset_locations', 'asset_location'), []);
    assert.deepEqual(hist.body.pagination, { per_page: 25, page_no: 1, total: 0 });
  });

  test('the latest fix of each asset is its current_location; the gateway is shown', async () => {
    await addAssetLocation(t, t.company.id, a1.id, new Date('2026-03-01T10:00:00Z'), 39.0, -94.5);
    const last = await addAssetLocation(t, t.company.id, a1.id, new Date('2026-03-01T12:00:00Z'), 39.2, -94.7);
    await addAssetLocation(t, t.company.id, a1.id, new Date('2026-03-01T11:00:00Z'), 39.1, -94.6);
    await addAssetLocation(t, other.id, theirs.id, new Date('2026-03-02T00:00:00Z'));
    const gw = await provisionDevice(
      t.db,
      { companyId: t.company.id },
      { identifier: `GW-${dialect}-1`, assetId: a1.id },
    );
    const items = assertList(
      await t.call({ method: 'GET', url: '/v1/asset_locations' }),
      'asset_locations',
      'asset_location',
    );
    const one = items.find((i) => i.asset.id === a1.id);
    assertKeySet(one.current_location, POINT_KEYS, 'current_location');
    assert.deepEqual(one.current_location, {
      id: last.id,
      located_at: '2026-03-01T12:00:00Z',
      lat: 39.2,
      lon: -94.7,
      bearing: 180,
      speed: 0,
      description: 'Kansas City, MO',
      battery_voltage: 12.6,
    });
    assert.deepEqual(one.asset_gateway, { id: gw.id, identifier: `GW-${dialect}-1`, active: true });
    assert.equal(items.find((i) => i.asset.id === a2.id).current_location, null);
    // The asset object shows its gateway too.
    const asset = (await t.call({ method: 'GET', url: '/v1/assets?name=Trailer%201&exact_match=true' })).body.assets[0]
      .asset;
    assert.deepEqual(asset.asset_gateway, { id: gw.id, identifier: `GW-${dialect}-1`, active: true });
  });

  test('asset_ids narrows the list; pagination counts assets', async () => {
    const res = await t.call({ method: 'GET', url: `/v1/asset_locations?asset_ids[]=${a2.id}` });
    assert.deepEqual(
      assertList(res, 'asset_locations', 'asset_location').map((i) => i.asset.id),
      [a2.id],
    );
    const page = await t.call({ method: 'GET', url: '/v1/asset_locations?per_page=1&page_no=2' });
    assert.deepEqual(page.body.pagination, { per_page: 1, page_no: 2, total: 2 });
    assert.equal(page.body.asset_locations[0].asset_location.asset.id, a2.id);
  });

  test('history: every fix in time order, paginated', async () => {
    const res = await t.call({ method: 'GET', url: `/v1/asset_locations/${a1.id}` });
    const items = assertList(res, 'asset_locations', 'asset_location');
    assert.deepEqual(
      items.map((p) => p.located_at),
      ['2026-03-01T10:00:00Z', '2026-03-01T11:00:00Z', '2026-03-01T12:00:00Z'],
    );
    for (const p of items) assertKeySet(p, POINT_KEYS);
    const p2 = await t.call({ method: 'GET', url: `/v1/asset_locations/${a1.id}?per_page=2&page_no=2` });
    assert.deepEqual(
      p2.body.asset_locations.map((w: any) => w.asset_location.located_at),
      ['2026-03-01T12:00:00Z'],
    );
    assert.deepEqual(p2.body.pagination, { per_page: 2, page_no: 2, total: 3 });
  });

  test('history window: start_date..end_date inclusive, in X-Time-Zone days', async () => {
    await addAssetLocation(t, t.company.id, a2.id, new Date('2026-03-05T03:00:00Z')); // Mar 4, 22:00 in Chicago
    await addAssetLocation(t, t.company.id, a2.id, new Date('2026-03-06T12:00:00Z'));
    const at = async (q: string, headers: Record<string, string> = {}) =>
      (await t.call({ method: 'GET', url: `/v1/asset_locations/${a2.id}?${q}`, headers })).body.asset_locations.map(
        (w: any) => w.asset_location.located_at,
      );
    assert.deepEqual(await at('start_date=2026-03-05&end_date=2026-03-05'), ['2026-03-05T03:00:00Z']);
    assert.deepEqual(
      await at('start_date=2026-03-05&end_date=2026-03-05', { 'x-time-zone': 'Central Time (US & Canada)' }),
      [],
    );
    // Read in Chicago's days, and written in Chicago time: the same instant.
    assert.deepEqual(
      await at('start_date=2026-03-04&end_date=2026-03-04', { 'x-time-zone': 'Central Time (US & Canada)' }),
      ['2026-03-04T21:00:00-06:00'],
    );
    assert.deepEqual(await at('start_date=2026-03-06'), ['2026-03-06T12:00:00Z']);
    assert.deepEqual(await at('end_date=2026-03-05'), ['2026-03-05T03:00:00Z']);
    assertError(
      await t.call({ method: 'GET', url: `/v1/asset_locations/${a2.id}?start_date=2026-03-06&end_date=2026-03-05` }),
      400,
      'end_date must not be before start_date',
    );
    assertError(
      await t.call({ method: 'GET', url: `/v1/asset_locations/${a2.id}?start_date=2026-02-30` }),
      400,
      'start_date is not a valid date (2026-02-30)',
    );
    assertError(
      await t.call({ method: 'GET', url: `/v1/asset_locations/${a2.id}?start_date=March` }),
      400,
      'start_date has an invalid format',
    );
  });

  test('unknown and foreign asset ids are 404; the other company never sees these fixes', async () => {
    assertError(await t.call({ method: 'GET', url: '/v1/asset_locations/987654' }), 404, 'asset 987654 not found');
    assertError(
      await t.call({ method: 'GET', url: `/v1/asset_locations/${a1.id}`, as: other }),
      404,
      `asset ${a1.id} not found`,
    );
    assertError(
      await t.call({ method: 'GET', url: `/v1/asset_locations/${theirs.id}` }),
      404,
      `asset ${theirs.id} not found`,
    );
    assertError(await t.call({ method: 'GET', url: '/v1/asset_locations/abc' }), 400, 'id must be an integer');
    const mine = assertList(
      await t.call({ method: 'GET', url: '/v1/asset_locations', as: other }),
      'asset_locations',
      'asset_location',
    );
    assert.deepEqual(
      mine.map((i) => i.asset.id),
      [theirs.id],
    );
    assert.equal(mine[0].current_location.located_at, wire('2026-03-02T00:00:00Z'));
    assert.equal(mine[0].asset_gateway, null);
    const ids = assertList(
      await t.call({ method: 'GET', url: `/v1/asset_locations?asset_ids=${a1.id}`, as: other }),
      'asset_locations',
      'asset_location',
    );
    assert.deepEqual(ids, []);
  });
});
