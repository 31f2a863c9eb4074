/** The results table on stdout and bench/results/latest.json. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, platform, release } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLIENT_BOUND_PCT, type LoadResult, type LoadSettings } from './load.js';

export interface ScenarioResult {
  scenario: string;
  database: 'sqlite' | 'postgres';
  /** Server processes sharing the database and the load. */
  nodes: number;
  /** The scenario's target ratio, or null for a calibration scenario (INFO). */
  target: number | null;
  /** Throughput over the paired baseline run's, 0..1; null when the scenario failed. */
  ratio: number | null;
  status: 'PASS' | 'MISS' | 'INFO' | 'ERROR';
  /**
   * Server CPU per request of the baseline over the scenario's, 0..1: the throughput ratio a server-bound
   * pair of runs would show, whatever bound the runs. Null when either figure is missing.
   */
  cpu_ratio: number | null;
  /** The target in server CPU: at most the baseline's µs/req divided by the target ratio. */
  cpu_target_us: number | null;
  /** The verdict on `cpu_ratio` against the target; null without a target or a figure. */
  cpu_status: 'PASS' | 'MISS' | null;
  /** A client process went over CLIENT_BOUND_PCT % of a core in the scenario's run or its baseline's: `ratio` is the client's, not the server's. */
  client_bound: boolean;
  load: LoadResult | null;
  /** The bare-Fastify run measured just before this scenario, same settings. */
  baseline: LoadResult | null;
  error?: string;
}

export interface Report {
  started_at: string;
  finished_at: string;
  command: string;
  machine: { cpus: number; cpu_model: string; platform: string; node: string };
  settings: LoadSettings;
  baseline: {
    method: string;
    runs: number;
    rps_mean: number;
    rps_min: number;
    rps_max: number;
    us_per_req_mean: number | null;
    client_bound_runs: number;
  };
  results: ScenarioResult[];
}

/** Other processes' CPU (% of one core) above which a run is flagged as disturbed. */
export const OTHER_CPU_WARN_PCT = 10;

export const RESULTS_FILE = join(dirname(fileURLToPath(import.meta.url)), '..', 'results', 'latest.json');

export function machine(): Report['machine'] {
  const c = cpus();
  return {
    cpus: c.length,
    cpu_model: c[0]?.model ?? 'unknown',
    platform: `${platform()} ${release()}`,
    node: process.version,
  };
}

export function baselineSummary(results: ScenarioResult[]): Report['baseline'] {
  const rps = results.flatMap((r) => (r.baseline ? [r.baseline.rps] : []));
  const us = results.flatMap((r) => (r.baseline?.server_cpu_us_per_req ? [r.baseline.server_cpu_us_per_req] : []));
  const avg = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const mean = avg(rps);
  return {
    method: 'paired: bare Fastify GET / measured right before each scenario, same settings',
    runs: rps.length,
    rps_mean: Math.round(mean),
    rps_min: rps.length ? Math.round(Math.min(...rps)) : 0,
    rps_max: rps.length ? Math.round(Math.max(...rps)) : 0,
    us_per_req_mean: us.length ? Math.round(avg(us)) : null,
    client_bound_runs: results.filter((r) => r.baseline?.client_bound).length,
  };
}

/** The throughput and server-CPU verdicts of a scenario against its paired baseline run. */
export function verdicts(target: number | undefined, load: LoadResult, pair: LoadResult) {
  const ratio = Math.round((load.rps / pair.rps) * 10_000) / 10_000;
  const us = load.server_cpu_us_per_req;
  const baseUs = pair.server_cpu_us_per_req;
  const cpu_ratio = us && baseUs ? Math.round((baseUs / us) * 10_000) / 10_000 : null;
  const cpu_target_us = target === undefined || !baseUs ? null : Math.round(baseUs / target);
  return {
    status: (target === undefined ? 'INFO' : ratio >= target ? 'PASS' : 'MISS') as ScenarioResult['status'],
    ratio,
    cpu_ratio,
    cpu_target_us,
    cpu_status: (target === undefined || cpu_ratio === null
      ? null
      : cpu_ratio >= target
        ? 'PASS'
        : 'MISS') as ScenarioResult['cpu_status'],
    client_bound: load.client_bound || pair.client_bound,
  };
}

const pct = (x: number | null) => (x === null ? '-' : `${(x * 100).toFixed(1)} %`);
const num = (x: number | null | undefined, d = 2) => (x === null || x === undefined ? '-' : x.toFixed(d));
const cpu = (l: LoadResult | null) =>
  l
    ? [l.server_cpu_pct, l.client_cpu_pct, l.postgres_cpu_pct, l.other_cpu_pct]
        .map((x) => (x === null ? '-' : String(x)))
        .join('/')
    : '-';

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i >= 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function formatReport(r: Report): string {
  const m = r.machine;
  const s = r.settings;
  const b = r.baseline;
  const head = [
    `${m.cpus} × ${m.cpu_model}, Node ${m.node}; ${s.connections} connections, ${s.durationS} s measured after ${s.warmupS} s warm-up, per run`,
    `baseline (bare Fastify GET /, paired with each scenario): mean ${b.rps_mean} req/s, min ${b.rps_min}, ` +
      `max ${b.rps_max}, ${b.us_per_req_mean ?? '-'} µs/req of server CPU; ${s.clients} client process(es), ${b.client_bound_runs} baseline run(s) client-bound`,
    'CPU ratio = baseline srv µs/req ÷ scenario srv µs/req; a target "≥ x % | ≤ y µs" is met by the throughput ratio, or in server CPU by at most y µs/req',
    '',
  ];
  const header = [
    'scenario',
    'database',
    'nodes',
    'req/s',
    'p50 ms',
    'p99 ms',
    'peak MB',
    'baseline req/s',
    'vs baseline',
    'srv µs/req (baseline)',
    'CPU ratio',
    'target',
    'result (req/s, CPU)',
    'cli µs/req',
    'CPU srv/cli/pg/other %',
  ];
  const rows = r.results.map((x) => [
    x.scenario,
    x.database,
    String(x.nodes),
    num(x.load?.rps, 0),
    num(x.load?.latency_ms.p50, 3),
    num(x.load?.latency_ms.p99, 3),
    num(x.load?.server_peak_rss_mb, 0),
    num(x.baseline?.rps, 0),
    `${pct(x.ratio)}${x.client_bound ? ' (client-bound)' : ''}`,
    `${num(x.load?.server_cpu_us_per_req, 0)} (${num(x.baseline?.server_cpu_us_per_req, 0)})`,
    pct(x.cpu_ratio),
    x.target === null ? '-' : `≥ ${(x.target * 100).toFixed(0)} % | ≤ ${x.cpu_target_us ?? '-'} µs`,
    x.cpu_status ? `${x.status}, ${x.cpu_status}` : x.status,
    `${num(x.load?.client_cpu_us_per_req, 1)} (${num(x.baseline?.client_cpu_us_per_req, 1)})`,
    cpu(x.load),
  ]);
  const notes = r.results
    .filter((x) => x.error)
    .map((x) => `${x.scenario} [${x.database}, ${x.nodes} nodes]: ${x.error}`);
  const bound = r.results.filter((x) => x.client_bound);
  if (bound.length) {
    notes.push(
      `CLIENT-BOUND: in ${bound.length} row(s) a client process used more than ${CLIENT_BOUND_PCT} % of a core during the run or its ` +
        'baseline (client_max_cpu_pct in the JSON): the throughput ratio there is set by the client; read the CPU ratio. More client ' +
        'processes (BENCH_CLIENTS) help only while a core is idle.',
    );
  }
  const busy = r.results.some((x) => [x.load, x.baseline].some((l) => (l?.other_cpu_pct ?? 0) > OTHER_CPU_WARN_PCT));
  if (busy) {
    notes.push(
      `WARNING: other processes used more than ${OTHER_CPU_WARN_PCT} % of a core during some runs (last column, and ` +
        'the baseline runs in the JSON); those numbers are disturbed. Rerun on a quiet machine.',
    );
  }
  return [...head, table(header, rows), ...notes].join('\n');
}

export function writeReport(r: Report): string {
  mkdirSync(dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(RESULTS_FILE, `${JSON.stringify(r, null, 2)}\n`);
  return RESULTS_FILE;
}
