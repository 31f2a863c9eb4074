/**
 * The longest stretch one request holds the event loop, for every GET operation of the API (issue:
 * "no request may hold the event loop for more than ~100 ms of synchronous work").
 *
 * An app on a fresh database (SQLite, or PostgreSQL with `postgres`) takes the demo company and
 * BENCH_LOOP_HOURS (default 12) of simulated history from its 8 demo trucks through the device API; then
 * each GET operation of the OpenAPI document is asked, one at a time, in-process (`app.inject`, no
 * network), with its widest accepted date range (30 days, else 7, else 1) and 100 rows a page, three
 * times: the first run includes the route's schema compilation. While a request runs, a 1 ms timer
 * samples the event loop's delay (perf_hooks.monitorEventLoopDelay); its maximum is the longest
 * synchronous stretch, to about a millisecond.
 *
 *   npx tsx bench/loop-block.ts [sqlite|postgres]
 *   BENCH_LOOP_ONLY='^/v3/vehicle_locations' npx tsx bench/loop-block.ts postgres   # some paths only
 *
 * Prints the operations by their longest block and writes bench/results/loop-block-<db>.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/index.js';
import { seedDemo } from '../src/demo/seed.js';
import { simDevices } from '../src/sim/devices.js';
import { Simulation } from '../src/sim/runner.js';
import { warmGeographyHere } from '../src/telemetry/geocode/warm.js';
import { postgresBaseUrl, postgresDatabase, sqliteDatabase } from './lib/databases.js';

const dialect = process.argv[2] === 'postgres' ? 'postgres' : 'sqlite';
const HOURS = Number(process.env.BENCH_LOOP_HOURS ?? 12);
const RUNS = 3;
/** BENCH_LOOP_ONLY: a regular expression; only the paths it matches are asked. */
const ONLY = process.env.BENCH_LOOP_ONLY ? new RegExp(process.env.BENCH_LOOP_ONLY) : null;
const TMP = mkdtempSync(join(tmpdir(), 'fleet-loop-'));

const database = dialect === 'postgres' ? await postgresDatabase(postgresBaseUrl()) : sqliteDatabase();
const config = loadConfig({
  DATABASE_URL: database.url,
  LOG_LEVEL: 'silent',
  BLOB_DIR: join(TMP, 'blobs'),
  HOST: '127.0.0.1',
  PORT: '0',
  LOAD_SHED_EVENT_LOOP_DELAY_MS: '0',
  LOAD_SHED_MAX_IN_FLIGHT_REQUESTS: '0',
});
warmGeographyHere();
const app = await buildApp(config);
await app.listen({ host: '127.0.0.1', port: 0 });
const demo = await seedDemo(app.db);
if (!demo.created) throw new Error('the database was not empty');
const headers = { 'x-api-key': demo.apiKey.api_key };
const { devices } = await simDevices(app.db, { companyId: demo.company.id }, 8);
const address = app.server.address() as { port: number };
const sim = new Simulation({
  baseUrl: `http://127.0.0.1:${address.port}`,
  devices,
  seed: 2024,
  speedup: 3600,
  durationS: HOURS * 3600,
  tickMs: 50,
});
const started = performance.now();
const stats = await sim.run();
process.stderr.write(
  `loop-block: ${stats.records} records from ${devices.length} trucks over ${HOURS} h stored in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
);

const doc = app.swagger() as unknown as {
  paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string; required?: boolean }> }>>;
};
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const vehicleId = devices[0].vehicleId;
const driverId = devices.find((d) => d.driverId !== null)?.driverId ?? 1;

/** The path with its parameters filled: a simulated truck or its driver where the path names one. */
function pathOf(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (/driver|user/.test(name) || /\/(users|drivers|driver_locations)\//.test(path)) return String(driverId);
    if (/vehicle/.test(name) || /\/vehicle/.test(path)) return String(vehicleId);
    return '1';
  });
}

const DATE_FROM = /^(start_date|min_start_date|start_time|min_start_time|from|start)$/;
const DATE_TO = /^(end_date|max_start_date|end_time|max_start_time|to|end)$/;

function queryOf(params: Array<{ name: string; in: string }>, spanDays: number): string {
  const q: string[] = [];
  for (const p of params.filter((x) => x.in === 'query')) {
    if (DATE_FROM.test(p.name)) q.push(`${p.name}=${day(-spanDays + 1)}`);
    else if (DATE_TO.test(p.name)) q.push(`${p.name}=${day(0)}`);
    else if (p.name === 'date') q.push(`date=${day(0)}`);
    else if (p.name === 'per_page') q.push('per_page=100');
  }
  return q.length ? `?${q.join('&')}` : '';
}

const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();

interface Row {
  operation: string;
  url: string;
  status: number;
  bytes: number;
  firstMs: number;
  maxBlockMs: number;
}
const rows: Row[] = [];
for (const [path, ops] of Object.entries(doc.paths)) {
  if (!ops.get || path.startsWith('/device') || path.includes('stream')) continue;
  if (ONLY && !ONLY.test(path)) continue;
  const params = ops.get.parameters ?? [];
  let chosen: { url: string; status: number } | null = null;
  for (const span of [30, 7, 1]) {
    const url = pathOf(path) + queryOf(params, span);
    const res = await app.inject({ method: 'GET', url, headers });
    chosen = { url, status: res.statusCode };
    if (res.statusCode !== 400) break;
  }
  let maxBlock = 0;
  let firstMs = 0;
  let bytes = 0;
  let status = chosen!.status;
  for (let run = 0; run < RUNS; run++) {
    delay.reset();
    const t0 = performance.now();
    const res = await app.inject({ method: 'GET', url: chosen!.url, headers });
    // Let the sampler see the last stretch before reading it.
    await new Promise((r) => setTimeout(r, 5));
    if (run === 0) firstMs = performance.now() - t0;
    maxBlock = Math.max(maxBlock, delay.max / 1e6);
    bytes = res.body.length;
    status = res.statusCode;
  }
  rows.push({ operation: `GET ${path}`, url: chosen!.url, status, bytes, firstMs, maxBlockMs: maxBlock });
}
delay.disable();
rows.sort((a, b) => b.maxBlockMs - a.maxBlockMs);

const worst = rows[0];
console.log(
  `Node ${process.version}, ${cpus().length} CPUs, ${dialect}, load average ${loadavg()[0].toFixed(1)}; ${rows.length} GET operations, ${HOURS} h of 8 trucks' history`,
);
console.log('| operation | status | body bytes | longest block, ms | first request, ms |');
console.log('|---|--:|--:|--:|--:|');
for (const r of rows.slice(0, 15))
  console.log(`| ${r.operation} | ${r.status} | ${r.bytes} | ${r.maxBlockMs.toFixed(1)} | ${r.firstMs.toFixed(1)} |`);
console.log(
  `longest: ${worst.maxBlockMs.toFixed(1)} ms (${worst.url}); over 100 ms: ${rows.filter((r) => r.maxBlockMs > 100).length}`,
);
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(
  new URL(`./results/loop-block-${dialect}.json`, import.meta.url),
  JSON.stringify({ at: new Date().toISOString(), dialect, hours: HOURS, records: stats.records, rows }, null, 2),
);
await app.close();
await database.drop();
rmSync(TMP, { recursive: true, force: true });
