/**
 * Replay brings back what an earlier version of the server left out of drivers' logs (duty statuses it
 * dropped, logins and logouts it never logged) from the vehicle's stored records, without logging
 * twice what is there, including records logged under the sequence id that version made from the
 * instant. Through replayVehicle on both databases, and `fleet replay` on an SQLite file.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, runCliStdout, useApp, withSqliteFile, type TestApp } from '../helper.js';
import { driver } from '../domain/hos/fixtures.js';
import { replayVehicle } from '../../src/telemetry/store/replay.js';
import { hosSequenceId } from '../../src/telemetry/store/hos-link.js';
import { rechain } from '../../src/domain/hos/store.js';
import { DEFAULT_THRESHOLDS } from '../../src/telemetry/thresholds.js';
import { createCompany } from '../../src/domain/companies/service.js';
import { createUser } from '../../src/domain/users/service.js';
import { provisionDevice } from '../../src/domain/devices/service.js';
import { handleBatch } from '../../src/telemetry/store/batch.js';
import { loadConfig } from '../../src/config/index.js';
import { TEST_ENV } from '../test-env.js';
import type { Db } from '../../src/storage/db.js';
import { at, login, rig, send } from './fixtures.js';
import { dayEvents, duty } from './hos-fixtures.js';

/** What an earlier version left in the log: no driving status, no login or logout, the first status under the instant's sequence id. */
async function asEarlierVersion(db: Db, companyId: number, driverId: number) {
  await db.kysely
    .deleteFrom('hos_events')
    .where('driver_id', '=', driverId)
    .where((eb) => eb.or([eb('status', '=', 'driving'), eb('kind', 'in', ['login', 'logout'])]))
    .execute();
  await db.kysely
    .updateTable('hos_events')
    .set({ sequence_id: hosSequenceId(Date.parse(at(0))) })
    .where('driver_id', '=', driverId)
    .where('occurred_at', '=', at(0))
    .execute();
  await rechain(db.kysely, companyId, driverId, at(0));
}

const kinds = (db: Db, driverId: number) =>
  db.kysely
    .selectFrom('hos_events')
    .select(['kind', 'status'])
    .where('driver_id', '=', driverId)
    .orderBy('occurred_at')
    .orderBy('id')
    .execute();

eachDialect("replay and drivers' logs", (dialect) => {
  const getApp = useApp(dialect, { TELEMETRY_REORDER_WINDOW_S: '0', TELEMETRY_SWEEP_MS: '0' });
  let t: TestApp;
  before(async () => {
    t = await getApp();
  });

  test('a replay adds the records missing from the log, once; logins and logouts are logged too', async () => {
    const r = await rig(t);
    const d = await driver(t);
    await send(t, r, [
      login(0, d.id),
      duty(0, d.id, 'on_duty'),
      duty(600, d.id, 'driving'),
      duty(1200, d.id, 'off_duty'),
      { type: 'driver', time: at(1300), action: 'logout' },
    ]);
    const live = await kinds(t.db, d.id);
    assert.deepEqual(
      live.map((x) => [x.kind, x.status]),
      [
        ['login', null],
        ['duty_status', 'on_duty'],
        ['duty_status', 'driving'],
        ['duty_status', 'off_duty'],
        ['logout', null],
      ],
    );
    await asEarlierVersion(t.db, t.company.id, d.id);
    assert.deepEqual(await dayEvents(t, d.id), [
      ['on_duty', 0, 1200],
      ['off_duty', 1200, null],
    ]);

    const res = await replayVehicle(t.db, t.company.id, r.vehicle.id, null, DEFAULT_THRESHOLDS);
    assert.equal(res.hosRecords, 3);
    assert.deepEqual(await dayEvents(t, d.id), [
      ['on_duty', 0, 600],
      ['driving', 600, 1200],
      ['off_duty', 1200, null],
    ]);
    assert.deepEqual((await kinds(t.db, d.id)).map((x) => x.kind).sort(), live.map((x) => x.kind).sort());
    assert.equal((await replayVehicle(t.db, t.company.id, r.vehicle.id, null, DEFAULT_THRESHOLDS)).hosRecords, 0);
  });
});

test("fleet replay (CLI) adds the missing records to drivers' logs and says how many", async () => {
  await withSqliteFile(async (db, url) => {
    const company = await createCompany(db, { name: 'Replay HOS Co' });
    const t = { companyId: company.id };
    const now = new Date().toISOString();
    const { id: vehicleId } = await db.kysely
      .insertInto('vehicles')
      .values({ company_id: company.id, number: 'H1', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const d = await createUser(db, t, {
      first_name: 'Dana',
      last_name: 'Driver',
      role: 'driver',
      username: 'dana',
      time_zone: 'UTC',
    });
    const device = await provisionDevice(db, t, { identifier: 'SN-REPLAY-HOS', vehicleId });
    const cfg = loadConfig({ ...TEST_ENV, DATABASE_URL: url }).telemetry;
    const principal = {
      deviceId: device.id,
      companyId: company.id,
      kind: 'eld' as const,
      vehicleId,
      assetId: null,
      identifier: device.identifier,
    };
    const records = [duty(0, d.id, 'on_duty'), duty(600, d.id, 'driving'), duty(1200, d.id, 'off_duty')].map(
      (x, i) => ({ ...x, seq: i + 1 }),
    );
    assert.equal((await handleBatch(db, principal, 0, records, cfg)).summary.accepted, 3);
    await asEarlierVersion(db, company.id, d.id);
    const { code, out } = await runCliStdout(['replay', '--company', String(company.id), '--json'], {
      DATABASE_URL: url,
      LOG_LEVEL: 'silent',
    });
    assert.equal(code, 0, out);
    assert.deepEqual(
      JSON.parse(out).vehicles.map((v: any) => [v.vehicle_id, v.hos_records]),
      [[vehicleId, 1]],
    );
    assert.deepEqual(
      (await kinds(db, d.id)).map((x) => x.status),
      ['on_duty', 'driving', 'off_duty'],
    );
  });
});
