/**
 * One load measurement: a warm-up run (discarded) then the measured run, both with the same
 * connections and a bounded duration, from client processes of their own (bench/client.ts). Latency
 * percentiles are computed from every 2xx answer's own timing. Samples the CPU time of the server
 * process(es), of PostgreSQL and of the whole machine from /proc, and each client's own CPU, to report
 * CPU per request and to tell a client-bound run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { startClients } from './clients.js';
import type { BenchRequest } from './scenario.js';

/** A client process above this share of one core during a run sets the pace itself: the run is client-bound. */
export const CLIENT_BOUND_PCT = 80;

export interface LoadSettings {
  durationS: number;
  warmupS: number;
  connections: number;
  /** Client processes generating the load (the connections are shared out between them). */
  clients: number;
}

export interface LoadResult {
  requests: number;
  rps: number;
  latency_ms: { mean: number; p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  /** Non-2xx answers by status. */
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  /** Server process CPU (user + system) per request, microseconds; null where /proc is missing. */
  server_cpu_us_per_req: number | null;
  /** Server process CPU use during the run, % of one core. */
  server_cpu_pct: number | null;
  /** Server resident memory after the run, MB (a leak shows as growth from run to run); the largest node's. */
  server_rss_mb: number | null;
  /** Peak resident memory of the server process since it started (VmHWM), MB; the largest node's. */
  server_peak_rss_mb: number | null;
  /** Server processes that took the load. */
  nodes: number;
  /** Client processes that generated the load. */
  client_processes: number;
  /** CPU used during the run by the client processes together, % of one core. */
  client_cpu_pct: number;
  /** The busiest client process's CPU, % of one core. */
  client_max_cpu_pct: number;
  /** The clients' CPU per request, microseconds. */
  client_cpu_us_per_req: number | null;
  /** A client process used more than CLIENT_BOUND_PCT % of a core: the client, not the server, may have set the pace. */
  client_bound: boolean;
  /** CPU used during the run by PostgreSQL, % of one core. */
  postgres_cpu_pct: number | null;
  /**
   * CPU used by everything else on the machine during the run, % of one core. Above ~10 % the
   * numbers are disturbed by other work (the runner warns).
   */
  other_cpu_pct: number | null;
}

const TICKS_PER_S = 100; // USER_HZ on Linux

function cpuTicks(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime + stime
  } catch {
    return null;
  }
}

/** CPU time (user + system) used so far by a process, milliseconds (Linux /proc; null elsewhere). */
export function cpuMs(pid: number): number | null {
  const ticks = cpuTicks(pid);
  return ticks === null ? null : ticks * (1000 / TICKS_PER_S);
}

/** Busy ticks of the whole machine (all cores), from /proc/stat. */
function machineBusyTicks(): number | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
    // cpu  user nice system idle iowait irq softirq steal …
    const f = line.trim().split(/\s+/).map(Number);
    return f[1]! + f[2]! + f[3]! + f[6]! + f[7]!;
  } catch {
    return null;
  }
}

/** CPU ticks of every `postgres` process (server, backends, background workers). */
function postgresTicks(): number {
  let sum = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      sum += cpuTicks(Number(name)) ?? 0;
    } catch {
      // the process ended meanwhile
    }
  }
  return sum;
}

function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** The largest value over the nodes, or null when none could be read. */
function largest(values: Array<number | null>): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length ? Math.max(...known) : null;
}

/** A server process under load. */
export interface Target {
  url: string;
  pid: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const round = (x: number, d = 3) => Math.round(x * 10 ** d) / 10 ** d;

/** What the clients send: one fixed request (the baseline), or a scenario's generator over its state. */
export type RequestSource = { fixed: BenchRequest } | { file: string; state: unknown };

export interface Phase {
  ok: number;
  non2xx: number;
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  latencies: Float64Array;
  elapsedS: number;
  cpuS: number;
}

/** Concatenates the clients' latencies. */
function merged(parts: Float64Array[]): Float64Array {
  const out = new Float64Array(parts.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Loads one server, or several at once (the connections are shared out between them, as a load
 * balancer would), from `s.clients` client processes (the connections shared out between those too);
 * throughput, latencies and CPU are totals over all of them. Answers the result and the scenario's
 * state after the run (a generator that hands out one-use values must not repeat them next time).
 */
export async function measure(
  targets: Target | Target[],
  source: RequestSource,
  headers: Record<string, string>,
  s: LoadSettings,
  /** Called right before and after the measured run (not the warm-up), e.g. to profile it. */
  around?: { start(): Promise<void>; stop(): Promise<void> },
): Promise<{ load: LoadResult; state: unknown }> {
  const nodes = Array.isArray(targets) ? targets : [targets];
  const clients = await startClients(nodes, source, headers, s);
  const serverTicks = () => {
    const ticks = nodes.map((t) => cpuTicks(t.pid));
    return ticks.some((x) => x === null) ? null : (ticks as number[]).reduce((a, b) => a + b, 0);
  };
  try {
    if (s.warmupS > 0) await clients.phase(s.warmupS, false);
    await around?.start();
    const cpu0 = serverTicks();
    const busy0 = machineBusyTicks();
    const pg0 = busy0 === null ? 0 : postgresTicks();
    const self0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    const runs = await clients.phase(s.durationS, true);
    const elapsedS = Number(process.hrtime.bigint() - t0) / 1e9;
    const self = process.cpuUsage(self0);
    const cpu1 = serverTicks();
    const busy1 = machineBusyTicks();
    const pgS = busy0 === null ? null : Math.max(0, postgresTicks() - pg0) / TICKS_PER_S;
    await around?.stop();
    const state = await clients.finish();

    const sum = (k: 'ok' | 'non2xx' | 'errors' | 'timeouts') => runs.reduce((a, r) => a + r[k], 0);
    const sorted = merged(runs.map((r) => r.latencies)).sort();
    const n = sorted.length;
    let latSum = 0;
    for (let i = 0; i < n; i++) latSum += sorted[i]!;
    const total = sum('ok') + sum('non2xx');
    const cpuS = cpu0 === null || cpu1 === null ? null : (cpu1 - cpu0) / TICKS_PER_S;
    const clientS = runs.reduce((a, r) => a + r.cpuS, 0);
    const runnerS = (self.user + self.system) / 1e6;
    const busyS = busy0 === null || busy1 === null ? null : (busy1 - busy0) / TICKS_PER_S;
    const otherS = busyS === null || cpuS === null ? null : Math.max(0, busyS - cpuS - clientS - runnerS - (pgS ?? 0));
    const pctOf = (x: number | null) => (x === null ? null : round((x / elapsedS) * 100, 0));
    const clientMax = Math.max(...runs.map((r) => round((r.cpuS / r.elapsedS) * 100, 0)));
    const load: LoadResult = {
      requests: total,
      rps: round(
        runs.reduce((a, r) => a + (r.ok + r.non2xx) / r.elapsedS, 0),
        1,
      ),
      latency_ms: {
        mean: round(n ? latSum / n : 0),
        p50: round(percentile(sorted, 50)),
        p90: round(percentile(sorted, 90)),
        p99: round(percentile(sorted, 99)),
        max: round(n ? sorted[n - 1]! : 0),
      },
      non2xx: sum('non2xx'),
      statuses: runs.reduce<Record<string, number>>((a, r) => {
        for (const [k, v] of Object.entries(r.statuses)) a[k] = (a[k] ?? 0) + v;
        return a;
      }, {}),
      errors: sum('errors'),
      timeouts: sum('timeouts'),
      server_cpu_us_per_req: cpuS === null || total === 0 ? null : round((cpuS * 1e6) / total, 0),
      server_cpu_pct: pctOf(cpuS),
      server_rss_mb: largest(nodes.map((t) => statusMb(t.pid, 'VmRSS'))),
      server_peak_rss_mb: largest(nodes.map((t) => statusMb(t.pid, 'VmHWM'))),
      nodes: nodes.length,
      client_processes: runs.length,
      client_cpu_pct: pctOf(clientS)!,
      client_max_cpu_pct: clientMax,
      client_cpu_us_per_req: total === 0 ? null : round((clientS * 1e6) / total, 1),
      client_bound: clientMax > CLIENT_BOUND_PCT,
      postgres_cpu_pct: pctOf(pgS),
      other_cpu_pct: pctOf(otherS),
    };
    return { load, state };
  } finally {
    await clients.stop();
  }
}

/**
 * Waits (at most `maxS` seconds) until the machine is quiet: less than `thresholdPct` % of one core
 * busy over one second while no load runs. Returns the busy % of the last sample (null without /proc).
 */
export async function waitForQuiet(
  maxS: number,
  thresholdPct: number,
  log: (m: string) => void,
): Promise<number | null> {
  const deadline = Date.now() + maxS * 1000;
  let logged = false;
  for (;;) {
    const b0 = machineBusyTicks();
    await new Promise((r) => setTimeout(r, 1000));
    const b1 = machineBusyTicks();
    if (b0 === null || b1 === null) return null;
    const busyPct = ((b1 - b0) / TICKS_PER_S) * 100;
    if (busyPct <= thresholdPct || Date.now() >= deadline) {
      if (logged)
        log(
          `machine ${busyPct <= thresholdPct ? 'quiet' : 'still busy'} (${busyPct.toFixed(0)} % of a core busy), going on`,
        );
      return Math.round(busyPct);
    }
    if (!logged)
      log(`machine busy (${busyPct.toFixed(0)} % of a core used by other processes); waiting up to ${maxS} s`);
    logged = true;
  }
}
