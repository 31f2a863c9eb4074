/**
 * When a device was last heard from (src/domain/devices/activity.ts): written in the transaction that
 * stores its batch, at most once a minute per device on each node, never moved back by another node;
 * shown by `fleet device list`/`show` (through getDevice/listDevices).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../helper.js';
import { rig, send, track } from './fixtures.js';
import { getDevice, listDevices } from '../../src/domain/devices/service.js';
import { markDeviceSeen, SEEN_EVERY_MS } from '../../src/domain/devices/activity.js';
import { openDb, type Db } from '../../src/storage/db.js';

const iso = (ms: number) => new Date(ms).toISOString();

eachDialect('device last seen', (dialect) => {
  const getApp = useApp(dialect, { TELEMETRY_SWEEP_MS: '0' });
  let t: TestApp;
  let otherNode: Db;
  before(async () => {
    t = await getApp();
    otherNode = openDb(t.app.config.databaseUrl);
  });
  after(() => otherNode?.close());

  test('a stored batch marks its device seen; a device never heard from shows null', async () => {
    const r = await rig(t);
    const quiet = await rig(t);
    const tenant = { companyId: t.company.id };
    assert.equal((await getDevice(t.db, tenant, r.device.id)).last_seen_at, null);
    const from = Date.now();
    await send(t, r, track({ fromS: 0, toS: 60, everyS: 30, kph: 0 }));
    const seen = (await getDevice(t.db, tenant, r.device.id)).last_seen_at;
    assert.ok(seen !== null && seen >= iso(from - 1000) && seen <= iso(Date.now() + 1000), `last_seen_at ${seen}`);
    const listed = await listDevices(t.db, tenant, {}, 100, 0);
    const byId = new Map(listed.rows.map((d) => [d.id, d.last_seen_at]));
    assert.equal(byId.get(r.device.id), seen);
    assert.equal(byId.get(quiet.device.id), null);
  });

  test('written at most once a minute per device on a node, and never moved back by another node', async () => {
    const r = await rig(t);
    const tenant = { companyId: t.company.id };
    const seenAt = async () => (await getDevice(t.db, tenant, r.device.id)).last_seen_at;
    const t0 = Date.parse('2030-01-01T00:00:00.000Z');
    const mark = (db: Db, ms: number) => markDeviceSeen(db, t.db.kysely, r.device.id, iso(ms), ms);
    await mark(t.db, t0);
    assert.equal(await seenAt(), '2030-01-01T00:00:00.000Z');
    await mark(t.db, t0 + SEEN_EVERY_MS - 1000);
    assert.equal(await seenAt(), '2030-01-01T00:00:00.000Z', 'within the minute: not written');
    await mark(t.db, t0 + SEEN_EVERY_MS);
    assert.equal(await seenAt(), '2030-01-01T00:01:00.000Z');
    // Another node whose clock (or batch) is behind does not move it back; one ahead moves it on.
    await mark(otherNode, t0 + 30_000);
    assert.equal(await seenAt(), '2030-01-01T00:01:00.000Z');
    await mark(otherNode, t0 + 5 * SEEN_EVERY_MS);
    assert.equal(await seenAt(), '2030-01-01T00:05:00.000Z');
  });
});
