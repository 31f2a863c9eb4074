/**
 * The read cache answers repeated GETs from memory and never serves a body older than the data:
 * every write through the API, a write behind its back, a write by another process (a second handle
 * on the same database) and a foreign-key cascade make the entry stale.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { eachDialect, freshDatabase, makeApp, useApp, type TestApp } from '../helper.js';
import { createUser, createVehicle } from '../http/fixtures.js';
import { openDb } from '../../src/storage/db.js';
import { LISTENER_NAME } from '../../src/storage/change-sources.js';
import { provisionDevice, revokeDevice } from '../../src/domain/devices/service.js';
import { revokeApiKey } from '../../src/auth/api-keys.js';
import { createGeofence } from '../../src/domain/geofences/service.js';
import { post, rig, send, settle, vehicleDay, DAY_LAT, DAY_LON0, DEG_PER_KM } from '../telemetry/fixtures.js';

/**
 * Polls `fn` until it returns true, for at most `ms` (a change made elsewhere arrives by notification);
 * returns the number of attempts.
 */
async function eventually(fn: () => Promise<boolean>, ms = 1000): Promise<number> {
  const start = Date.now();
  for (let attempt = 1; ; attempt++) {
    if (await fn()) return attempt;
    if (Date.now() - start > ms) assert.fail(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

eachDialect('read cache through the API', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let truck: any;
  let driver: any;
  const get = async (url = `/v1/vehicles/${truck.id}`) => (await t.call({ method: 'GET', url })).body;

  before(async () => {
    t = await getApp();
    driver = await createUser(t, { first_name: 'Pat', last_name: 'Driver' });
    truck = await createVehicle(t, { number: 'C-1', make: 'Volvo', permanent_driver_id: driver.id });
  });

  test('a repeated GET is a hit and gives the same bytes', async () => {
    const first = await t.call({ method: 'GET', url: `/v1/vehicles/${truck.id}` });
    const hits = t.db.cache.stats.hits;
    const second = await t.call({ method: 'GET', url: `/v1/vehicles/${truck.id}` });
    assert.equal(t.db.cache.stats.hits, hits + 2, 'the API key and the body');
    assert.equal(second.raw, first.raw);
    assert.equal(second.headers['content-type'], 'application/json; charset=utf-8');
    assert.deepEqual(Object.keys(second.body), ['vehicle']);
  });

  test('PUT on the vehicle shows at once', async () => {
    await get();
    await t.call({ method: 'PUT', url: `/v1/vehicles/${truck.id}`, payload: { make: 'Mack' } });
    assert.equal((await get()).vehicle.make, 'Mack');
    assert.equal(
      (await get('/v1/vehicles?per_page=100')).vehicles.find((w: any) => w.vehicle.id === truck.id).vehicle.make,
      'Mack',
    );
  });

  test('a change to an embedded driver (another table) shows at once', async () => {
    await get();
    await t.call({ method: 'PUT', url: `/v1/users/${driver.id}`, payload: { first_name: 'Robin' } });
    assert.equal((await get()).vehicle.permanent_driver.first_name, 'Robin');
  });

  test('group membership, and a group delete that cascades to the membership rows', async () => {
    const g = (await t.call({ method: 'POST', url: '/v1/groups', payload: { name: 'Cache West' } })).body.group;
    await get();
    await t.call({ method: 'POST', url: `/v1/groups/${g.id}/vehicles`, payload: { ids: [truck.id] } });
    assert.deepEqual((await get()).vehicle.group_ids, [g.id]);
    await t.call({ method: 'DELETE', url: `/v1/groups/${g.id}` });
    assert.deepEqual((await get()).vehicle.group_ids, []);
  });

  test('a device provisioned and revoked behind the API shows at once', async () => {
    assert.equal((await get()).vehicle.eld_device, null);
    const d = await provisionDevice(t.db, { companyId: t.company.id }, {
      vehicleId: truck.id,
      identifier: `CACHE-${dialect}`,
      model: 'M1',
    } as never);
    assert.equal((await get()).vehicle.eld_device.identifier, `CACHE-${dialect}`);
    await sql`update devices set revoked_at = ${new Date().toISOString()} where id = ${d.id}`.execute(t.db.kysely);
    assert.equal((await get()).vehicle.eld_device, null);
  });

  test("another company never gets this company's entry", async () => {
    await get();
    const other = await t.newCompany('Other Lines');
    const res = await t.call({ method: 'GET', url: `/v1/vehicles/${truck.id}`, as: other });
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { error_message: `vehicle ${truck.id} not found` });
  });

  test('errors are not cached: a vehicle created after a 404 is found', async () => {
    const next = truck.id + 1000;
    assert.equal((await t.call({ method: 'GET', url: `/v1/vehicles/${next}` })).status, 404);
    await sql`insert into vehicles (id, company_id, number, status, created_at, updated_at) values (${next}, ${t.company.id}, 'C-404', 'active', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`.execute(
      t.db.kysely,
    );
    assert.equal((await get(`/v1/vehicles/${next}`)).vehicle.number, 'C-404');
  });
});

eachDialect('read cache across processes', (dialect) => {
  let dir = '';
  let database: { url: string; drop(): Promise<void> };
  let t: TestApp;
  let other: ReturnType<typeof openDb>;

  before(async () => {
    if (dialect === 'sqlite') {
      dir = mkdtempSync(join(tmpdir(), 'fleet-cache-'));
      database = {
        url: `sqlite:${join(dir, 'fleet.db')}`,
        drop: async () => rmSync(dir, { recursive: true, force: true }),
      };
    } else {
      database = await freshDatabase(dialect);
    }
    t = await makeApp(dialect, { DATABASE_URL: database.url });
    other = openDb(database.url, { poolSize: 1 });
  });
  after(async () => {
    await other?.close();
    await t?.close();
    await database?.drop();
  });

  test('a write by another connection reaches the cache', async () => {
    const v = await createVehicle(t, { number: 'X-1', make: 'Volvo' });
    assert.equal((await t.call({ method: 'GET', url: `/v1/vehicles/${v.id}` })).body.vehicle.make, 'Volvo');
    await other.kysely.updateTable('vehicles').set({ make: 'Scania' }).where('id', '=', v.id).execute();
    if (dialect === 'sqlite') await new Promise((r) => setTimeout(r, 2)); // data_version is asked at most once a ms
    const attempts = await eventually(
      async () => (await t.call({ method: 'GET', url: `/v1/vehicles/${v.id}` })).body.vehicle.make === 'Scania',
    );
    if (dialect === 'sqlite') assert.equal(attempts, 1, 'SQLite sees it on the next request');
  });

  test('an API key revoked by another process stops working within a second', async () => {
    const c = await t.newCompany('Revoked Ltd');
    assert.equal((await t.call({ method: 'GET', url: '/v1/vehicles', as: c })).status, 200);
    const key = await other.kysely
      .selectFrom('api_keys')
      .select('id')
      .where('company_id', '=', c.id)
      .executeTakeFirstOrThrow();
    assert.ok(await revokeApiKey(other, key.id));
    await eventually(async () => (await t.call({ method: 'GET', url: '/v1/vehicles', as: c })).status === 401);
  });

  test('a device revoked by another process is refused on its next batch; unknown tokens are never kept', async () => {
    const r = await rig(t);
    const fix = vehicleDay(r.driver.id).find((x) => x.type === 'location')!;
    await send(t, r, [fix]);
    const size = t.db.cache.size;
    for (let i = 0; i < 5; i++)
      assert.equal((await post(t, `not-a-token-${i}`, { records: [{ ...fix, seq: 1 }] })).status, 401);
    assert.equal(t.db.cache.size, size, 'unknown credentials are not cached');
    await revokeDevice(other, { companyId: t.company.id }, r.device.id);
    await eventually(
      async () => (await post(t, r.device.device_token, { records: [{ ...fix, seq: 99 }] })).status === 403,
    );
  });

  test('geofences and webhook subscriptions that ingestion keeps cached are dropped when another process changes them', async () => {
    const r = await rig(t);
    const records = vehicleDay(r.driver.id);
    // The first batch caches the company's (empty) geofences and webhook subscriptions.
    await send(t, r, records.slice(0, 3));
    await settle(t);
    const seen: string[] = [];
    const stop = t.db.observeQueries((e) => void seen.push(e.query.sql));
    try {
      await send(t, r, records.slice(3, 4));
      await settle(t);
    } finally {
      stop();
    }
    assert.ok(
      seen.some((q) => q.includes('telemetry_state')),
      'the batch was processed',
    );
    assert.deepEqual(
      seen.filter((q) => /"(geofences|company_webhooks)"/.test(q)),
      [],
      'the next batch reads them from the cache',
    );
    // Another process adds a geofence on the vehicle's road and a webhook for every received fix.
    const fence = await createGeofence(
      other,
      { companyId: t.company.id },
      { name: 'Yard', center: { lat: DAY_LAT, lon: DAY_LON0 + 10 * DEG_PER_KM }, radius_m: 1000 },
      { circularOnly: true },
    );
    const now = new Date().toISOString();
    await other.kysely
      .insertInto('company_webhooks')
      .values({
        company_id: t.company.id,
        url: 'http://127.0.0.1:9/',
        secret: 's',
        format: 'json',
        actions: JSON.stringify(['vehicle_location_received']),
        enabled: 1,
        webhook_type: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await eventually(async () => {
      const before = await receivedEvents(r.vehicle.id);
      await send(t, r, records.slice(r.seq, r.seq + 1));
      return (await receivedEvents(r.vehicle.id)) > before;
    });
    await send(t, r, records.slice(r.seq));
    await settle(t);
    const visits = await t.db.kysely
      .selectFrom('geofence_events')
      .select('id')
      .where('geofence_id', '=', fence.id)
      .where('vehicle_id', '=', r.vehicle.id)
      .execute();
    assert.equal(visits.length, 1, 'the pass through the new geofence is derived');
  });

  const receivedEvents = async (vehicleId: number) =>
    (
      await t.db.kysely
        .selectFrom('domain_events')
        .select('id')
        .where('company_id', '=', t.company.id)
        .where('action', '=', 'vehicle_location_received')
        .where('subject_id', '=', String(vehicleId))
        .execute()
    ).length;

  if (dialect === 'postgres') {
    test('while the change listener is down nothing is served from the cache; it reconnects by itself', async () => {
      const v = await createVehicle(t, { number: 'X-2', make: 'DAF' });
      const url = `/v1/vehicles/${v.id}`;
      await t.call({ method: 'GET', url });
      const admin = new pg.Client({ connectionString: process.env.TEST_POSTGRES_URL });
      await admin.connect();
      try {
        const killed = await admin.query(
          `select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and pid = $2`,
          [LISTENER_NAME, t.db.changes.listenerPid],
        );
        assert.equal(killed.rowCount, 1);
      } finally {
        await admin.end();
      }
      // The write below is not announced to a dead listener; the cache must not hide it.
      await eventually(async () => {
        const hits = t.db.cache.stats.hits;
        await t.call({ method: 'GET', url });
        return t.db.cache.stats.hits === hits;
      });
      await other.kysely.updateTable('vehicles').set({ make: 'Iveco' }).where('id', '=', v.id).execute();
      assert.equal((await t.call({ method: 'GET', url })).body.vehicle.make, 'Iveco');
      // Back: hits again.
      await eventually(async () => {
        await t.call({ method: 'GET', url });
        const hits = t.db.cache.stats.hits;
        await t.call({ method: 'GET', url });
        return t.db.cache.stats.hits === hits + 2; // the API key and the body
      }, 10_000);
    });

    test('reads of tables without a change trigger are never cached', async () => {
      const before = t.db.cache.stats.uncacheable;
      const n = await t.db.cache.remember(
        'messages-count',
        async () => (await t.db.kysely.selectFrom('messages').select('id').execute()).length,
      );
      assert.equal(n, 0);
      assert.equal(t.db.cache.stats.uncacheable, before + 1);
    });
  }
});

eachDialect('read cache off', (dialect) => {
  const getApp = useApp(dialect, { READ_CACHE_MAX_BYTES: '0' });
  test('READ_CACHE_MAX_BYTES=0 keeps nothing', async () => {
    const t = await getApp();
    const v = await createVehicle(t, { number: 'N-1' });
    await t.call({ method: 'GET', url: `/v1/vehicles/${v.id}` });
    await t.call({ method: 'GET', url: `/v1/vehicles/${v.id}` });
    assert.equal(t.db.cache.stats.hits, 0);
    assert.equal(t.db.cache.size, 0);
  });
});
