/**
 * /v2/asset_locations/:id: an asset's history reported by its gateway through the device API, read a
 * page at a time with the cursor; both dates required; per_page up to 500; UTC days unless X-Time-Zone.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp, type TestCompany } from '../../helper.js';
import { assertError } from '../../http/fixtures.js';
import { provisionDevice } from '../../../src/domain/devices/service.js';
import { post, settle } from '../../telemetry/fixtures.js';
import { createAsset } from '../../http/fleet-record-fixtures.js';

const DAY = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
const at = (h: number, m: number) => new Date(Date.parse(`${DAY}T00:00:00Z`) + (h * 60 + m) * 60_000).toISOString();

eachDialect('asset location history, v2', (dialect) => {
  const getApp = useApp(dialect, { TELEMETRY_REORDER_WINDOW_S: '0', TELEMETRY_SWEEP_MS: '0' });
  let t: TestApp;
  let other: TestCompany;
  let asset: any;
  /** Located times of the fixes sent: seven from 01:00 to 01:06 UTC, and one at 23:30 UTC. */
  const times = [...[0, 1, 2, 3, 4, 5, 6].map((m) => at(1, m)), at(23, 30)];

  before(async () => {
    t = await getApp();
    other = await t.newCompany('Other Co');
    asset = await createAsset(t, { name: `Trailer ${dialect}` });
    const gw = await provisionDevice(
      t.db,
      { companyId: t.company.id },
      { identifier: `GW2-${dialect}`, assetId: asset.id },
    );
    // Sent out of order: the history comes back in time order all the same.
    const records = times
      .map((time, i) => ({ seq: i + 1, type: 'location', time, lat: 41.8 + i / 1000, lon: -87.6, speed_kph: 0 }))
      .reverse();
    const res = await post(t, gw.device_token, { records });
    assert.equal(res.body.accepted, times.length, JSON.stringify(res.body));
    await settle(t);
  });

  const get = (q: string, headers: Record<string, string> = {}, as?: TestCompany) =>
    t.call({ method: 'GET', url: `/v2/asset_locations/${asset.id}?${q}`, headers, as });

  test('pages of per_page follow next_cursor to the end, each location once, in time order', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: any = await get(`start_date=${DAY}&end_date=${DAY}&per_page=3${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(Object.keys(res.body), ['asset_locations', 'pagination']);
      assert.equal(res.body.pagination.per_page, 3);
      seen.push(...res.body.asset_locations.map((i: any) => i.asset_location.located_at));
      cursor = res.body.pagination.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    assert.equal(pages, 3);
    assert.deepEqual(
      seen,
      times.map((x) => x.replace('.000Z', 'Z')),
    );
    const [first] = (await get(`start_date=${DAY}&end_date=${DAY}&per_page=1`)).body.asset_locations;
    assert.deepEqual(Object.keys(first.asset_location), [
      'id',
      'located_at',
      'lat',
      'lon',
      'bearing',
      'speed',
      'description',
      'battery_voltage',
    ]);
    assert.equal(first.asset_location.lat, 41.8);
  });

  test('per_page: default 25, at most 500; the last page has next_cursor null', async () => {
    const all = await get(`start_date=${DAY}&end_date=${DAY}`);
    assert.deepEqual(all.body.pagination, { per_page: 25, next_cursor: null });
    assert.equal(all.body.asset_locations.length, times.length);
    assert.equal((await get(`start_date=${DAY}&end_date=${DAY}&per_page=1000`)).body.pagination.per_page, 500);
  });

  test('days are UTC unless X-Time-Zone says otherwise', async () => {
    // 23:30 UTC is 18:30 in Chicago (CDT/CST both keep it on the same day); 01:00–01:06 UTC is the evening before there.
    const chicago = await get(`start_date=${DAY}&end_date=${DAY}`, { 'x-time-zone': 'Central Time (US & Canada)' });
    // Written in that zone, with its offset (the same instant).
    const [located] = chicago.body.asset_locations.map((i: any) => i.asset_location.located_at);
    assert.match(located, new RegExp(`^${DAY}T18:30:00-05:00$|^${DAY}T17:30:00-06:00$`));
    assert.equal(Date.parse(located), Date.parse(at(23, 30)));
  });

  test("errors: both dates required, a cursor of another kind, another company's asset", async () => {
    assertError(await get(`end_date=${DAY}`), 400, 'start_date is required');
    assertError(await get(`start_date=${DAY}`), 400, 'end_date is required');
    assertError(
      await get(`start_date=${DAY}&end_date=${DAY}&cursor=abc`),
      400,
      'cursor is not a next_cursor of this endpoint',
    );
    assertError(await get(`start_date=${DAY}&end_date=${DAY}`, {}, other), 404, `asset ${asset.id} not found`);
  });
});
