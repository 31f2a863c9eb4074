/**
 * `npm run bench`: load scenarios against the real app, as ratios of a bare Fastify baseline measured
 * in the same run with the same load settings, and as server CPU per request against the baseline's. See bench/README.md.
 *
 * Environment (all optional):
 *   BENCH_DURATION_S     measured seconds per scenario and per baseline run (default 10)
 *   BENCH_WARMUP_S       discarded warm-up seconds before each measurement (default 2)
 *   BENCH_CONNECTIONS    concurrent HTTP connections (default 10)
 *   BENCH_CLIENTS        load-generating client processes, the connections shared out (default 1)
 *   BENCH_SCENARIOS      comma-separated scenario names (default: every file in bench/scenarios/)
 *   BENCH_POSTGRES_URL   also run on PostgreSQL (falls back to TEST_POSTGRES_URL)
 *   BENCH_NODES          node counts to measure, comma-separated (default "1,2": every scenario on one
 *                        server process, then on two sharing the database, the connections split)
 *   BENCH_STRICT=1       exit 1 when a scenario misses its target (errors always exit 1)
 *   BENCH_QUIET_WAIT_S   before each pair of runs, wait up to this long for the machine to go quiet
 *                        (other processes under 15 % of a core); default 0, no wait
 *   BENCH_CPU_PROF=1     write a V8 CPU profile of each measured run (not warm-up, not start-up) to
 *                        bench/results/profiles/<scenario>-<database>.cpuprofile; read with bench/profile.ts
 */
import { join } from 'node:path';
import { openDb } from '../src/storage/db.js';
import { migrateToLatest } from '../src/storage/migrate.js';
import { loadScenarios, type LoadedScenario } from './lib/scenario.js';
import { benchCompany } from './lib/fleet.js';
import { measure, waitForQuiet, type LoadSettings } from './lib/load.js';
import { PROFILE_DIR, running, startServer, type ServerProcess } from './lib/server-process.js';
import { postgresBaseUrl, postgresDatabase, redact, sqliteDatabase, type BenchDatabase } from './lib/databases.js';
import {
  baselineSummary,
  formatReport,
  machine,
  verdicts,
  writeReport,
  type Report,
  type ScenarioResult,
} from './lib/report.js';

function intEnv(name: string, def: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  return n;
}

const settings: LoadSettings = {
  durationS: intEnv('BENCH_DURATION_S', 10, 1, 600),
  warmupS: intEnv('BENCH_WARMUP_S', 2, 0, 60),
  connections: intEnv('BENCH_CONNECTIONS', 10, 1, 1000),
  clients: intEnv('BENCH_CLIENTS', 1, 1, 16),
};
const quietWaitS = intEnv('BENCH_QUIET_WAIT_S', 0, 0, 3600);
const nodeCounts = (process.env.BENCH_NODES || '1,2').split(',').map((x) => {
  const n = Number(x.trim());
  if (!Number.isInteger(n) || n < 1 || n > 8)
    throw new Error(`BENCH_NODES must list node counts from 1 to 8, got "${process.env.BENCH_NODES}"`);
  return n;
});
const QUIET_PCT = 15;
const log = (msg: string) => process.stderr.write(`[bench] ${msg}\n`);
const live = new Set<BenchDatabase>();

/** Profiling hooks for one measured run when BENCH_CPU_PROF=1 (the profiler costs throughput). */
function profiled(server: ServerProcess, name: string) {
  if (process.env.BENCH_CPU_PROF !== '1') return undefined;
  const file = join(PROFILE_DIR, `${name}.cpuprofile`);
  return {
    start: () => server.profileStart(),
    stop: () => server.profileStop(file).then(() => void log(`profile: ${file}`)),
  };
}

async function cleanup() {
  for (const c of running) c.kill('SIGKILL');
  for (const d of live) await d.drop().catch(() => {});
}

interface Prepared {
  scenario: LoadedScenario;
  state: unknown;
  apiKey: string;
}

async function seed(database: BenchDatabase, scenarios: LoadedScenario[]): Promise<Prepared[]> {
  const db = openDb(database.url, { poolSize: 2 });
  try {
    await migrateToLatest(db);
    const out: Prepared[] = [];
    for (const scenario of scenarios) {
      const t0 = Date.now();
      const { companyId, apiKey } = await benchCompany(db, `Bench ${scenario.name}`);
      const state = await scenario.seed(db, companyId);
      log(`seeded ${scenario.name} [${database.kind}] in ${Date.now() - t0} ms`);
      out.push({ scenario, state, apiKey });
    }
    return out;
  } finally {
    await db.close();
  }
}

/**
 * One scenario: verify one real response, then the paired baseline run, then the scenario's run.
 * Pairing keeps the ratio honest on a shared machine, where load from elsewhere drifts over minutes.
 */
async function runScenario(
  apps: ServerProcess[],
  baseline: ServerProcess,
  p: Prepared,
  kind: BenchDatabase['kind'],
): Promise<ScenarioResult> {
  const { scenario } = p;
  const app = apps[0]!;
  const tag = `${scenario.name}-${kind}${apps.length > 1 ? `-${apps.length}nodes` : ''}`;
  const base = {
    scenario: scenario.name,
    database: kind,
    nodes: apps.length,
    target: scenario.target ?? null,
    ratio: null,
    cpu_ratio: null,
    cpu_target_us: null,
    cpu_status: null,
    client_bound: false,
    load: null,
    baseline: null,
  };
  try {
    const headers = { 'x-api-key': p.apiKey };
    // The runner sends the first request itself, checked by the scenario; the clients carry on the
    // scenario's sequence from the state that leaves (one-use values are never sent twice).
    const first = scenario.requests(p.state)();
    const res = await fetch(app.url + first.path, {
      method: first.method ?? 'GET',
      headers: { ...headers, ...first.headers, ...(first.body ? { 'content-type': 'application/json' } : {}) },
      body: first.body,
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    scenario.verify?.({ status: res.status, body }, p.state);
    if (quietWaitS > 0) await waitForQuiet(quietWaitS, QUIET_PCT, log);
    const each = `${settings.warmupS} s warm-up + ${settings.durationS} s measured`;
    const where = `${scenario.name} [${kind}, ${apps.length} node${apps.length > 1 ? 's' : ''}]`;
    log(`${where}: paired baseline, ${each}`);
    const pair = (
      await measure(baseline, { fixed: { path: '/' } }, {}, settings, profiled(baseline, `baseline-${tag}`))
    ).load;
    log(`${where}: ${each}`);
    const run = await measure(apps, { file: scenario.file, state: p.state }, headers, settings, profiled(app, tag));
    p.state = run.state;
    const load = run.load;
    const bad = load.non2xx + load.errors + load.timeouts;
    if (bad > 0) {
      const error = `${load.non2xx} non-2xx ${JSON.stringify(load.statuses)}, ${load.errors} errors, ${load.timeouts} timeouts`;
      return { ...base, status: 'ERROR', load, baseline: pair, error };
    }
    return { ...base, ...verdicts(scenario.target, load, pair), load, baseline: pair };
  } catch (err) {
    return { ...base, status: 'ERROR', error: (err as Error).message };
  }
}

async function main(): Promise<number> {
  const startedAt = new Date().toISOString();
  const scenarios = await loadScenarios(process.env.BENCH_SCENARIOS);
  const pgBase = postgresBaseUrl();
  const kinds: Array<() => Promise<BenchDatabase>> = [async () => sqliteDatabase()];
  if (pgBase) kinds.push(() => postgresDatabase(pgBase));
  else log('PostgreSQL skipped: set BENCH_POSTGRES_URL (or TEST_POSTGRES_URL) to measure it too');

  // Hard stop: every load loop is bounded, but a hung seed or server must not keep the run alive.
  const budgetS =
    scenarios.length *
      kinds.length *
      nodeCounts.length *
      (2 * (settings.durationS + settings.warmupS + 5) + quietWaitS) +
    600;
  setTimeout(() => {
    log(`run exceeded its ${budgetS} s budget; stopping`);
    void cleanup().finally(() => process.exit(2));
  }, budgetS * 1000).unref();

  const baseline = await startServer(['baseline']);
  const results: ScenarioResult[] = [];
  try {
    for (const make of kinds) {
      const database = await make();
      live.add(database);
      try {
        log(`database ${database.label}`);
        const prepared = await seed(database, scenarios);
        const apps: ServerProcess[] = [];
        try {
          for (const n of nodeCounts) {
            while (apps.length < n) apps.push(await startServer(['app', database.url]));
            while (apps.length > n) await apps.pop()!.stop();
            for (const p of prepared) results.push(await runScenario(apps, baseline, p, database.kind));
          }
        } finally {
          for (const app of apps) await app.stop();
        }
      } finally {
        await database.drop();
        live.delete(database);
      }
    }
  } finally {
    await baseline.stop();
  }

  const env = [
    'BENCH_DURATION_S',
    'BENCH_WARMUP_S',
    'BENCH_CONNECTIONS',
    'BENCH_CLIENTS',
    'BENCH_SCENARIOS',
    'BENCH_NODES',
    'BENCH_QUIET_WAIT_S',
    'BENCH_POSTGRES_URL',
  ]
    .filter((k) => process.env[k])
    .map((k) => `${k}=${k === 'BENCH_POSTGRES_URL' ? redact(process.env[k]!) : process.env[k]}`);
  const report: Report = {
    started_at: startedAt,
    finished_at: new Date().toISOString(),
    command: [...env, 'npm run bench'].join(' '),
    machine: machine(),
    settings,
    baseline: baselineSummary(results),
    results,
  };
  console.log(`\n${formatReport(report)}`);
  console.log(`\nwritten to ${writeReport(report)}`);
  const failed =
    results.some((r) => r.status === 'ERROR') ||
    (process.env.BENCH_STRICT === '1' && results.some((r) => r.status === 'MISS'));
  return failed ? 1 : 0;
}

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    log(`${sig}: stopping`);
    void cleanup().finally(() => process.exit(130));
  });
}

main().then(
  (code) => process.exit(code),
  async (err) => {
    console.error('[bench] failed:', err);
    await cleanup();
    process.exit(1);
  },
);
