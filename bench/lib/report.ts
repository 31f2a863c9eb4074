/** The results table on stdout and bench/results/latest.json. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, platform, release } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadResult, LoadSettings } from './load.js';

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
  baseline: { method: string; runs: number; rps_mean: number; rps_min: number; rps_max: number };
  results: ScenarioResult[];
}

/** Other processes' CPU (% of one core) above which a run is flagged as disturbed. */
export const OTHER_CPU_WARN_PCT = 10;

export const RESULTS_FILE = join(dirname(fileURLToPath(import.meta.url)), '..', 'results', 'latest.json');

export function machine(): Report['machine'] {
  const c = cpus();
  return { cpus: c.length, cpu_model: c[0]?.model ?? 'unknown', platform: `${platform()} ${release()}`, node: process.version };
}

export function baselineSummary(results: ScenarioResult[]): Report['baseline'] {
  const rps = results.flatMap((r) => (r.baseline ? [r.baseline.rps] : []));
  const mean = rps.length ? rps.reduce((a, b) => a + b, 0) / rps.length : 0;
  return {
    method: 'paired: bare Fastify GET / measured right before each scenario, same settings',
    runs: rps.length,
    rps_mean: Math.round(mean),
    rps_min: rps.length ? Math.round(Math.min(...rps)) : 0,
    rps_max: rps.length ? Math.round(Math.max(...rps)) : 0,
  };
}

const pct = (x: number | null) => (x === null ? '-' : `${(x * 100).toFixed(1)} %`);
const num = (x: number | null | undefined, d = 2) => (x === null || x === undefined ? '-' : x.toFixed(d));
const cpu = (l: LoadResult | null) =>
  l ? [l.server_cpu_pct, l.client_cpu_pct, l.postgres_cpu_pct, l.other_cpu_pct].map((x) => (x === null ? '-' : String(x))).join('/') : '-';

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i >= 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function formatReport(r: Report): string {
  const m = r.machine;
  const s = r.settings;
  const b = r.baseline;
  const head = [
    `${m.cpus} × ${m.cpu_model}, Node ${m.node}; ${s.connections} connections, ${s.durationS} s measured after ${s.warmupS} s warm-up, per run`,
    `baseline (bare Fastify GET /, paired with each scenario): mean ${b.rps_mean} req/s, min ${b.rps_min}, max ${b.rps_max}`,
    '',
  ];
  const header = ['scenario', 'database', 'nodes', 'req/s', 'p50 ms', 'p99 ms', 'peak MB', 'baseline req/s', 'vs baseline', 'target', 'result', 'srv µs/req (baseline)', 'CPU srv/cli/pg/other %'];
  const rows = r.results.map((x) => [
    x.scenario,
    x.database,
    String(x.nodes),
    num(x.load?.rps, 0),
    num(x.load?.latency_ms.p50, 3),
    num(x.load?.latency_ms.p99, 3),
    num(x.load?.server_peak_rss_mb, 0),
    num(x.baseline?.rps, 0),
    pct(x.ratio),
    x.target === null ? '-' : `≥ ${(x.target * 100).toFixed(0)} %`,
    x.status,
    `${num(x.load?.server_cpu_us_per_req, 0)} (${num(x.baseline?.server_cpu_us_per_req, 0)})`,
    cpu(x.load),
  ]);
  const notes = r.results.filter((x) => x.error).map((x) => `${x.scenario} [${x.database}, ${x.nodes} nodes]: ${x.error}`);
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
