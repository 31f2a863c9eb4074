/** GET /v1/fuel_purchases filters (docs/reference/wire.md §9): date window with its 7-day default, vehicle_ids, fuel_type, jurisdictions, vehicle_type, source. */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../../helper.js';
import { assertError, assertList, createVehicle } from '../../http/fixtures.js';
import { createFuelPurchase, today } from '../../http/record-fixtures.js';

eachDialect('fuel purchases: filters', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let ifta: any;
  let local: any;
  const p: Record<string, any> = {};

  const ids = async (q: string, headers: Record<string, string> = {}) => {
    const res = await t.call({ method: 'GET', url: `/v1/fuel_purchases${q}`, headers });
    const items = assertList(res, 'fuel_purchases', 'fuel_purchase');
    assert.equal(res.body.pagination.total, items.length, `${q}: total`);
    return items.map((f) => f.id);
  };

  before(async () => {
    t = await getApp();
    ifta = await createVehicle(t, { ifta: true });
    local = await createVehicle(t, { ifta: false });
    p.today = await createFuelPurchase(t, {
      purchased_at: today(),
      vehicle_id: ifta.id,
      jurisdiction: 'TX',
      fuel_type: 'diesel',
    });
    p.threeAgo = await createFuelPurchase(t, {
      purchased_at: today(-3),
      vehicle_id: local.id,
      jurisdiction: 'OK',
      fuel_type: 'gasoline',
      source: 'driver',
    });
    p.sevenAgo = await createFuelPurchase(t, {
      purchased_at: today(-7),
      vehicle_id: ifta.id,
      jurisdiction: 'ON',
      fuel_type: 'diesel',
      source: 'fuel_card',
    });
    p.eightAgo = await createFuelPurchase(t, {
      purchased_at: today(-8),
      vehicle_id: local.id,
      jurisdiction: 'TX',
      fuel_type: 'diesel',
    });
    p.old = await createFuelPurchase(t, { purchased_at: '2023-06-15T12:00:00Z', jurisdiction: 'BC' });
    p.edge = await createFuelPurchase(t, { purchased_at: '2023-06-16T03:00:00Z', jurisdiction: 'BC' });
  });

  test('without dates the window is the last 7 days up to now (today − 7 inclusive)', async () => {
    assert.deepEqual(await ids(''), [p.today.id, p.threeAgo.id, p.sevenAgo.id]);
  });

  test('start_date and end_date are inclusive days; end_date alone reaches 7 days back', async () => {
    assert.deepEqual(await ids(`?start_date=${today(-8)}&end_date=${today(-3)}`), [
      p.threeAgo.id,
      p.sevenAgo.id,
      p.eightAgo.id,
    ]);
    assert.deepEqual(await ids(`?start_date=${today(-3)}&end_date=${today(-3)}`), [p.threeAgo.id]);
    assert.deepEqual(await ids(`?end_date=${today(-1)}`), [p.threeAgo.id, p.sevenAgo.id, p.eightAgo.id]);
    assert.deepEqual(await ids('?start_date=2023-06-01'), [
      p.today.id,
      p.threeAgo.id,
      p.sevenAgo.id,
      p.eightAgo.id,
      p.old.id,
      p.edge.id,
    ]);
    assert.deepEqual(await ids('?end_date=2023-06-20'), [p.old.id, p.edge.id]);
  });

  test('days are X-Time-Zone days', async () => {
    assert.deepEqual(await ids('?start_date=2023-06-16&end_date=2023-06-16'), [p.edge.id]);
    // 03:00 UTC on June 16 is the evening of June 15 on the Pacific coast
    const pacific = { 'X-Time-Zone': 'Pacific Time (US & Canada)' };
    assert.deepEqual(await ids('?start_date=2023-06-15&end_date=2023-06-15', pacific), [p.old.id, p.edge.id]);
    assert.deepEqual(await ids('?start_date=2023-06-16&end_date=2023-06-16', pacific), []);
  });

  test('vehicle_ids in every array syntax', async () => {
    for (const q of [`vehicle_ids=${ifta.id}`, `vehicle_ids[]=${ifta.id}`, `vehicle_ids[0]=${ifta.id}`]) {
      assert.deepEqual(await ids(`?${q}`), [p.today.id, p.sevenAgo.id], q);
    }
    for (const q of [
      `vehicle_ids=${ifta.id},${local.id}`,
      `vehicle_ids[]=${ifta.id}&vehicle_ids[]=${local.id}`,
      `vehicle_ids=${ifta.id}&vehicle_ids=${local.id}`,
    ]) {
      assert.deepEqual(await ids(`?${q}`), [p.today.id, p.threeAgo.id, p.sevenAgo.id], q);
    }
    assert.deepEqual(await ids('?vehicle_ids=999999'), []);
  });

  test('fuel_type', async () => {
    assert.deepEqual(await ids('?fuel_type=gasoline'), [p.threeAgo.id]);
    assert.deepEqual(await ids('?fuel_type=diesel'), [p.today.id, p.sevenAgo.id]);
    assert.deepEqual(await ids('?fuel_type=propane'), []);
  });

  test('jurisdictions: any syntax, any letter case', async () => {
    assert.deepEqual(await ids('?jurisdictions=TX'), [p.today.id]);
    assert.deepEqual(await ids('?jurisdictions=tx,on'), [p.today.id, p.sevenAgo.id]);
    assert.deepEqual(await ids('?jurisdictions[]=OK&jurisdictions[]=ON'), [p.threeAgo.id, p.sevenAgo.id]);
    assert.deepEqual(await ids(`?jurisdictions[0]=BC&start_date=2023-01-01`), [p.old.id, p.edge.id]);
  });

  test('vehicle_type: ifta keeps purchases of IFTA vehicles; all keeps everything', async () => {
    assert.deepEqual(await ids('?vehicle_type=ifta'), [p.today.id, p.sevenAgo.id]);
    assert.deepEqual(await ids('?vehicle_type=all'), [p.today.id, p.threeAgo.id, p.sevenAgo.id]);
  });

  test('source', async () => {
    assert.deepEqual(await ids('?source=api'), [p.today.id]);
    assert.deepEqual(await ids('?source=driver'), [p.threeAgo.id]);
    assert.deepEqual(await ids('?source=fuel_card'), [p.sevenAgo.id]);
  });

  test('filters combine', async () => {
    assert.deepEqual(await ids(`?start_date=${today(-30)}&fuel_type=diesel&jurisdictions=TX&vehicle_ids=${local.id}`), [
      p.eightAgo.id,
    ]);
  });

  describe('bad values are 400 naming the parameter', () => {
    const cases: Array<[string, string | RegExp]> = [
      ['jurisdictions=ZZ', /^jurisdictions must be the two-letter code .*got "ZZ"$/],
      ['jurisdictions=TX,XX', /jurisdictions.*"XX"/],
      ['fuel_type=coal', /fuel_type must be one of/],
      ['vehicle_type=trucks', 'vehicle_type must be one of: ifta, all'],
      ['source=magic', /source must be one of/],
      ['vehicle_ids=abc', /vehicle_ids/],
      ['start_date=2024-13-01', 'start_date is not a valid date (2024-13-01)'],
      ['end_date=tomorrow', /end_date/],
      ['start_date=2024-02-02&end_date=2024-02-01', 'end_date must not be before start_date'],
      ['per_page=0', /per_page/],
    ];
    for (const [q, message] of cases) {
      test(q, async () => assertError(await t.call({ method: 'GET', url: `/v1/fuel_purchases?${q}` }), 400, message));
    }
  });

  test('pagination clamps per_page at 100 and keeps total exact', async () => {
    const res = await t.call({ method: 'GET', url: '/v1/fuel_purchases?start_date=2000-01-01&per_page=500&page_no=1' });
    assertList(res, 'fuel_purchases', 'fuel_purchase');
    assert.deepEqual(res.body.pagination, { per_page: 100, page_no: 1, total: 6 });
    const page2 = await t.call({ method: 'GET', url: '/v1/fuel_purchases?start_date=2000-01-01&per_page=4&page_no=2' });
    assert.deepEqual(
      page2.body.fuel_purchases.map((w: any) => w.fuel_purchase.id),
      [p.old.id, p.edge.id],
    );
    assert.deepEqual(page2.body.pagination, { per_page: 4, page_no: 2, total: 6 });
  });

  test('another company sees none of them', async () => {
    const other = await t.newCompany('Other Co');
    const res = await t.call({ method: 'GET', url: '/v1/fuel_purchases?start_date=2000-01-01', as: other });
    assert.deepEqual(assertList(res, 'fuel_purchases', 'fuel_purchase'), []);
    assert.equal(res.body.pagination.total, 0);
  });
});
