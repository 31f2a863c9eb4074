/**
 * The materialized results and their staleness on both databases: records arriving in pieces, out of
 * order and across midnight, each piece followed by a read, end with exactly the fragments a single
 * computation from scratch gives; a calibration change marks the days after it (and the day before, when
 * it takes effect near midnight) stale; once retention has removed a day's raw records, the day keeps
 * its fragments through a later calibration.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { eachDialect, useApp, type TestApp } from '../../helper.js';
import { refresh } from '../../../src/domain/ifta/recompute.js';
import { along, slice, insertPoint } from './tracks.js';
import { store, unit, type Unit } from './http-fixtures.js';
import { createCalibration } from '../../../src/domain/ifta/calibrations.js';
import { applyRetention } from '../../../src/storage/partitions/retention.js';
import { removedBefore } from '../../../src/storage/partitions/horizon.js';
import { retentionConfig } from '../../../src/config/retention.js';

const T0 = Date.parse('2024-06-10T22:15:00Z');
const WINDOW = { start: new Date('2024-06-01T00:00:00Z'), end: new Date('2024-07-01T00:00:00Z') };

eachDialect('ifta materialized fragments', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let u: Unit;

  const fragments = async () =>
    (
      await t.db.kysely
        .selectFrom('ifta_fragments')
        .selectAll()
        .where('vehicle_id', '=', u.vehicle.id)
        .orderBy('owner_day')
        .orderBy('bucket_start')
        .orderBy('jurisdiction')
        .execute()
    ).map((f) => ({
      ...f,
      distance_km: Math.round(f.distance_km * 1e9) / 1e9,
      start_odometer_km: f.start_odometer_km === null ? null : Math.round(f.start_odometer_km * 1e6) / 1e6,
    }));
  const read = () => refresh(t.db, t.company.id, { vehicleIds: [u.vehicle.id], ...WINDOW });

  before(async () => {
    t = await getApp();
    u = await unit(t);
  });

  test('pieces stored in any order, each followed by a read, give the from-scratch result', async () => {
    // Nebraska into Iowa and on, from 22:15Z on 06-10 past midnight, 10-second points.
    const { track } = along(
      [
        [41.26, -96.6],
        [41.26, -95.2],
        [42.0, -94.8],
      ],
      { t0: T0, kph: 95, odo0: 70_000 },
    );
    const withSpike = insertPoint(track, 700, {
      t: (track.t[699] + track.t[700]) / 2,
      lat: 43.5,
      lon: -95.9,
      odo: track.odo[699],
    });
    const n = withSpike.n;
    const cuts = [0, Math.floor(n * 0.3), Math.floor(n * 0.55), Math.floor(n * 0.8), n];
    const pieces = [
      [2, 3],
      [0, 1],
      [3, 4],
      [1, 2],
    ].map(([a, b]) => slice(withSpike, cuts[a], cuts[b]));
    for (const p of pieces) {
      await store(t, u, p);
      await read();
    }
    assert.ok(new Date(withSpike.t[n - 1]).toISOString().startsWith('2024-06-11'), 'the track crosses midnight');
    const incremental = await fragments();
    assert.ok(incremental.length > 10);
    assert.deepEqual([...new Set(incremental.map((f) => f.owner_day))], ['2024-06-10', '2024-06-11']);
    const stale = await t.db.kysely
      .selectFrom('ifta_stale_days')
      .selectAll()
      .where('vehicle_id', '=', u.vehicle.id)
      .execute();
    assert.deepEqual(stale, []);

    await t.db.kysely.deleteFrom('ifta_fragments').where('vehicle_id', '=', u.vehicle.id).execute();
    await t.db.kysely.deleteFrom('ifta_progress').where('company_id', '=', t.company.id).execute();
    await read();
    assert.deepEqual(await fragments(), incremental);
  });

  test('a read with nothing new recomputes nothing', async () => {
    assert.deepEqual(await read(), { days: 0 });
  });

  test('a calibration marks the days from its effective time on stale, and the next read applies it', async () => {
    await createCalibration(t.db, t.company.id, {
      vehicle_id: u.vehicle.id,
      effective_from: '2024-06-11T00:00:00Z',
      offset: 10,
      unit: 'km',
    });
    const stale = await t.db.kysely
      .selectFrom('ifta_stale_days')
      .select('day')
      .where('vehicle_id', '=', u.vehicle.id)
      .execute();
    // The day before too: a stretch over water ending after midnight is placed with the records of 06-11.
    assert.deepEqual(stale.map((s) => s.day).sort(), ['2024-06-10', '2024-06-11']);
    assert.deepEqual(await read(), { days: 2 });
    const after = await fragments();
    for (const f of after) {
      if (f.owner_day === '2024-06-10') assert.equal(f.start_calibrated_km, null);
      else if (f.start_time >= '2024-06-11')
        assert.ok(Math.abs(f.start_calibrated_km! - f.start_odometer_km! - 10) < 1e-6);
    }
  });

  test('days whose raw records retention removed keep their distances through a later calibration', async () => {
    const computed = await fragments();
    // Half a year on, with the default 184 days of raw records and the derived ones kept for ever.
    const nowMs = Date.parse('2025-01-01T00:00:00Z');
    const config = { ...retentionConfig({}, (m) => new Error(m)), derivedDays: 0 };
    await applyRetention(t.db, config, { nowMs, dryRun: false });
    const left = await t.db.kysely
      .selectFrom('telemetry_records')
      .select('id')
      .where('vehicle_id', '=', u.vehicle.id)
      .execute();
    assert.deepEqual(left, [], 'the raw records of June 2024 are gone');
    assert.equal(await removedBefore(t.db, 'telemetry_records'), new Date(nowMs - 184 * 86_400_000).toISOString());

    // A calibration from before them marks both days stale; they keep what was computed.
    await createCalibration(t.db, t.company.id, {
      vehicle_id: u.vehicle.id,
      effective_from: '2024-06-01T00:00:00Z',
      offset: 25,
      unit: 'km',
    });
    assert.equal((await t.db.kysely.selectFrom('ifta_stale_days').select('day').execute()).length, 2);
    assert.deepEqual(await read(), { days: 0 });
    assert.deepEqual(await fragments(), computed);
    assert.deepEqual(await t.db.kysely.selectFrom('ifta_stale_days').selectAll().execute(), []);
  });
});
