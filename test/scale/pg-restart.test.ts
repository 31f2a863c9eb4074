/**
 * A PostgreSQL restart as a node sees it, under load: every connection drops and new ones are refused
 * for a while, then the database is back. Requests in that window fail cleanly with 503 and
 * `{"error_message"}` (never a 500, never a hang); afterwards the same node process serves again,
 * writes included, without a restart. The "restart" is a TCP proxy between the node and the shared
 * PostgreSQL closing and reopening, so the real server (which other tests use) is never stopped.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { freshDatabase, POSTGRES_URL } from '../helper.js';
import { startServer } from '../server-process.js';
import { openDb } from '../../src/storage/db.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { createCompany } from '../../src/domain/companies/service.js';
import { createApiKey } from '../../src/auth/api-keys.js';
import { call, within } from './cluster.js';

/** Forwards a local port to PostgreSQL; `down()` drops every connection and refuses new ones. */
async function pgProxy(target: URL) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  const up = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 5432), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as net.AddressInfo).port;
        resolve();
      });
    });
  const down = async () => {
    const s = server;
    server = null;
    for (const sock of sockets) sock.destroy();
    await new Promise<void>((r) => (s ? s.close(() => r()) : r()));
  };
  await up();
  return { port: () => port, up, down };
}

if (POSTGRES_URL) {
  test(
    'a PostgreSQL restart during load: 503s with error_message, then recovery without restarting the node',
    { timeout: 120_000 },
    async () => {
      const database = await freshDatabase('postgres');
      const direct = openDb(database.url, { poolSize: 2 });
      await migrateToLatest(direct);
      const co = await createCompany(direct, { name: 'Restart Co' });
      const headers = { 'x-api-key': (await createApiKey(direct, co.id)).api_key };
      const proxy = await pgProxy(new URL(POSTGRES_URL));
      const viaProxy = new URL(database.url);
      viaProxy.host = `127.0.0.1:${proxy.port()}`;
      const node = await startServer({
        DATABASE_URL: viaProxy.toString(),
        TELEMETRY_SWEEP_MS: '200',
        WEBHOOK_POLL_MS: '50',
        LOG_LEVEL: 'warn',
      });
      try {
        assert.equal((await call(node, 'POST', '/v1/vehicles', { headers, body: { number: 'R-1' } })).status, 201);
        const seen: Array<{ status: number; body: any; retryAfter: string | null; ms: number }> = [];
        let stop = false;
        const worker = async () => {
          for (let i = 0; !stop && i < 10_000; i++) {
            const t0 = Date.now();
            try {
              const r = await call(node, 'GET', i % 2 ? '/v1/vehicles' : '/v1/users', { headers });
              seen.push({
                status: r.status,
                body: r.body,
                retryAfter: r.headers.get('retry-after'),
                ms: Date.now() - t0,
              });
            } catch (err) {
              seen.push({
                status: 0,
                body: String((err as Error).cause ?? err),
                retryAfter: null,
                ms: Date.now() - t0,
              });
            }
          }
        };
        const load = Promise.all([worker(), worker(), worker()]);
        await new Promise((r) => setTimeout(r, 500));
        await proxy.down();
        await new Promise((r) => setTimeout(r, 2000));
        const during = seen.length;
        assert.equal((await call(node, 'GET', '/readyz')).status, 503, 'not ready while the database is away');
        await proxy.up();
        const took = await within(
          15_000,
          async () => (await call(node, 'GET', '/v1/vehicles', { headers })).status === 200,
          'serving again',
        );
        stop = true;
        await load;

        const statuses = new Set(seen.map((s) => s.status));
        assert.ok(
          seen.some((s) => s.status === 503),
          `some requests hit the outage (statuses ${[...statuses]}, ${during} during)`,
        );
        assert.deepEqual(
          seen.filter((s) => s.status !== 200 && s.status !== 503),
          [],
          'only 200 and 503',
        );
        for (const s of seen.filter((x) => x.status === 503)) {
          assert.deepEqual(Object.keys(s.body), ['error_message']);
          assert.match(s.body.error_message, /^database unavailable; retry shortly \(request id req-/);
          assert.equal(s.retryAfter, '2');
        }
        assert.ok(Math.max(...seen.map((s) => s.ms)) < 10_000, 'no request hung');
        // Recovered in the same process: reads, writes and readiness.
        assert.equal((await call(node, 'GET', '/readyz')).status, 200);
        const w = await call(node, 'POST', '/v1/vehicles', { headers, body: { number: 'R-2' } });
        assert.equal(w.status, 201);
        assert.equal(
          (await call(node, 'GET', `/v1/vehicles/${w.body.vehicle.id}`, { headers })).body.vehicle.number,
          'R-2',
        );
        assert.equal(node.child.exitCode, null, 'the node never exited');
        assert.ok(took < 15_000);
      } catch (err) {
        throw new Error(`${(err as Error).message}\nnode output:\n${node.output().slice(-4000)}`);
      } finally {
        await node.stop('SIGKILL');
        await proxy.down();
        await direct.close();
        await database.drop();
      }
    },
  );
}
