/**
 * Replay at its edges: it stops where live processing got, keeps the automatic duty status detector's
 * state, rebuilds assets' visits, leaves visits of deleted geofences alone, and sees a geofence only
 * for records received after it was created, as live processing did. And `fleet replay`'s refusals.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, runCli, useApp, withSqliteFile, type TestApp } from '../helper.js';
import { replaySubject, replayVehicle } from '../../src/telemetry/store/replay.js';
import { DEFAULT_THRESHOLDS } from '../../src/telemetry/thresholds.js';
import { provisionDevice } from '../../src/domain/devices/service.js';
import { createCompany } from '../../src/domain/companies/service.js';
import { at, derivedSnapshot, login, post, rig, send, settle, track, DEG_PER_KM } from './fixtures.js';

const LAT = 39.8;
const LON = -89.65;

eachDialect('telemetry replay: edges', (dialect) => {
  const getApp = useApp(dialect, { TELEMETRY_REORDER_WINDOW_S: '600', TELEMETRY_SWEEP_MS: '0' });
  let t: TestApp;
  before(async () => {
    t = await getApp();
  });

  const circle = async (name: string, km: number) =>
    (
      await t.call({
        method: 'POST',
        url: '/v1/geofences/circular',
        payload: { name, center: { lat: LAT, lon: LON + km * DEG_PER_KM }, radius_m: 500 },
      })
    ).body.geofence;
  const stateOf = async (subject: string) =>
    t.db.kysely.selectFrom('telemetry_state').selectAll().where('subject', '=', subject).executeTakeFirstOrThrow();

  test('a replay stops at the live horizon: later records stay pending, and the duty status detector keeps its state', async () => {
    const v = await rig(t);
    await send(t, v, [
      login(0, v.driver.id),
      { type: 'engine', time: at(1), state: 'on' },
      ...track({ fromS: 10, toS: 900, kph: 60 }),
    ]);
    const live = await stateOf(`v:${v.vehicle.id}`);
    assert.ok(live.horizon !== null && live.horizon < live.max_fix_time!, 'the last 600 s are still pending');
    const hosAuto = JSON.parse(live.state).hos_auto;
    assert.ok(hosAuto, 'the detector has a state');
    const res = await replayVehicle(t.db, t.company.id, v.vehicle.id, null, DEFAULT_THRESHOLDS);
    assert.ok(res.records > 0);
    const after = await stateOf(`v:${v.vehicle.id}`);
    assert.equal(after.horizon, live.horizon);
    assert.deepEqual(JSON.parse(after.state).hos_auto, hosAuto);
    assert.deepEqual(JSON.parse(after.state).motion, JSON.parse(live.state).motion);
  });

  test("an asset's visits are rebuilt; a deleted geofence's visits stay; a geofence created after the records were received sees none of them", async () => {
    const depot = await circle(`Depot ${dialect}`, 5);
    const yard = await circle(`Yard ${dialect}`, 10);
    const asset = (await t.call({ method: 'POST', url: '/v1/assets', payload: { name: `Trailer replay ${dialect}` } }))
      .body.asset;
    const gw = await provisionDevice(
      t.db,
      { companyId: t.company.id },
      { identifier: `GW-replay-${dialect}`, assetId: asset.id },
    );
    const v = await rig(t);
    // Both drive east through the depot (5 km) and the yard (10 km) and stop at 15 km.
    const route = track({ fromS: 0, toS: 900, kph: 60 });
    const res = await post(t, gw.device_token, { records: route.map((x, i) => ({ ...x, seq: i + 1 })) });
    assert.equal(res.body.accepted, route.length);
    await send(t, v, [{ type: 'engine', time: at(-5), state: 'on' }, ...route]);
    await settle(t);
    // Created after every record above was received: live processing never saw it.
    await circle(`Late ${dialect}`, 7.5);
    const assetVisits = async () =>
      await t.db.kysely
        .selectFrom('asset_geofence_events')
        .select(['geofence_id', 'start_time', 'end_time'])
        .where('asset_id', '=', asset.id)
        .orderBy('start_time')
        .execute();
    const liveAsset = await assetVisits();
    assert.deepEqual(
      liveAsset.map((x) => x.geofence_id),
      [depot.id, yard.id],
    );
    const liveVehicle = await derivedSnapshot(t.db, v.vehicle.id);
    assert.deepEqual(liveVehicle.geofence_events.map((x: any) => x.geofence_id).sort(), [depot.id, yard.id].sort());

    // Lost asset visits come back; the late geofence adds nothing.
    await t.db.kysely.deleteFrom('asset_geofence_events').where('asset_id', '=', asset.id).execute();
    await replaySubject(t.db, t.company.id, { assetId: asset.id }, null, DEFAULT_THRESHOLDS);
    assert.deepEqual(await assetVisits(), liveAsset);
    await replayVehicle(t.db, t.company.id, v.vehicle.id, null, DEFAULT_THRESHOLDS);
    assert.deepEqual(await derivedSnapshot(t.db, v.vehicle.id), liveVehicle);

    // The depot is deleted: its visit stays through a replay.
    assert.equal((await t.call({ method: 'DELETE', url: `/v1/geofences/${depot.id}` })).status, 200);
    await replayVehicle(t.db, t.company.id, v.vehicle.id, null, DEFAULT_THRESHOLDS);
    await replaySubject(t.db, t.company.id, { assetId: asset.id }, null, DEFAULT_THRESHOLDS);
    assert.deepEqual(await derivedSnapshot(t.db, v.vehicle.id), liveVehicle);
    assert.deepEqual(await assetVisits(), liveAsset);
  });
});

test('fleet replay refuses an empty --vehicle or --from, and names a vehicle or asset not in the company', async () => {
  await withSqliteFile(async (db, url) => {
    const mine = await createCompany(db, { name: 'Mine' });
    const other = await createCompany(db, { name: 'Other' });
    const now = new Date().toISOString();
    const { id: theirs } = await db.kysely
      .insertInto('vehicles')
      .values({ company_id: other.id, number: 'X1', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const run = (args: string[]) => runCli(args, { DATABASE_URL: url, LOG_LEVEL: 'silent' });
    const company = String(mine.id);
    const empty = await run(['replay', '--company', company, '--vehicle', '']);
    assert.equal(empty.code, 2);
    assert.match(empty.err, /--vehicle must not be empty/);
    assert.match((await run(['replay', '--company', company, '--from', ' '])).err, /--from must not be empty/);
    const foreign = await run(['replay', '--company', company, '--vehicle', String(theirs)]);
    assert.equal(foreign.code, 1);
    assert.match(foreign.err, new RegExp(`vehicle ${theirs} not found in company ${mine.id}`));
    assert.match(
      (await run(['replay', '--company', company, '--asset', '999999'])).err,
      new RegExp(`asset 999999 not found in company ${mine.id}`),
    );
    assert.equal((await run(['replay', '--company', company, '--vehicle', '1', '--asset', '1'])).code, 2);
  });
});
