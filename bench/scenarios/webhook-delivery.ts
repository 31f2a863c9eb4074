/**
 * Webhook delivery.
 *
 * Run directly, it measures the delivery worker (targets of issue 9: at least 2,000 deliveries/s on one
 * node to a receiver that answers at once, and an outbox lag — event committed → first attempt — under
 * 1 s at the 99th percentile):
 *
 *   npx tsx bench/scenarios/webhook-delivery.ts            # SQLite, and PostgreSQL with BENCH_POSTGRES_URL / TEST_POSTGRES_URL
 *   WEBHOOK_BENCH_EVENTS=20000 WEBHOOK_BENCH_RATE=1500 WEBHOOK_BENCH_SECONDS=10 WEBHOOK_BENCH_ONLY=postgres npx tsx bench/scenarios/webhook-delivery.ts
 *
 * - throughput: a backlog of WEBHOOK_BENCH_EVENTS vehicle_upserted events (default 20,000, over 1,000
 *   vehicles) is committed, then one worker (the server's, default settings) fans them out and delivers
 *   them; deliveries/s = events / time to the last answer;
 * - lag: events are committed at WEBHOOK_BENCH_RATE per second (default 1,000, in 100 small
 *   transactions a second) for WEBHOOK_BENCH_SECONDS (default 10) while the worker runs; the lag of each
 *   is its first attempt's start minus its commit time.
 * The receiver is a separate process on 127.0.0.1 answering 200 at once. Results: stdout and
 * bench/results/webhook-delivery.json; BENCH_STRICT=1 exits 1 on a missed target; BENCH_QUIET_WAIT_S=n waits
 * up to n s before each database for other processes to go quiet (the machine is often shared).
 *
 * Loaded by `npm run bench`, it is the scenario `webhook-delivery-log`: GET /v1/company_webhook_requests,
 * one page of a 5,000-entry delivery log.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/config/index.js';
import { openDb, type Db } from '../../src/storage/db.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { recordEvent } from '../../src/events/outbox.js';
import { createSender } from '../../src/events/webhooks/sender.js';
import { DeliveryWorker, type AttemptReport } from '../../src/events/webhooks/worker.js';
import { defineScenario } from '../lib/scenario.js';
import { benchCompany, seedFleet } from '../lib/fleet.js';
import { postgresBaseUrl, postgresDatabase, sqliteDatabase, type BenchDatabase } from '../lib/databases.js';
import { waitForQuiet } from '../lib/load.js';

const LOG_ROWS = 5000;

export default defineScenario({
  name: 'webhook-delivery-log',
  summary: 'GET /v1/company_webhook_requests?per_page=25, first page of a 5,000-entry delivery log (INFO)',
  async seed(db, companyId) {
    const now = new Date().toISOString();
    const { id: hookId } = await db.kysely
      .insertInto('company_webhooks')
      .values({
        company_id: companyId,
        url: 'https://hooks.example.com/in',
        secret: 'bench-secret',
        format: 'json',
        actions: '["vehicle_upserted"]',
        enabled: 0,
        webhook_type: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.kysely.transaction().execute(async (trx) => {
      for (let i = 0; i < LOG_ROWS; i += 250) {
        await trx
          .insertInto('company_webhook_requests')
          .values(
            Array.from({ length: 250 }, (_, j) => ({
              company_id: companyId,
              company_webhook_id: hookId,
              event_id: i + j + 1,
              action: 'vehicle_upserted',
              trigger: 'updated',
              subject_key: `vehicle:${(i + j) % 100}`,
              url: 'https://hooks.example.com/in',
              secret: 'bench-secret',
              format: 'json',
              body: JSON.stringify({
                action: 'vehicle_upserted',
                trigger: 'updated',
                id: (i + j) % 100,
                number: `T-${i + j}`,
              }),
              state: 'delivered' as const,
              response_code: 200,
              next_attempt_at: null,
              lease_until: null,
              claim_token: null,
              event_occurred_at: now,
              posted_at: now,
              created_at: now,
              updated_at: now,
            })),
          )
          .execute();
      }
    });
    return { total: LOG_ROWS };
  },
  requests: () => () => ({ path: '/v1/company_webhook_requests?per_page=25' }),
  verify(res, state) {
    if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${JSON.stringify(res.body)}`);
    if (res.body.pagination.total !== state.total)
      throw new Error(`expected total ${state.total}, got ${res.body.pagination.total}`);
    if (res.body.company_webhook_requests.length !== 25) throw new Error('expected a full page');
  },
});

const num = (name: string, def: number) => Number(process.env[name] || def);
const log = (msg: string) => process.stderr.write(`[webhook-bench] ${msg}\n`);

/** A receiver in its own process: answers 200 at once and counts. */
async function startReceiver(): Promise<{ url: string; child: ChildProcess }> {
  const code = `const http=require('http');let n=0;const s=http.createServer((q,r)=>{q.resume();q.on('end',()=>{n++;r.writeHead(200,{'content-type':'text/plain'});r.end('ok')})});
    s.keepAliveTimeout=60000;s.listen(0,'127.0.0.1',()=>process.stdout.write('port '+s.address().port+'\\n'));process.on('disconnect',()=>process.exit(0));`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('receiver did not start')), 10_000);
    child.stdout!.on('data', (d) => {
      const m = /port (\d+)/.exec(String(d));
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
  });
  return { url: `http://127.0.0.1:${port}/hook`, child };
}

interface Setup {
  db: Db;
  companyId: number;
  vehicles: Array<Record<string, unknown> & { id: number }>;
}

async function setup(database: BenchDatabase, receiverUrl: string): Promise<Setup> {
  const db = openDb(database.url, { poolSize: 6 });
  await migrateToLatest(db);
  const { companyId } = await benchCompany(db, 'Webhook bench');
  await seedFleet(db, companyId, { vehicles: 1000, drivers: 500, groups: 5 });
  const vehicles = await db.kysely
    .selectFrom('vehicles')
    .selectAll()
    .where('company_id', '=', companyId)
    .orderBy('id')
    .execute();
  const now = new Date().toISOString();
  await db.kysely
    .insertInto('company_webhooks')
    .values({
      company_id: companyId,
      url: receiverUrl,
      secret: 'bench-secret-0000000',
      format: 'json',
      actions: '["vehicle_upserted"]',
      enabled: 1,
      webhook_type: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { db, companyId, vehicles };
}

async function commitEvents(s: Setup, from: number, count: number) {
  await s.db.kysely.transaction().execute(async (trx) => {
    for (let i = from; i < from + count; i++) {
      const v = s.vehicles[i % s.vehicles.length];
      await recordEvent(trx, {
        companyId: s.companyId,
        action: 'vehicle_upserted',
        trigger: 'updated',
        subject: { type: 'vehicle', id: v.id },
        data: v,
      });
    }
  });
}

const pct = (xs: number[], p: number) =>
  xs.length ? xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] : NaN;

async function measure(database: BenchDatabase, receiverUrl: string) {
  const s = await setup(database, receiverUrl);
  // The server's settings (WEBHOOK_* from the environment may change them), private targets allowed.
  const config = loadConfig({ ...process.env, DATABASE_URL: database.url, WEBHOOK_ALLOW_PRIVATE: '1' }).webhooks;
  const sender = createSender({ timeoutMs: config.timeoutMs, allowPrivate: true, maxSockets: config.concurrency });
  const attempts: AttemptReport[] = [];
  let failed = 0;
  const quiet = { warn() {}, error: (o: object, m: string) => log(`${m} ${JSON.stringify(o)}`) };
  const worker = new DeliveryWorker({
    db: s.db,
    config,
    publicUrl: 'http://127.0.0.1',
    sender,
    log: quiet,
    onAttempt: (a) => {
      attempts.push(a);
      if (a.result.status !== 200) failed++;
    },
  });
  try {
    // Throughput: a committed backlog, drained by one worker.
    const backlog = num('WEBHOOK_BENCH_EVENTS', 20_000);
    for (let i = 0; i < backlog; i += 1000) await commitEvents(s, i, Math.min(1000, backlog - i));
    const t0 = performance.now();
    worker.start();
    const deadline = Date.now() + 300_000;
    while (attempts.length < backlog && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const seconds = (performance.now() - t0) / 1000;
    const throughput = Math.round(attempts.length / seconds);
    log(`${database.kind}: ${attempts.length} deliveries in ${seconds.toFixed(2)} s = ${throughput}/s`);

    // Lag: a steady stream of commits while the worker runs.
    const rate = num('WEBHOOK_BENCH_RATE', 1000);
    const secs = num('WEBHOOK_BENCH_SECONDS', 10);
    const before = attempts.length;
    const perTick = Math.max(1, Math.round(rate / 100));
    const start = Date.now();
    let sent = 0;
    for (let tick = 0; tick < secs * 100; tick++) {
      await commitEvents(s, sent, perTick);
      sent += perTick;
      const wait = start + (tick + 1) * 10 - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    const until = Date.now() + 30_000;
    while (attempts.length < before + sent && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    const lags = attempts
      .slice(before)
      .map((a) => a.startedAtMs - Date.parse(a.eventOccurredAt!))
      .sort((a, b) => a - b);
    const achieved = Math.round(sent / ((Date.now() - start) / 1000));
    log(
      `${database.kind}: lag over ${lags.length} deliveries at ~${rate}/s: p50 ${pct(lags, 50)} ms, p99 ${pct(lags, 99)} ms, max ${lags.at(-1)} ms`,
    );
    return {
      database: database.kind,
      backlog,
      seconds: Number(seconds.toFixed(3)),
      deliveries_per_s: throughput,
      lag_rate_per_s: rate,
      lag_events: lags.length,
      lag_ms: { p50: pct(lags, 50), p95: pct(lags, 95), p99: pct(lags, 99), max: lags.at(-1) ?? null },
      offered_rate_achieved_per_s: achieved,
      non_200: failed,
      pass: throughput >= 2000 && pct(lags, 99) < 1000 && failed === 0,
    };
  } finally {
    await worker.stop();
    sender.close();
    await s.db.close();
  }
}

async function main(): Promise<number> {
  const receiver = await startReceiver();
  const only = process.env.WEBHOOK_BENCH_ONLY;
  const kinds: Array<() => Promise<BenchDatabase>> = only === 'postgres' ? [] : [async () => sqliteDatabase()];
  const pgBase = postgresBaseUrl();
  if (pgBase && only !== 'sqlite') kinds.push(() => postgresDatabase(pgBase));
  const results = [];
  try {
    for (const make of kinds) {
      const database = await make();
      try {
        const quietS = num('BENCH_QUIET_WAIT_S', 0);
        const busy = quietS > 0 ? await waitForQuiet(quietS, 15, log) : null;
        results.push({ ...(await measure(database, receiver.url)), other_processes_busy_pct: busy });
      } finally {
        await database.drop();
      }
    }
  } finally {
    receiver.child.kill('SIGTERM');
  }
  const dir = fileURLToPath(new URL('../results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const report = { at: new Date().toISOString(), targets: { deliveries_per_s: 2000, lag_p99_ms: 1000 }, results };
  writeFileSync(`${dir}webhook-delivery.json`, `${JSON.stringify(report, null, 2)}\n`);
  console.log('database  deliveries/s  lag p50  lag p99  lag max  verdict');
  for (const r of results) {
    console.log(
      `${r.database.padEnd(9)} ${String(r.deliveries_per_s).padStart(12)} ${String(r.lag_ms.p50).padStart(6)} ms ${String(r.lag_ms.p99).padStart(6)} ms ${String(r.lag_ms.max).padStart(6)} ms  ${r.pass ? 'PASS' : 'MISS'}`,
    );
  }
  return process.env.BENCH_STRICT === '1' && results.some((r) => !r.pass) ? 1 : 0;
}

function isEntry(): boolean {
  try {
    return !!process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntry()) {
  // Every loop above is bounded; this ends anything that hangs anyway.
  setTimeout(() => {
    log('run exceeded 15 minutes; stopping');
    process.exit(2);
  }, 900_000).unref();
  main().then(
    (code) => process.exit(code),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
