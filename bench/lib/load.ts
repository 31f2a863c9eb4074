/**
 * One load measurement with autocannon: a warm-up run (discarded) then the measured run, both with
 * the same connections and a bounded duration. Latency percentiles are computed from every response's
 * own timing (autocannon's histogram rounds to whole milliseconds, too coarse for sub-ms requests).
 * Also samples the server process's CPU time from /proc, to report CPU per request.
 */
import { readdirSync, readFileSync } from 'node:fs';
import autocannon, { type Instance, type Request } from 'autocannon';
import type { BenchRequest } from './scenario.js';

export interface LoadSettings {
  durationS: number;
  warmupS: number;
  connections: number;
}

export interface LoadResult {
  requests: number;
  rps: number;
  latency_ms: { mean: number; p50: number; p90: number; p99: number; max: number };
  non2xx: number;
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
  /** CPU used during the run by the load generator (this process) and by PostgreSQL, % of one core. */
  client_cpu_pct: number;
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

/** Turns a per-request generator into autocannon's `requests`; every request goes through it. */
function requestsOf(next: () => BenchRequest, headers: Record<string, string>): Request[] {
  return [
    {
      method: 'GET',
      path: '/',
      setupRequest: (req) => {
        const r = next();
        return { ...req, method: r.method ?? 'GET', path: r.path, headers: { ...headers, ...r.headers }, body: r.body };
      },
    },
  ];
}

function cannon(url: string, durationS: number, connections: number, requests: Request[], onLatency?: (ms: number) => void): Instance {
  const instance = autocannon({
    url,
    connections,
    duration: durationS,
    pipelining: 1,
    timeout: 10,
    requests,
    renderProgressBar: false,
    renderResultsTable: false,
    renderLatencyTable: false,
  });
  if (onLatency) {
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
      if (status >= 200 && status < 300) onLatency(ms);
    });
  }
  return instance;
}

/**
 * Loads one server, or several at once (the connections are shared out between them, as a load
 * balancer would); throughput, latencies and CPU are totals over all of them.
 */
export async function measure(
  targets: Target | Target[],
  next: () => BenchRequest,
  headers: Record<string, string>,
  s: LoadSettings,
  /** Called right before and after the measured run (not the warm-up), e.g. to profile it. */
  around?: { start(): Promise<void>; stop(): Promise<void> },
): Promise<LoadResult> {
  const nodes = Array.isArray(targets) ? targets : [targets];
  const share = (i: number) => Math.floor(s.connections / nodes.length) + (i < s.connections % nodes.length ? 1 : 0);
  const all = (durationS: number, onLatency?: (ms: number) => void) =>
    Promise.all(nodes.map((t, i) => cannon(t.url, durationS, Math.max(1, share(i)), requestsOf(next, headers), onLatency)));
  const serverTicks = () => {
    const ticks = nodes.map((t) => cpuTicks(t.pid));
    return ticks.some((x) => x === null) ? null : (ticks as number[]).reduce((a, b) => a + b, 0);
  };
  if (s.warmupS > 0) await all(s.warmupS);

  let lat = new Float64Array(1 << 16);
  let n = 0;
  const record = (ms: number) => {
    if (n === lat.length) {
      const bigger = new Float64Array(lat.length * 2);
      bigger.set(lat);
      lat = bigger;
    }
    lat[n++] = ms;
  };
  await around?.start();
  const cpu0 = serverTicks();
  const busy0 = machineBusyTicks();
  const pg0 = busy0 === null ? 0 : postgresTicks();
  const self0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const runs = await all(s.durationS, record);
  const res = {
    '2xx': runs.reduce((a, r) => a + r['2xx'], 0),
    non2xx: runs.reduce((a, r) => a + r.non2xx, 0),
    errors: runs.reduce((a, r) => a + r.errors, 0),
    timeouts: runs.reduce((a, r) => a + r.timeouts, 0),
    rps: runs.reduce((a, r) => a + r.requests.average, 0),
  };
  const elapsedS = Number(process.hrtime.bigint() - t0) / 1e9;
  const self = process.cpuUsage(self0);
  const cpu1 = serverTicks();
  const busy1 = machineBusyTicks();
  const pgS = busy0 === null ? null : Math.max(0, postgresTicks() - pg0) / TICKS_PER_S;
  await around?.stop();

  const sorted = lat.subarray(0, n).sort();
  let sum = 0;
  for (let i = 0; i < n; i++) sum += sorted[i]!;
  const total = res['2xx'] + res.non2xx;
  const cpuS = cpu0 === null || cpu1 === null ? null : (cpu1 - cpu0) / TICKS_PER_S;
  const clientS = (self.user + self.system) / 1e6;
  const busyS = busy0 === null || busy1 === null ? null : (busy1 - busy0) / TICKS_PER_S;
  const otherS = busyS === null || cpuS === null ? null : Math.max(0, busyS - cpuS - clientS - (pgS ?? 0));
  const pctOf = (x: number | null) => (x === null ? null : round((x / elapsedS) * 100, 0));
  return {
    requests: total,
    rps: round(res.rps, 1),
    latency_ms: {
      mean: round(n ? sum / n : 0),
      p50: round(percentile(sorted, 50)),
      p90: round(percentile(sorted, 90)),
      p99: round(percentile(sorted, 99)),
      max: round(n ? sorted[n - 1]! : 0),
    },
    non2xx: res.non2xx,
    errors: res.errors,
    timeouts: res.timeouts,
    server_cpu_us_per_req: cpuS === null || total === 0 ? null : round((cpuS * 1e6) / total, 0),
    server_cpu_pct: pctOf(cpuS),
    server_rss_mb: largest(nodes.map((t) => statusMb(t.pid, 'VmRSS'))),
    server_peak_rss_mb: largest(nodes.map((t) => statusMb(t.pid, 'VmHWM'))),
    nodes: nodes.length,
    client_cpu_pct: pctOf(clientS)!,
    postgres_cpu_pct: pctOf(pgS),
    other_cpu_pct: pctOf(otherS),
  };
}

/**
 * Waits (at most `maxS` seconds) until the machine is quiet: less than `thresholdPct` % of one core
 * busy over one second while no load runs. Returns the busy % of the last sample (null without /proc).
 */
export async function waitForQuiet(maxS: number, thresholdPct: number, log: (m: string) => void): Promise<number | null> {
  const deadline = Date.now() + maxS * 1000;
  let logged = false;
  for (;;) {
    const b0 = machineBusyTicks();
    await new Promise((r) => setTimeout(r, 1000));
    const b1 = machineBusyTicks();
    if (b0 === null || b1 === null) return null;
    const busyPct = ((b1 - b0) / TICKS_PER_S) * 100;
    if (busyPct <= thresholdPct || Date.now() >= deadline) {
      if (logged) log(`machine ${busyPct <= thresholdPct ? 'quiet' : 'still busy'} (${busyPct.toFixed(0)} % of a core busy), going on`);
      return Math.round(busyPct);
    }
    if (!logged) log(`machine busy (${busyPct.toFixed(0)} % of a core used by other processes); waiting up to ${maxS} s`);
    logged = true;
  }
}
