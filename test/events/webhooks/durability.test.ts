/**
 * Durability (issue 9 §6): a node that dies after claiming, or in the middle of an attempt, loses
 * nothing: once its claims run out another node makes the attempt, and each event reaches the receiver
 * once (twice only when the dead node had already sent it, with the same X-Webhook-Request-Id).
 * Several nodes working at once on PostgreSQL make each attempt exactly once; on SQLite one holds the
 * worker lease and the others stand by.
 */
import { before, after, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eachDialect } from '../../helper.js';
import { openDb } from '../../../src/storage/db.js';
import { createWebhookRuntime } from '../../../src/events/webhooks/index.js';
import { nodeScript } from '../../repo.js';
import { makeHookApp, registerHook, useReceiver, type HookApp, type Receiver } from './receiver.js';

const CHILD = nodeScript(new URL('./crash-child', import.meta.url).pathname);
const quiet = { warn() {}, error() {}, child: () => quiet };

/** Starts a doomed node, waits until `ready(stdout)`, then kills it with SIGKILL. */
async function killWhen(url: string, mode: string, nowMs: number, ready: (out: string) => boolean): Promise<string> {
  const child = spawn(process.execPath, [...CHILD, url, mode, String(nowMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 60_000;
  while (!ready(out) && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 20));
  child.kill('SIGKILL');
  await exited;
  return out;
}

eachDialect('webhook durability', (dialect) => {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-hooks-'));
  // A generous timeout: the receiver answers at once, so a failed attempt here can only be a machine
  // too busy to answer in time, and it would hold back its object's later events and change the counts.
  const env: Record<string, string> = {
    WEBHOOK_TIMEOUT_MS: '5000',
    ...(dialect === 'sqlite' ? { DATABASE_URL: `sqlite:${join(dir, 'fleet.db')}` } : {}),
  };
  const getReceiver = useReceiver();
  let t: HookApp;
  let r: Receiver;
  before(async () => {
    t = await makeHookApp(dialect, env);
    r = await getReceiver();
  });
  after(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const url = () => env.DATABASE_URL ?? t.databaseUrl;
  const lease = () => t.config.webhooks.leaseMs;
  /** Each test starts with no other webhook and no queued delivery. */
  const clean = async () => {
    await t.db.kysely.deleteFrom('company_webhook_requests').execute();
    await t.db.kysely.deleteFrom('company_webhooks').execute();
  };

  it('a node killed after claiming: nothing goes out until its claims run out, then each event exactly once', async () => {
    await clean();
    const hook = await registerHook(t, r, ['vehicle_upserted']);
    for (let i = 0; i < 3; i++)
      await t.call({ method: 'POST', url: '/v1/vehicles', payload: { number: `CRASH-${i}` } });
    const out = await killWhen(url(), 'claim', t.clock.now, (o) => o.includes('claimed'));
    assert.match(out, /claimed 3/);
    assert.equal((await t.run()).attempts, 0, 'the dead node still holds its claims');
    t.clock.advance(lease() + 1);
    assert.equal((await t.run()).attempts, 3);
    t.clock.advance(86_400_000);
    assert.equal((await t.run()).attempts, 0);
    const got = r
      .deliveries(hook.path)
      .map((d) => d.body.number)
      .sort();
    assert.deepEqual(got, ['CRASH-0', 'CRASH-1', 'CRASH-2'], 'each once');
  });

  it('a node killed mid-attempt: the attempt is made again by another node (same request id), then done', async () => {
    await clean();
    // The previous node's SQLite lease runs out, so that the doomed node can take it.
    t.clock.advance(lease() + 1);
    const hook = await registerHook(t, r, ['vehicle_upserted']);
    r.respond = (req, n) => (req.path === hook.path && n === 1 ? { status: 200, delayMs: 60_000 } : { status: 200 });
    await t.call({ method: 'POST', url: '/v1/vehicles', payload: { number: 'MIDAIR' } });
    await killWhen(url(), 'send', t.clock.now, () => r.deliveries(hook.path).length > 0);
    assert.equal(r.deliveries(hook.path).length, 1, 'the dead node had sent it');
    assert.equal((await t.run()).attempts, 0);
    t.clock.advance(lease() + 1);
    assert.equal((await t.run()).attempts, 1);
    assert.equal((await t.run()).attempts, 0);
    const [first, second] = r.deliveries(hook.path);
    assert.equal(r.deliveries(hook.path).length, 2);
    assert.equal(first.headers['x-webhook-request-id'], second.headers['x-webhook-request-id']);
    assert.ok(first.raw.equals(second.raw));
    const log = await t.call({
      method: 'GET',
      url: `/v1/company_webhook_requests?company_webhook_id=${hook.id}&action=vehicle_upserted`,
    });
    const entry = log.body.company_webhook_requests[0].company_webhook_request;
    assert.deepEqual([log.body.pagination.total, entry.status, entry.num_failures], [1, 'delivered', 0]);
    r.respond = () => ({ status: 200 });
  });

  it(
    dialect === 'postgres'
      ? 'three nodes at once: every delivery exactly once, in order per object'
      : 'a second node stands by while one holds the SQLite worker lease',
    async () => {
      await clean();
      t.clock.advance(lease() + 1);
      const hook = await registerHook(t, r, ['user_upserted']);
      const ids: number[] = [];
      for (let i = 0; i < 12; i++) {
        const u = await t.call({
          method: 'POST',
          url: '/v1/users',
          payload: {
            first_name: `N${i}`,
            last_name: 'v0',
            role: 'driver',
            username: `node${i}.${dialect}`,
            password: 'long-enough-passphrase',
          },
        });
        ids.push(u.body.user.id);
      }
      for (let v = 1; v <= 3; v++)
        for (const id of ids) await t.call({ method: 'PUT', url: `/v1/users/${id}`, payload: { last_name: `v${v}` } });
      const others = [openDb(url(), { poolSize: 3 }), openDb(url(), { poolSize: 3 })];
      try {
        const nodes = [
          t.app.webhooks,
          ...others.map((db) => createWebhookRuntime(db, t.config, quiet as never, { clock: t.clock.fn })),
        ];
        if (dialect === 'postgres') {
          for (let round = 0; round < 10; round++) await Promise.all(nodes.map((n) => n.worker.runOnce()));
          const got = r.deliveries(hook.path);
          assert.equal(got.length, 48);
          assert.equal(new Set(got.map((d) => d.headers['x-webhook-request-id'])).size, 48, 'no attempt made twice');
          for (const id of ids)
            assert.deepEqual(
              got.filter((d) => d.body.id === id).map((d) => d.body.last_name),
              ['v0', 'v1', 'v2', 'v3'],
            );
        } else {
          const failed: string[] = [];
          const stopListening = nodes[0].worker.addAttemptListener(
            (a) => a.result.status !== 200 && failed.push(`${a.requestId}: ${a.result.error ?? a.result.status}`),
          );
          const first = await nodes[0].worker.runOnce();
          stopListening();
          const second = await nodes[1].worker.runOnce();
          assert.deepEqual(
            [first.leased, first.attempts, second.leased, second.attempts],
            [true, 48, false, 0],
            `failed attempts: ${failed.join(', ') || 'none'}`,
          );
          t.clock.advance(lease() + 1);
          assert.equal((await nodes[1].worker.runOnce()).leased, true, 'the lease passes on once it runs out');
        }
        for (const n of nodes.slice(1)) n.sender.close();
      } finally {
        for (const db of others) await db.close();
      }
    },
  );
});
