/**
 * What the operations hooks (src/ops) cost per request, in one process on SQLite, with `app.inject`:
 *
 * 1. the hot-path recorders alone (per request, per query);
 * 2. the query observer that feeds them (the statement wrapper in src/storage/tracking-dialect.ts, which also
 *    tracks changes for the read cache), idle and observed (per query);
 * 3. `GET /v1/vehicles/:id` (an API key lookup and three reads) and `GET /healthz`, in alternating blocks
 *    of apps that differ only in their settings: nothing, metrics (METRICS_TOKEN), metrics and the
 *    slow-request line without query accounting (SLOW_REQUEST_QUERIES=0);
 * 4. the AsyncLocalStorage tax that query accounting brings: the same requests with an AsyncLocalStorage
 *    enabled and disabled in alternating blocks (on Node 20 it hooks every promise of the process).
 *
 *   npx tsx bench/ops-overhead.ts
 *
 * Minimum and median of the blocks, and the median of the paired differences. On a shared machine
 * only the minimums and the component numbers resolve a microsecond.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, type LogEvent } from 'kysely';
import { TrackingDialect, type QueryObserver } from '../src/storage/tracking-dialect.js';
import { ChangeTracker } from '../src/storage/changes.js';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/index.js';
import { createCompany } from '../src/domain/companies/service.js';
import { createApiKey } from '../src/auth/api-keys.js';
import { createMetrics } from '../src/ops/metrics.js';
import { httpRecorder, queryRecorder } from '../src/ops/http-metrics.js';

const BLOCK = Number(process.env.OPS_BENCH_BLOCK ?? 100);
const ROUNDS = Number(process.env.OPS_BENCH_ROUNDS ?? 60);
const min = (xs: number[]) => Math.min(...xs);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const f = (n: number) => n.toFixed(2).padStart(8);

function nsPerCall(n: number, fn: () => void): number {
  let best = Infinity;
  for (let r = 0; r < 20; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn();
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / n);
  }
  return best;
}

function recorders() {
  const m = createMetrics();
  const http = httpRecorder(m);
  const query = queryRecorder(m);
  const routes = ['/v1/vehicles/:id', '/v1/users', '/healthz', '/v1/vehicles'];
  const req = { method: 'GET', routeOptions: { url: routes[0] } } as never as Parameters<typeof http>[0];
  const reply = { statusCode: 200 } as never as Parameters<typeof http>[1];
  let k = 0;
  const perRequest = nsPerCall(100_000, () => {
    (req.routeOptions as { url: string }).url = routes[k++ & 3];
    http(req, reply, 1.5);
  });
  const event = {
    level: 'query',
    query: { query: { kind: 'SelectQueryNode' } },
    queryDurationMillis: 0.05,
  } as never as LogEvent;
  const perQuery = nsPerCall(100_000, () => query(event));
  console.log(`recorders: ${perRequest.toFixed(0)} ns per request, ${perQuery.toFixed(0)} ns per query`);
}

async function queryObserver() {
  const conn = new SqliteDatabase(':memory:');
  conn.exec("create table t (id integer primary key, v text); insert into t values (1, 'a')");
  const dialect = (observers: Set<QueryObserver>) =>
    new TrackingDialect(new SqliteDialect({ database: conn }), new ChangeTracker(), observers);
  const kinds = {
    plain: new Kysely<any>({ dialect: new SqliteDialect({ database: conn }) }),
    idle: new Kysely<any>({ dialect: dialect(new Set()) }),
    observed: new Kysely<any>({ dialect: dialect(new Set([() => {}])) }),
  };
  const block = async (k: Kysely<any>) => {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < 2000; i++) await k.selectFrom('t').selectAll().where('id', '=', 1).executeTakeFirst();
    return Number(process.hrtime.bigint() - t0) / 2000;
  };
  const best = { plain: Infinity, idle: Infinity, observed: Infinity };
  for (let r = 0; r < 30; r++)
    for (const [name, k] of Object.entries(kinds))
      best[name as keyof typeof best] = Math.min(best[name as keyof typeof best], await block(k));
  console.log(
    `query observer: ${(best.idle - best.plain).toFixed(0)} ns per query with no observer, ${(best.observed - best.plain).toFixed(0)} ns with one (point query ${best.plain.toFixed(0)} ns)`,
  );
  await kinds.plain.destroy();
}

interface Subject {
  name: string;
  app: FastifyInstance;
  headers: Record<string, string>;
  vehicleUrl: string;
}

async function subject(dir: string, name: string, env: Record<string, string>): Promise<Subject> {
  const config = loadConfig({
    DATABASE_URL: `sqlite:${join(dir, `${name}.db`)}`,
    LOG_LEVEL: 'silent',
    TELEMETRY_SWEEP_MS: '0',
    ...env,
  });
  const app = await buildApp(config);
  const company = await createCompany(app.db, { name: 'Bench' });
  const headers = { 'x-api-key': (await createApiKey(app.db, company.id, 'bench')).api_key };
  const res = await app.inject({ method: 'POST', url: '/v1/vehicles', headers, payload: { number: 'B-1' } });
  return { name, app, headers, vehicleUrl: `/v1/vehicles/${res.json().vehicle.id}` };
}

async function block(s: Subject, path: 'healthz' | 'vehicle'): Promise<number> {
  const url = path === 'healthz' ? '/healthz' : s.vehicleUrl;
  const headers = path === 'healthz' ? {} : s.headers;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < BLOCK; i++) await s.app.inject({ url, headers });
  return Number(process.hrtime.bigint() - t0) / BLOCK / 1000;
}

function report(path: string, names: string[], times: number[][]) {
  for (let i = 0; i < names.length; i++) {
    const paired = times[i].map((t, r) => t - times[0][r]);
    console.log(
      `  ${path.padEnd(8)} ${names[i].padEnd(22)} min ${f(min(times[i]))} µs  median ${f(median(times[i]))} µs  paired Δ ${f(median(paired))} µs  Δ of minimums ${f(min(times[i]) - min(times[0]))} µs`,
    );
  }
}

async function requests(dir: string) {
  const token = 'bench-metrics-token-0123456789';
  const subjects = [
    await subject(dir, 'none', { SLOW_REQUEST_MS: 'off' }),
    await subject(dir, 'metrics', { SLOW_REQUEST_MS: 'off', METRICS_TOKEN: token }),
    await subject(dir, 'metrics + slow line', { SLOW_REQUEST_QUERIES: '0', METRICS_TOKEN: token }),
  ];
  console.log(`requests (blocks of ${BLOCK}, ${ROUNDS} rounds):`);
  for (const path of ['healthz', 'vehicle'] as const) {
    for (const s of subjects) for (let w = 0; w < 5; w++) await block(s, path);
    const times: number[][] = subjects.map(() => []);
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 ? [...subjects.keys()].reverse() : [...subjects.keys()];
      for (const i of order) times[i].push(await block(subjects[i], path));
    }
    report(
      path,
      subjects.map((s) => s.name),
      times,
    );
  }
  console.log('AsyncLocalStorage enabled (what SLOW_REQUEST_QUERIES=1 adds to every request):');
  const als = new AsyncLocalStorage<object>();
  const none = subjects[0];
  for (const path of ['healthz', 'vehicle'] as const) {
    const times: number[][] = [[], []];
    for (let r = 0; r < ROUNDS; r++) {
      times[0].push(await block(none, path));
      als.enterWith({});
      times[1].push(await block(none, path));
      als.disable();
    }
    report(path, ['off', 'on'], times);
  }
  for (const s of subjects) await s.app.close();
}

recorders();
await queryObserver();
const dir = mkdtempSync(join(tmpdir(), 'ops-bench-'));
try {
  await requests(dir);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
