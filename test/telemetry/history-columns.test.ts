/**
 * A day's history answer is the same bytes whether its points are joined from the text stored with
 * each record or rendered from the records' columns (a compacted week on PostgreSQL, records stored
 * before that text existed on SQLite), for the awkward numbers a device can send: long binary tails,
 * values PostgreSQL writes in exponent form, halves at each rounding, negative zero, the ends of the
 * ranges.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, type TestApp } from '../helper.js';
import { at, send, settle, useRigApp, DAY, type Rig } from './fixtures.js';

const LATS = [41.400000000000006, -0, 4e-7, -33.8688, 45.0000005, 89.99999999999999, -89.9999995, 0.1 + 0.2];
const LONS = [-96.5, 0.30000000000000004, -179.9999995, 1e-7, 151.2093, 179.99999999999997, -0.0000005];
const SPEEDS = [0, 1e-7, 88.5, 399.99999999999994, 8.046720000000001, 0.08046719999999999];
const BEARINGS = [0, 359.99999999999994, 1e-7, 45.5, 0.30000000000000004, 12.345678901234567];
const ODOMETERS = [9999999.999999998, 1e-7, 1234.5678, 0, 0.0804672, 160.9344];
const HOURS = [2.675, 1.005, 999999.995, 1e-7, 0.015, 12];
const FUEL = [1e-7, 99999999.99999999, 3.785411784, 0.018927058920000002, 7.57, 0];

eachDialect('history rendered from columns', (dialect) => {
  const getRig = useRigApp(dialect);
  let t: TestApp;
  let r: Rig;

  before(async () => {
    ({ t, v: r } = await getRig());
    const records = [];
    for (let i = 0; i < 300; i++) {
      const of = <T>(xs: T[], k: number) => xs[(i * k + Math.floor(i / xs.length)) % xs.length];
      records.push({
        type: 'location',
        time: at(600 + i * 10),
        lat: of(LATS, 1),
        lon: of(LONS, 1),
        speed_kph: of(SPEEDS, 5),
        bearing_deg: of(BEARINGS, 7),
        odometer_km: of(ODOMETERS, 11),
        engine_hours: of(HOURS, 13),
        fuel_used_l: of(FUEL, 17),
      });
    }
    for (let i = 0; i < records.length; i += 100) await send(t, r, records.slice(i, i + 100));
    await settle(t);
  });

  test('every point is written the same from its columns as from its stored text', async () => {
    const day = () =>
      t.call({
        method: 'GET',
        url: `/v1/vehicle_locations/${r.vehicle.id}?date=${DAY}`,
        headers: { 'x-time-zone': 'UTC' },
      });
    const stored = await day();
    assert.equal(stored.status, 200);
    const points = stored.body.vehicle_locations.map((p: any) => p.vehicle_location);
    assert.equal(points.length, 300);
    // The answer holds the values rounded as documented (halves toward +∞), the awkward ones among them.
    assert.deepEqual(
      points.slice(0, 3).map((p: any) => [p.lat, p.lon]),
      [
        [41.4, -96.5],
        [0, 0.3],
        [0, -179.999999],
      ],
    );
    assert.ok(points.some((p: any) => p.engine_hours === 2.68));
    await t.db.kysely
      .updateTable('telemetry_records')
      .set({ point_json: null })
      .where('vehicle_id', '=', r.vehicle.id)
      .execute();
    // The history reads each request makes (PostgreSQL reads the day as two slices).
    const reads: string[] = [];
    const stop = t.db.observeQueries((e) => {
      if (e.query.sql.includes('string_agg'))
        reads.push(e.query.sql.includes('coalesce(point_json') ? 'columns' : 'text');
    });
    const columns = await day();
    assert.equal(columns.status, 200);
    assert.equal(columns.raw, stored.raw);
    const first = reads.splice(0);
    // Asked again, the same bytes; on PostgreSQL the day is now read from its columns at once.
    assert.equal((await day()).raw, stored.raw);
    stop();
    if (dialect === 'postgres') {
      // The morning slice holds no record: its text read finds nothing missing. The afternoon's finds
      // every text missing and is read again with its columns; the day is remembered.
      assert.deepEqual(first.sort(), ['columns', 'text', 'text']);
      assert.deepEqual(reads, ['columns', 'columns']);
    }
  });
});
