/**
 * Three real server processes on one PostgreSQL schema and one Redis, requests spread over all of
 * them: migrations run once, the storage maintenance job runs on all three at once without a failure,
 * revocations reach every node within a second, one active dispatch per driver holds, each webhook
 * attempt is delivered once, and each vehicle's telemetry is processed in order by one node at a time,
 * also when a node dies in the middle.
 */
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { before, describe, test } from 'node:test';
import { POSTGRES_URL } from '../helper.js';
import { asTestApp, call, useCluster, within, type Cluster } from './cluster.js';
import { createUser } from '../http/fixtures.js';
import { createDispatch, world } from '../domain/dispatch/fixtures.js';
import { startReceiver } from '../events/webhooks/receiver.js';
import { derivedSnapshot, vehicleDay, type Rig } from '../telemetry/fixtures.js';
import { createCompany } from '../../src/domain/companies/service.js';
import { createApiKey, revokeApiKey } from '../../src/auth/api-keys.js';
import { MIGRATIONS } from '../../src/storage/migrate.js';
import { registerApp } from '../../src/auth/oauth/apps.js';
import { recordConsent } from '../../src/auth/oauth/grants.js';
import { issueTokens } from '../../src/auth/oauth/tokens.js';
import { createRuntime } from '../../src/auth/oauth/runtime.js';
import { loadConfig } from '../../src/config/index.js';
import { provisionDevice } from '../../src/domain/devices/service.js';
import { replayVehicle } from '../../src/telemetry/store/replay.js';
import { DEFAULT_THRESHOLDS } from '../../src/telemetry/thresholds.js';
import type { ServerProcess } from '../server-process.js';
import { telemetryPartitions, WEEKS_AHEAD } from '../../src/storage/partitions/telemetry.js';
import { DAY_MS, WEEK_MS } from '../../src/storage/partitions/layout.js';

const NODES = 3;

if (POSTGRES_URL) {
  describe('three nodes on one PostgreSQL and one Redis', () => {
    // The storage maintenance job every second on every node (an hour by default), warnings logged.
    const getCluster = useCluster(NODES, {
      WEBHOOK_RETRY_SCHEDULE_S: '1',
      MAINTENANCE_INTERVAL_S: '1',
      LOG_LEVEL: 'warn',
    });
    let c: Cluster;
    let company: { id: number; apiKey: string; headers: Record<string, string> };
    const nodes = () => c.nodes.slice(0, NODES);

    before(async () => {
      c = await getCluster();
      const co = await createCompany(c.db, { name: 'Cluster Freight' });
      const key = await createApiKey(c.db, co.id, 'cluster');
      company = { id: co.id, apiKey: key.api_key, headers: { 'x-api-key': key.api_key } };
    });

    test('nodes started together applied every migration exactly once, and all are ready', async () => {
      const rows = (await c.db.kysely
        .selectFrom('kysely_migration' as never)
        .select('name' as never)
        .execute()) as Array<{ name: string }>;
      assert.deepEqual(rows.map((r) => r.name).sort(), MIGRATIONS.map(([name]) => name).sort());
      for (const node of nodes()) assert.equal((await call(node, 'GET', '/readyz')).status, 200);
    });

    test('the maintenance job on every node at once: a missing week is made again once, no gap, no failed run', async () => {
      // The furthest week ahead goes; the three nodes, each running the job every second, race to make it.
      const last = (await telemetryPartitions(c.db.kysely)).at(-1)!;
      await sql`alter table telemetry_records detach partition ${sql.id(last.name)}`.execute(c.db.kysely);
      await sql`drop table ${sql.id(last.name)}`.execute(c.db.kysely);
      const made = async () => (await telemetryPartitions(c.db.kysely)).at(-1)!.name === last.name;
      await within(5000, made, `${last.name} made again`);
      await new Promise((r) => setTimeout(r, 1500)); // every node's job ran at least once more
      const weeks = await telemetryPartitions(c.db.kysely);
      for (let i = 1; i < weeks.length; i++)
        assert.equal(weeks[i].from, weeks[i - 1].to, `${weeks[i].name} begins where ${weeks[i - 1].name} ends`);
      assert.ok(weeks.at(-1)!.to >= Date.now() + DAY_MS + WEEKS_AHEAD * WEEK_MS, 'three weeks and a day ahead');
      for (const node of nodes()) assert.doesNotMatch(node.output(), /storage maintenance failed/);
    });

    test('an API key revoked by the CLI stops working on every node within 1 s', async () => {
      const key = await createApiKey(c.db, company.id, 'short-lived');
      const headers = { 'x-api-key': key.api_key };
      for (const node of nodes())
        assert.equal(
          (await call(node, 'GET', '/v1/vehicles', { headers })).status,
          200,
          'works (and is cached) everywhere first',
        );
      assert.ok(await revokeApiKey(c.db, key.id));
      const took = await Promise.all(
        nodes().map((node) =>
          within(
            1000,
            async () => (await call(node, 'GET', '/v1/vehicles', { headers })).status === 401,
            'revoked key refused',
          ),
        ),
      );
      assert.ok(
        took.every((ms) => ms <= 1000),
        `ms per node: ${took}`,
      );
    });

    test('an OAuth token revoked on one node stops working on every node within 1 s', async () => {
      // The test's own connection has no app: it builds the OAuth runtime itself, as the CLI does.
      const rt = createRuntime(loadConfig({}));
      const admin = await createUser(asTestApp(nodes()[0], company), { role: 'admin' });
      const app = await registerApp(
        c.db,
        { name: 'Cluster TMS', redirectUris: ['https://tms.example/cb'], scopes: ['vehicles.read'] },
        rt.nowIso(),
      );
      const grant = await recordConsent(c.db, rt, {
        companyId: company.id,
        appId: app.id,
        userId: admin.id,
        scopes: ['vehicles.read'],
      });
      const tokens = await issueTokens(c.db.kysely, rt, {
        grantId: grant.id,
        appId: app.id,
        companyId: company.id,
        codeId: null,
        parentId: null,
        accessScopes: ['vehicles.read'],
        refreshScopes: null,
      });
      const headers = { authorization: `Bearer ${tokens.access_token}` };
      for (const node of nodes()) assert.equal((await call(node, 'GET', '/v1/vehicles', { headers })).status, 200);
      const form = new URLSearchParams({
        token: tokens.access_token,
        client_id: app.client_id,
        client_secret: app.client_secret,
      });
      const revoked = await fetch(`${nodes()[1].url}/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      });
      assert.equal(revoked.status, 200);
      await Promise.all(
        nodes().map((node) =>
          within(
            1000,
            async () => (await call(node, 'GET', '/v1/vehicles', { headers })).status === 401,
            'revoked token refused',
          ),
        ),
      );
    });

    test("10 activations of one driver's dispatches spread over the nodes: exactly one wins", async () => {
      const w = await world(asTestApp(nodes()[0], company));
      const ds = [];
      for (let i = 0; i < 10; i++)
        ds.push(await createDispatch(asTestApp(nodes()[i % NODES], company), w, { driver_id: w.driver.id }));
      const results = await Promise.all(
        ds.map((d, i) =>
          call(nodes()[i % NODES], 'PUT', '/v1/dispatches', {
            headers: company.headers,
            body: { vendor_id: d.vendor_id, status: 'active' },
          }),
        ),
      );
      assert.equal(results.filter((r) => r.status === 200).length, 1, `statuses: ${results.map((r) => r.status)}`);
      for (const r of results.filter((x) => x.status !== 200))
        assert.match(r.body.error_message, /already has an active dispatch/);
      const active = await c.db.kysely
        .selectFrom('dispatches')
        .select('id')
        .where('driver_id', '=', w.driver.id)
        .where('status', '=', 'active')
        .execute();
      assert.equal(active.length, 1);
    });

    test('every node runs a webhook worker; each attempt of each event is delivered exactly once', async () => {
      const receiver = await startReceiver();
      try {
        // The first attempt of every request fails, so each event is delivered twice: once per attempt.
        const attempts = new Map<string, number>();
        receiver.respond = (r) => {
          if (Array.isArray(r.body)) return { status: 200 }; // the test delivery that verifies the endpoint
          const id = String(r.headers['x-webhook-request-id']);
          attempts.set(id, (attempts.get(id) ?? 0) + 1);
          return { status: attempts.get(id) === 1 ? 500 : 200 };
        };
        const reg = await call(nodes()[0], 'POST', '/v1/company_webhooks', {
          headers: company.headers,
          body: {
            url: `${receiver.url}/hooks`,
            secret: 'cluster-secret',
            enabled: true,
            actions: ['vehicle_upserted'],
          },
        });
        assert.equal(reg.status, 201, JSON.stringify(reg.body));
        const EVENTS = 24;
        const created = await Promise.all(
          Array.from({ length: EVENTS }, (_, i) =>
            call(nodes()[i % NODES], 'POST', '/v1/vehicles', { headers: company.headers, body: { number: `WH-${i}` } }),
          ),
        );
        assert.deepEqual(
          created.map((r) => r.status),
          Array(EVENTS).fill(201),
        );
        await within(
          20_000,
          async () => attempts.size === EVENTS && [...attempts.values()].every((n) => n >= 2),
          'every event delivered twice',
        ).catch((err) => {
          throw new Error(`${err.message}; attempts per request: ${JSON.stringify([...attempts])}`);
        });
        await new Promise((r) => setTimeout(r, 1500)); // a duplicate would arrive within a poll or a retry delay
        assert.deepEqual([...attempts.values()], Array(EVENTS).fill(2), 'two attempts each, no duplicate');
        const numbers = new Set(
          receiver
            .deliveries('/hooks')
            .filter((d) => !Array.isArray(d.body))
            .map((d) => d.body.number),
        );
        assert.equal(numbers.size, EVENTS, 'one request per created vehicle');
      } finally {
        await receiver.close();
      }
    });

    test('telemetry: batches of one vehicle alternate between nodes, and a node killed in the middle of a batch hands over without loss', async () => {
      const fleet = [];
      for (let i = 0; i < 3; i++) fleet.push(await rigOn(nodes()[i], c, company));
      const records = (r: Rig) => vehicleDay(r.driver.id).map((x, i) => ({ ...x, seq: i + 1 }));
      const batches = (r: Rig) => {
        const all = records(r);
        return Array.from({ length: Math.ceil(all.length / 25) }, (_, b) => all.slice(b * 25, b * 25 + 25));
      };
      const post = (node: ServerProcess, r: Rig, recs: unknown[]) =>
        fetch(`${node.url}/device/v1/batches`, {
          method: 'POST',
          headers: { authorization: `Bearer ${r.device.device_token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ records: recs }),
          signal: AbortSignal.timeout(30_000),
        });

      // Vehicles 0 and 1: each batch goes to the next node, the three vehicles are sent at the same time.
      // Vehicle 2: five batches go to a fourth node; then the rest of its day goes there in one request,
      // and that node is killed with SIGKILL while it handles it (stored or not, nobody knows); the
      // device sends the rest again, in batches, to the other nodes, as a real device would.
      const victim = await c.addNode();
      const KILL_AT = 5;
      const sendAll = async (r: Rig, v: number) => {
        const bs = batches(r);
        for (let b = 0; b < bs.length; b++) {
          if (v === 2 && b === KILL_AT) {
            const inFlight = post(victim, r, bs.slice(KILL_AT).flat()).then(
              (x) => x.status,
              () => 'failed',
            );
            await new Promise((done) => setTimeout(done, 15));
            await victim.stop('SIGKILL');
            assert.ok([200, 'failed'].includes(await inFlight));
          }
          const node = v === 2 && b < KILL_AT ? victim : nodes()[(b + v) % NODES];
          const res = await post(node, r, bs[b]);
          assert.equal(res.status, 200, `vehicle ${v} batch ${b}`);
        }
        return bs.flat().length;
      };
      const sent = await Promise.all(fleet.map((r, v) => sendAll(r, v)));

      for (const [v, r] of fleet.entries()) {
        const last = (records(r).at(-1) as unknown as { time: string }).time;
        await within(
          20_000,
          async () => {
            const st = await c.db.kysely
              .selectFrom('telemetry_state')
              .select('horizon')
              .where('vehicle_id', '=', r.vehicle.id)
              .executeTakeFirst();
            return st?.horizon === last;
          },
          `vehicle ${v} processed to its last record`,
        );
        const stored = await c.db.kysely
          .selectFrom('telemetry_records')
          .select('seq')
          .where('vehicle_id', '=', r.vehicle.id)
          .execute();
        assert.equal(stored.length, sent[v], `vehicle ${v}: every acknowledged record stored once`);
        // Processing in order, once, by one node at a time gives exactly what one sequential pass gives.
        const live = await derivedSnapshot(c.db, r.vehicle.id);
        assert.ok(live.driving_periods.length > 0 && live.idle_events.length > 0, `vehicle ${v} derived data`);
        await replayVehicle(c.db, company.id, r.vehicle.id, null, DEFAULT_THRESHOLDS);
        assert.deepEqual(await derivedSnapshot(c.db, r.vehicle.id), live, `vehicle ${v}: same as a sequential replay`);
      }
    });
  });
}

/** A vehicle with a driver (created through `node`) and a device provisioned by the operator. */
async function rigOn(
  node: ServerProcess,
  c: Cluster,
  company: { id: number; apiKey: string; headers: Record<string, string> },
): Promise<Rig> {
  const t = asTestApp(node, company);
  const vehicle = (
    await call(node, 'POST', '/v1/vehicles', {
      headers: company.headers,
      body: { number: `TEL-${node.url.split(':').at(-1)}-${Date.now() % 100000}` },
    })
  ).body.vehicle;
  const driver = await createUser(t);
  const device = await provisionDevice(
    c.db,
    { companyId: company.id },
    { identifier: `SN-CL-${vehicle.id}`, vehicleId: vehicle.id },
  );
  return { vehicle, driver, device, seq: 0 };
}
