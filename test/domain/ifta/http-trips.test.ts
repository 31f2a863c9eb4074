/**
 * GET /v1/ifta/trips and /v1/ifta/summary on both databases: wire shape (docs/reference/wire.md §4.10), per-state distances
 * in miles summing to the odometer, stable ids, every filter, company-local days under X-Time-Zone,
 * late points recomputed on the next read, IFTA vehicles only, tenancy, and records sent through the
 * device API.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { eachDialect, type TestApp } from '../../helper.js';
import { assertError, assertKeySet } from '../../http/fixtures.js';
import { rig, send, settle, DAY } from '../../telemetry/fixtures.js';
import { useApp } from '../../helper.js';
import { along, km } from './tracks.js';
import { SUMMARY_KEYS, TRIP_KEYS, get, items, mi, near, store, unit, type Unit } from './http-fixtures.js';

// Where the 105th meridian crosses the Colorado–Wyoming line in the boundary data (test/domain/ifta/routes.test.ts).
const CO_WY = 40.99835;

eachDialect('ifta trips and summary', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let v1: Unit, v2: Unit, v3: Unit;
  const url = (q: string) => `/v1/ifta/trips?start_date=2024-03-04&end_date=2024-03-05${q}`;

  before(async () => {
    t = await getApp();
    v1 = await unit(t, { fuel_type: 'diesel' });
    v2 = await unit(t, { fuel_type: 'gasoline' });
    v3 = await unit(t, { fuel_type: 'diesel', ifta: false });
    // v1: 2024-03-04 14:00Z, north on the 105th meridian from Colorado into Wyoming.
    await store(
      t,
      v1,
      along(
        [
          [40.8, -105],
          [41.2, -105],
        ],
        { t0: Date.parse('2024-03-04T14:00:00Z'), odo0: 1000 },
      ).track,
    );
    // v2: across UTC midnight of 03-05 (23:30 to 00:30 Eastern, 04:30Z to 05:30Z), in Kansas.
    await store(
      t,
      v2,
      along(
        [
          [38.5, -99.5],
          [38.5, -98.5],
        ],
        { t0: Date.parse('2024-03-05T04:30:00Z'), kph: 80, odo0: 2000 },
      ).track,
    );
    await store(
      t,
      v3,
      along(
        [
          [40.8, -105],
          [41.2, -105],
        ],
        { t0: Date.parse('2024-03-04T14:00:00Z') },
      ).track,
    );
  });

  test('one row per vehicle, jurisdiction and day, split at the border, in miles, summing to the odometer', async () => {
    const rows = items(await get(t, url(`&vehicle_ids=${v1.vehicle.id}`))).filter(
      (r) => r.vehicle.id === v1.vehicle.id,
    );
    assert.deepEqual(
      rows.map((r) => [r.date, r.jurisdiction]),
      [
        ['2024-03-04', 'CO'],
        ['2024-03-04', 'WY'],
      ],
    );
    for (const r of rows) assertKeySet(r, TRIP_KEYS, 'ifta_trip');
    const [co, wy] = rows;
    near(co.distance, mi(km([40.8, -105], [CO_WY, -105])));
    near(wy.distance, mi(km([CO_WY, -105], [41.2, -105])));
    near(co.distance + wy.distance, mi(km([40.8, -105], [41.2, -105])), 0.0005);
    assert.equal(co.start_odometer, Math.round(mi(1000) * 100) / 100);
    assert.equal(co.end_odometer, wy.start_odometer);
    near(wy.end_odometer - co.start_odometer, co.distance + wy.distance, 0.0005);
    assert.equal(co.calibrated_start_odometer, null);
    assert.equal(co.end_lat, wy.start_lat);
    assert.ok(Math.abs(co.end_lat - CO_WY) < 1e-4);
    assert.equal(co.start_lat, 40.8);
    assert.equal(co.time_zone, 'Eastern Time (US & Canada)');
    assert.deepEqual(Object.keys(co.vehicle).sort(), ['id', 'make', 'metric_units', 'model', 'number', 'vin', 'year']);
    assert.equal(co.vehicle.vin, v1.vehicle.vin);
    assert.ok(Number.isInteger(co.id) && co.id !== wy.id);
  });

  test('ids stay the same from one read to the next and whatever the time zone', async () => {
    const a = items(await get(t, url('')));
    const b = items(await get(t, url(''), { 'X-Time-Zone': 'UTC' }));
    const key = (r: any) => `${r.vehicle.id}|${r.date}|${r.jurisdiction}`;
    const ids = new Map(a.map((r) => [key(r), r.id]));
    for (const r of b) if (ids.has(key(r))) assert.equal(r.id, ids.get(key(r)));
    assert.deepEqual(
      items(await get(t, url(''))).map((r) => r.id),
      a.map((r) => r.id),
    );
  });

  test('filters: jurisdictions (any case, any array syntax), vehicle_ids, fuel_type; only IFTA vehicles; a bad code is a 400', async () => {
    const wy = items(await get(t, url('&jurisdictions[]=wy')));
    assert.deepEqual(
      wy.map((r) => [r.vehicle.id, r.jurisdiction]),
      [[v1.vehicle.id, 'WY']],
    );
    assert.equal(items(await get(t, url('&jurisdictions=CO,WY'))).length, 2);
    assert.deepEqual(
      [...new Set(items(await get(t, url(`&vehicle_ids[]=${v2.vehicle.id}`))).map((r) => r.vehicle.id))],
      [v2.vehicle.id],
    );
    assert.deepEqual(
      [...new Set(items(await get(t, url('&fuel_type=gasoline'))).map((r) => r.vehicle.id))],
      [v2.vehicle.id],
    );
    const all = items(await get(t, url('')));
    assert.ok(!all.some((r) => r.vehicle.id === v3.vehicle.id), 'a vehicle with ifta=false is not reported');
    assertError(await t.call({ method: 'GET', url: url('&jurisdictions=XX') }), 400, /jurisdictions/);
    assertError(
      await t.call({ method: 'GET', url: '/v1/ifta/trips?start_date=2024-03-05&end_date=2024-03-04' }),
      400,
      /end_date/,
    );
  });

  test('days are company-local: X-Time-Zone moves the cut at midnight', async () => {
    const q = url(`&vehicle_ids=${v2.vehicle.id}`);
    const eastern = items(await get(t, q));
    assert.deepEqual(
      eastern.map((r) => [r.date, r.jurisdiction]),
      [
        ['2024-03-04', 'KS'],
        ['2024-03-05', 'KS'],
      ],
    );
    const utc = items(await get(t, q, { 'X-Time-Zone': 'UTC' }));
    assert.deepEqual(
      utc.map((r) => [r.date, r.jurisdiction, r.time_zone]),
      [['2024-03-05', 'KS', 'UTC']],
    );
    near(eastern[0].distance + eastern[1].distance, utc[0].distance, 0.0005);
    near(eastern[0].distance, mi(80 * 0.5), 0.01);
    assert.equal(eastern[0].end_odometer, eastern[1].start_odometer);
    const central = items(await get(t, q, { 'X-Time-Zone': 'Central Time (US & Canada)' }));
    assert.deepEqual(
      central.map((r) => r.date),
      ['2024-03-04'],
    );
  });

  test('the summary: distance per vehicle and jurisdiction over the range, under the ifta_trips keys', async () => {
    const body = await get(t, '/v1/ifta/summary?start_date=2024-03-01&end_date=2024-03-31');
    const rows = items(body);
    for (const r of rows) assertKeySet(r, SUMMARY_KEYS, 'summary ifta_trip');
    assert.deepEqual(
      rows.map((r) => [r.vehicle.id, r.jurisdiction]),
      [
        [v1.vehicle.id, 'CO'],
        [v1.vehicle.id, 'WY'],
        [v2.vehicle.id, 'KS'],
      ],
    );
    assert.deepEqual(body.pagination, { per_page: 25, page_no: 1, total: 3 });
    const trips = items(
      await get(t, `/v1/ifta/trips?start_date=2024-03-01&end_date=2024-03-31&vehicle_ids=${v2.vehicle.id}`),
    );
    near(
      rows[2].distance,
      trips.reduce((s, r) => s + r.distance, 0),
      0.001,
    );
    const page2 = await get(t, '/v1/ifta/summary?start_date=2024-03-01&end_date=2024-03-31&per_page=2&page_no=2');
    assert.deepEqual(
      items(page2).map((r) => r.jurisdiction),
      ['KS'],
    );
  });

  test('late points: records stored after a read, for an earlier time, are in the next read', async () => {
    const q = `/v1/ifta/summary?start_date=2024-03-04&end_date=2024-03-04&vehicle_ids=${v1.vehicle.id}&jurisdictions=CO`;
    const before = items(await get(t, q))[0].distance;
    const late = along(
      [
        [40.6, -105],
        [40.8, -105],
      ],
      { t0: Date.parse('2024-03-04T13:00:00Z'), odo0: 1000 - km([40.6, -105], [40.8, -105]) },
    );
    await store(t, v1, late.track);
    const after = items(await get(t, q))[0].distance;
    near(after - before, mi(late.km), 0.01);
    const co = items(await get(t, url(`&vehicle_ids=${v1.vehicle.id}&jurisdictions=CO`)))[0];
    near(co.start_odometer, mi(late.track.odo[0]), 0.0001);
    assert.equal(co.start_lat, 40.6);
  });

  test('another company sees none of it', async () => {
    const other = await t.newCompany('Other Freight');
    assert.deepEqual(items(await get(t, url(''), {}, other)), []);
    assert.deepEqual(items(await get(t, url(`&vehicle_ids=${v1.vehicle.id}`), {}, other)), []);
  });

  test('records sent through the device API are reported (Illinois into Indiana)', async () => {
    const r = await rig(t);
    const { track } = along(
      [
        [39.8, -87.7],
        [39.8, -87.35],
      ],
      { t0: Date.parse(`${DAY}T15:00:00Z`), odo0: 5000 },
    );
    const recs = [];
    for (let i = 0; i < track.n; i++) {
      recs.push({
        type: 'location',
        time: new Date(track.t[i]).toISOString(),
        lat: track.lat[i],
        lon: track.lon[i],
        speed_kph: 90,
        bearing_deg: 90,
        odometer_km: track.odo[i],
      });
    }
    for (let i = 0; i < recs.length; i += 100) await send(t, r, recs.slice(i, i + 100));
    await settle(t);
    const rows = items(
      await get(t, `/v1/ifta/trips?start_date=${DAY}&end_date=${DAY}&vehicle_ids=${r.vehicle.id}`, {
        'X-Time-Zone': 'UTC',
      }),
    );
    assert.deepEqual(
      rows.map((x) => x.jurisdiction),
      ['IL', 'IN'],
    );
    near(rows[0].distance + rows[1].distance, mi(track.odo[track.n - 1] - 5000), 0.0005);
  });
});
