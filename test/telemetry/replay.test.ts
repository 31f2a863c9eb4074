/** Replay rebuilds derived telemetry identically from the stored records, entirely or from an instant, without announcing anything again. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { eachDialect, runCli, runCliStdout, useApp, withSqliteFile, type TestApp } from '../helper.js';
import { replayVehicle } from '../../src/telemetry/store/replay.js';
import { DEFAULT_THRESHOLDS } from '../../src/telemetry/thresholds.js';
import { createCompany } from '../../src/domain/companies/service.js';
import { provisionDevice } from '../../src/domain/devices/service.js';
import { handleBatch } from '../../src/telemetry/store/batch.js';
import { loadConfig } from '../../src/config/index.js';
import { TEST_ENV } from '../test-env.js';
import { processVehicle } from '../../src/telemetry/store/process.js';
import {
  at,
  derivedSnapshot,
  rig,
  send,
  settle,
  vehicleDay,
  T0,
  DERIVED_TABLES as TABLES,
  type Rig,
} from './fixtures.js';

eachDialect('telemetry replay', (dialect) => {
  const getApp = useApp(dialect, { TELEMETRY_REORDER_WINDOW_S: '0', TELEMETRY_SWEEP_MS: '0' });
  let t: TestApp;
  let r: Rig;
  let live: Record<string, unknown[]>;

  before(async () => {
    t = await getApp();
    r = await rig(t);
    await t.call({
      method: 'POST',
      url: '/v1/geofences/circular',
      payload: {
        name: 'Yard',
        center: { lat: 39.8, lon: -89.65 + 10 / (111.32 * Math.cos((39.8 * Math.PI) / 180)) },
        radius_m: 1000,
      },
    });
    const records = vehicleDay(r.driver.id);
    for (let i = 0; i < records.length; i += 50) await send(t, r, records.slice(i, i + 50));
    await settle(t);
    live = await derivedSnapshot(t.db, r.vehicle.id);
    for (const table of TABLES) assert.ok(live[table].length > 0, `${table} has rows`);
  });

  test('a full replay reproduces what live processing derived, and announces nothing', async () => {
    const events = (await t.db.kysely.selectFrom('domain_events').select('id').execute()).length;
    const res = await replayVehicle(t.db, t.company.id, r.vehicle.id, null, DEFAULT_THRESHOLDS);
    assert.ok(res.records > 200);
    assert.deepEqual(await derivedSnapshot(t.db, r.vehicle.id), live);
    assert.equal((await t.db.kysely.selectFrom('domain_events').select('id').execute()).length, events);
  });

  test('lost derived rows come back; a replay from an instant leaves earlier rows and rebuilds later ones', async () => {
    for (const table of TABLES) await t.db.kysely.deleteFrom(table).where('vehicle_id', '=', r.vehicle.id).execute();
    await replayVehicle(t.db, t.company.id, r.vehicle.id, null, DEFAULT_THRESHOLDS);
    assert.deepEqual(await derivedSnapshot(t.db, r.vehicle.id), live);
    const from = new Date(T0 + 1500 * 1000);
    await t.db.kysely
      .deleteFrom('idle_events')
      .where('vehicle_id', '=', r.vehicle.id)
      .where('start_time', '>=', from.toISOString())
      .execute();
    await replayVehicle(t.db, t.company.id, r.vehicle.id, from, DEFAULT_THRESHOLDS);
    assert.deepEqual(await derivedSnapshot(t.db, r.vehicle.id), live);
  });

  test('processing continues after a replay: the state is the replayed one', async () => {
    await send(t, r, [
      { type: 'engine', time: at(5000), state: 'on', lat: 39.8, lon: -89.3 },
      { type: 'location', time: at(5010), lat: 39.8, lon: -89.3, speed_kph: 0 },
    ]);
    await settle(t);
    const st = await t.db.kysely
      .selectFrom('telemetry_state')
      .select('horizon')
      .where('vehicle_id', '=', r.vehicle.id)
      .executeTakeFirstOrThrow();
    assert.equal(st.horizon, new Date(Date.parse(at(5010))).toISOString());
  });
});

test('fleet replay (CLI): every vehicle of a company, --from a day, --json; wrong usage exits 2', async () => {
  await withSqliteFile(async (db, url) => {
    const company = await createCompany(db, { name: 'Replay Co' });
    const { id: vehicleId } = await db.kysely
      .insertInto('vehicles')
      .values({
        company_id: company.id,
        number: 'R1',
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const device = await provisionDevice(db, { companyId: company.id }, { identifier: 'SN-REPLAY-1', vehicleId });
    const cfg = loadConfig({ ...TEST_ENV, DATABASE_URL: url, TELEMETRY_REORDER_WINDOW_S: '0' }).telemetry;
    const principal = {
      deviceId: device.id,
      companyId: company.id,
      kind: 'eld' as const,
      vehicleId,
      assetId: null,
      identifier: device.identifier,
    };
    const records = vehicleDay(0)
      .filter((x) => x.type !== 'driver')
      .map((x, i) => ({ ...x, seq: i + 1 }));
    const res = await handleBatch(db, principal, 0, records, cfg);
    assert.equal(res.summary.rejected, 0);
    await processVehicle(db, vehicleId, { thresholds: cfg.thresholds, reorderWindowS: 0, flush: true });
    const before = await db.kysely.selectFrom('driving_periods').select(['start_time', 'end_time']).execute();
    await db.kysely.deleteFrom('driving_periods').execute();
    const { code, out } = await runCliStdout(['replay', '--company', String(company.id), '--json'], {
      DATABASE_URL: url,
      LOG_LEVEL: 'silent',
    });
    assert.equal(code, 0, out);
    const body = JSON.parse(out);
    assert.equal(body.company_id, company.id);
    assert.equal(body.vehicles[0].vehicle_id, vehicleId);
    assert.equal(body.vehicles[0].records, records.length);
    assert.deepEqual(
      await db.kysely.selectFrom('driving_periods').select(['start_time', 'end_time']).execute(),
      before,
    );
    assert.equal(
      (await runCli(['replay', '--company', String(company.id), '--from', '2026-02-30'], { DATABASE_URL: url })).code,
      2,
    );
  });
});

after(() => undefined);
