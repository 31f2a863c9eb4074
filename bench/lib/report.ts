/** The results table on stdout and bench/results/latest.json. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, platform, release } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadResult, LoadSettings } from './load.js';

export interface ScenarioResult {
  scenario: string;
  database: 'sqlite' | 'postgres';
  target: number | null;
  /** Throughput over the baseline's (mean of its runs), 0..1; null when the scenario failed. */
  ratio: number | null;
  status: 'PASS' | 'MISS' | 'INFO' | 'ERROR';
  load: LoadResult | null;
  error?: string;
}

export interface Report {
  started_at: string;
  finished_at: string;
  command: string;
  machine: { cpus: number; cpu_model: string; platform: string; node: string };
  settings: LoadSettings;
  baseline: { runs: LoadResult[]; rps: number };
  results: ScenarioResult[];
}

/** Other processes' CPU (% of one core) above which a run is flagged as disturbed. */
export const OTHER_CPU_WARN_PCT = 10;

export const RESULTS_FILE = join(dirname(fileURLToPath(import.meta.url)), '..', 'results', 'latest.json');

export function machine(): Report['machine'] {
  const c = cpus();
  return { cpus: c.length, cpu_model: c[0]?.model ?? 'unknown', platform: `${platform()} ${release()}`, node: process.version };
}

const pct = (x: number | null) => (x === null ? '-' : `${(x * 100).toFixed(1)} %`);
const num = (x: number | null | undefined, d = 2) => (x === null || x === undefined ? '-' : x.toFixed(d));

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i >= 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function formatReport(r: Report): string {
  const header = ['scenario', 'database', 'req/s', 'p50 ms', 'p99 ms', 'vs baseline', 'target', 'result', 'srv µs/req', 'CPU srv/cli/pg/other %'];
  const cpu = (l: LoadResult | null) =>
    l ? [l.server_cpu_pct, l.client_cpu_pct, l.postgres_cpu_pct, l.other_cpu_pct].map((x) => (x === null ? '-' : String(x))).join('/') : '-';
  const rows: string[][] = r.baseline.runs.map((b, i) => [
    `baseline (${i === 0 ? 'before' : 'after'})`,
    '-',
    num(b.rps, 0),
    num(b.latency_ms.p50, 3),
    num(b.latency_ms.p99, 3),
    pct(b.rps / r.baseline.rps),
    '-',
    '',
    num(b.server_cpu_us_per_req, 0),
    cpu(b),
  ]);
  for (const s of r.results) {
    rows.push([
      s.scenario,
      s.database,
      num(s.load?.rps, 0),
      num(s.load?.latency_ms.p50, 3),
      num(s.load?.latency_ms.p99, 3),
      pct(s.ratio),
      s.target === null ? '-' : `≥ ${(s.target * 100).toFixed(0)} %`,
      s.status,
      num(s.load?.server_cpu_us_per_req, 0),
      cpu(s.load),
    ]);
  }
  const notes = r.results.filter((s) => s.error).map((s) => `${s.scenario} [${s.database}]: ${s.error}`);
  const busy = [...r.baseline.runs, ...r.results.map((s) => s.load)].some((l) => (l?.other_cpu_pct ?? 0) > OTHER_CPU_WARN_PCT);
  if (busy) {
    notes.push(
      `WARNING: other processes used more than ${OTHER_CPU_WARN_PCT} % of a core during some runs (last column); ` +
        'those numbers are disturbed, rerun on a quiet machine.',
    );
  }
  return [table(header, rows), ...notes].join('\n');
}

export function writeReport(r: Report): string {
  mkdirSync(dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(RESULTS_FILE, `${JSON.stringify(r, null, 2)}\n`);
  return RESULTS_FILE;
}
