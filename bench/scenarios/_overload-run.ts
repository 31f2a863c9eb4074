/**
 * The overload benchmark's own measurement (run through `npx tsx bench/scenarios/overload.ts`; files
 * starting with `_` are not scenarios). Far more load than one node can serve: OVERLOAD_CONNECTIONS
 * (500) keep-alive connections to the real server (a child process), half posting device batches of
 * OVERLOAD_BATCH (500) fixes, one device each, half reading vehicle pages, for OVERLOAD_SECONDS (20);
 * meanwhile /healthz and /readyz are probed every 100 ms from a worker thread. A batch answered 503 or
 * 429 is sent again at once (the harshest client; OVERLOAD_HONOR_RETRY_AFTER=1 waits as told).
 * Every request has a 10 s deadline; after the run the requests in flight get that long to finish.
 *
 * OVERLOAD_VIA_NGINX=1 puts deploy/nginx.conf in front (plain HTTP, test/ops/nginx-front.ts): the
 * clients talk to nginx, which holds their connections and keeps at most 64 of its own to the server;
 * the probes still ask the server directly, as an orchestrator's would.
 *
 * Target: every request answered (2xx, 429 or 503) within 2 s, none unanswered, the probes never
 * silent for 2 s. Writes bench/results/overload-<database>.json (and, with BENCH_CPU_PROF=1, a CPU
 * profile of the server over the run to bench/results/profiles/overload-<database>.cpuprofile).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openDb } from '../../src/storage/db.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { benchCompany, seedFleet } from '../lib/fleet.js';
import { cpuMs } from '../lib/load.js';
import { ownRun } from '../lib/own-run.js';
import { startProber } from '../lib/prober.js';
import { PROFILE_DIR, startServer } from '../lib/server-process.js';
import { nextBatch, seedIngest } from './_ingest-run.js';
import { startNginxFront, type NginxFront } from '../../test/ops/nginx-front.js';

const num = (name: string, def: number) => (process.env[name] ? Number(process.env[name]) : def);
const ANSWER_WITHIN_MS = 2000;
const REQUEST_TIMEOUT_MS = 10_000;
const METRICS_TOKEN = 'overload-bench-metrics-token';

type Outcome =
  { status: number; ms: number; retryAfterS: number } | { status: 0; ms: number; error: 'timeout' | 'error' };

/** One request on the connection `agent` holds, answered or given up after REQUEST_TIMEOUT_MS. */
function send(
  agent: Agent,
  url: URL,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Outcome> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    let done = false;
    const finish = (o: Outcome) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(o);
    };
    const req = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: body ? { ...headers, 'content-length': String(Buffer.byteLength(body)) } : headers,
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          finish({
            status: res.statusCode ?? 0,
            ms: performance.now() - t0,
            retryAfterS: Number(res.headers['retry-after'] ?? 0),
          }),
        );
        res.on('error', () => finish({ status: 0, ms: performance.now() - t0, error: 'error' }));
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      finish({ status: 0, ms: performance.now() - t0, error: 'timeout' });
    }, REQUEST_TIMEOUT_MS);
    req.on('error', () => finish({ status: 0, ms: performance.now() - t0, error: 'error' }));
    req.end(body);
  });
}

class Tally {
  sent = 0;
  answered: Record<string, number> = { '2xx': 0, '429': 0, '503': 0, other: 0 };
  late = 0;
  timeouts = 0;
  /**
   * Unanswered and late requests that were the first on their connection: Node accepts one connection
   * per turn of its event loop (docs/operations.md), so these may have waited to be accepted.
   */
  unansweredFirst = 0;
  lateFirst = 0;
  errors = 0;
  latencies: number[] = [];
  add(o: Outcome, firstOnConnection = false) {
    this.sent++;
    if (o.status === 0) {
      if (firstOnConnection) this.unansweredFirst++;
      if ('error' in o && o.error === 'timeout') this.timeouts++;
      else this.errors++;
      return;
    }
    const cls =
      o.status >= 200 && o.status < 300 ? '2xx' : o.status === 429 || o.status === 503 ? String(o.status) : 'other';
    this.answered[cls]++;
    this.latencies.push(o.ms);
    if (o.ms > ANSWER_WITHIN_MS) {
      this.late++;
      if (firstOnConnection) this.lateFirst++;
    }
  }
  report() {
    const sorted = this.latencies.sort((a, b) => a - b);
    const pct = (p: number) =>
      sorted.length ? round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]) : 0;
    return {
      sent: this.sent,
      answered: this.answered,
      answered_after_2s: this.late,
      unanswered: this.timeouts + this.errors,
      timeouts: this.timeouts,
      errors: this.errors,
      late_first_on_connection: this.lateFirst,
      unanswered_first_on_connection: this.unansweredFirst,
      latency_ms: { p50: pct(50), p99: pct(99), max: round(sorted.at(-1) ?? 0) },
    };
  }
}

const round = (x: number) => Math.round(x * 10) / 10;

/**
 * The server's main thread (its event loop): ms on a CPU and ms runnable but waiting for one (Linux
 * schedstat; null elsewhere). Much waiting means other processes starve the server, not that it is slow.
 */
function mainThreadSched(pid: number): { onCpuMs: number; waitMs: number } | null {
  try {
    const [on, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ').map(Number);
    return { onCpuMs: on / 1e6, waitMs: wait / 1e6 };
  } catch {
    return null;
  }
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** From the server's /metrics: the shed counters by reason, and its longest event-loop stall since start. */
async function serverMetrics(url: string): Promise<{ shed: Record<string, number>; eventLoopLagMaxMs: number }> {
  const text = await (
    await fetch(`${url}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      signal: AbortSignal.timeout(10_000),
    })
  ).text();
  const shed = Object.fromEntries(
    [...text.matchAll(/^fleet_load_shed_requests_total\{reason="(\w+)"\} (\d+)/gm)].map((m) => [m[1], Number(m[2])]),
  );
  const lag = /^nodejs_eventloop_lag_max_seconds (\S+)/m.exec(text);
  return { shed, eventLoopLagMaxMs: lag ? round(Number(lag[1]) * 1000) : -1 };
}

export async function runOverloadBench(kind: 'sqlite' | 'postgres') {
  const seconds = num('OVERLOAD_SECONDS', 20);
  const connections = num('OVERLOAD_CONNECTIONS', 500);
  const batchSize = num('OVERLOAD_BATCH', 500);
  const honorRetryAfter = process.env.OVERLOAD_HONOR_RETRY_AFTER === '1';
  const viaNginx = process.env.OVERLOAD_VIA_NGINX === '1';
  const batchConnections = Math.ceil(connections / 2);
  await ownRun('overload', kind, (seconds + 240) * 1000, async (database, log) => {
    const db = openDb(database.url, { poolSize: 2 });
    await migrateToLatest(db);
    const { companyId, apiKey } = await benchCompany(db, 'Overload bench');
    await seedFleet(db, companyId, { vehicles: 1000, drivers: 500, groups: 5 });
    const ingest = await seedIngest(db, companyId, batchConnections, 'OVL');
    await db.close();

    process.env.METRICS_TOKEN = METRICS_TOKEN;
    const server = await startServer(['app', database.url]);
    let front: NginxFront | null = null;
    if (viaNginx) front = await startNginxFront(new URL(server.url).host, { tls: false });
    const url = new URL(front ? `http://127.0.0.1:${front.port}` : server.url);
    const batches = new Tally();
    const lists = new Tally();
    const clientLag = monitorEventLoopDelay({ resolution: 10 });
    try {
      // Warm-up: the first batch loads the place and jurisdiction indexes (a stall of its own, once per
      // process), the first page fills the read cache. Then the server's loop samples are of the load.
      const warm = new Agent({ keepAlive: true, maxSockets: 1 });
      let served = 0;
      for (let attempt = 0; served < 3; attempt++) {
        if (attempt === 50) throw new Error('the server did not serve the warm-up requests');
        const b = await send(
          warm,
          url,
          'POST',
          '/device/v1/batches',
          { authorization: `Bearer ${ingest.devices[0].token}`, 'content-type': 'application/json' },
          nextBatch(ingest, 0, batchSize),
        );
        const l = await send(warm, url, 'GET', '/v1/vehicles?per_page=25', { 'x-api-key': apiKey });
        if (b.status === 200 && l.status === 200) served++;
        else await sleep(200); // shed while the first batch's stall is in the loop sample
      }
      warm.destroy();
      await sleep(1000);
      await serverMetrics(server.url); // a scrape restarts the server's loop-stall maximum: measure the run only
      log(
        `${connections} connections (${batchConnections} device batches of ${batchSize} fixes, ${connections - batchConnections} vehicle pages), ${seconds} s`,
      );
      const profile = process.env.BENCH_CPU_PROF === '1' ? join(PROFILE_DIR, `overload-${kind}.cpuprofile`) : null;
      if (profile) await server.profileStart();
      const prober = startProber(server.url, ['/healthz', '/readyz']);
      clientLag.enable();
      const cpu0 = cpuMs(server.pid);
      const sched0 = mainThreadSched(server.pid);
      const until = performance.now() + seconds * 1000;
      const loops = Array.from({ length: connections }, async (_, c) => {
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        const isBatch = c < batchConnections;
        const device = ingest.devices[c % ingest.devices.length];
        let body: string | null = null;
        let first = true; // a new connection (the agent opens its socket for the first request, and again after a timeout)
        try {
          while (performance.now() < until) {
            let o: Outcome;
            if (isBatch) {
              body ??= nextBatch(ingest, c % ingest.devices.length, batchSize);
              o = await send(
                agent,
                url,
                'POST',
                '/device/v1/batches',
                { authorization: `Bearer ${device.token}`, 'content-type': 'application/json' },
                body,
              );
              batches.add(o, first);
              if (o.status >= 200 && o.status < 300) body = null; // else the same batch again, as a device retries it
            } else {
              o = await send(agent, url, 'GET', `/v1/vehicles?per_page=25&page_no=${1 + (c % 40)}`, {
                'x-api-key': apiKey,
              });
              lists.add(o, first);
            }
            first = o.status === 0;
            if (honorRetryAfter && 'retryAfterS' in o && o.retryAfterS > 0) await sleep(o.retryAfterS * 1000);
          }
        } finally {
          agent.destroy();
        }
      });
      await Promise.all(loops);
      const elapsed = seconds + (performance.now() - until) / 1000;
      const cpu1 = cpuMs(server.pid);
      const sched1 = mainThreadSched(server.pid);
      clientLag.disable();
      const probes = await prober.stop();
      if (profile) await server.profileStop(profile);
      const metrics = await serverMetrics(server.url);
      const all = new Tally();
      for (const t of [batches, lists]) {
        all.sent += t.sent;
        for (const k of Object.keys(all.answered)) all.answered[k] += t.answered[k];
        all.late += t.late;
        all.timeouts += t.timeouts;
        all.unansweredFirst += t.unansweredFirst;
        all.lateFirst += t.lateFirst;
        all.errors += t.errors;
        all.latencies.push(...t.latencies);
      }
      const total = all.report();
      const probeSilence = Math.max(...Object.values(probes).map((p) => p.longest_silence_ms));
      const probeFailures = Object.values(probes).reduce((a, p) => a + p.failed + p.other_status, 0);
      return {
        database: kind,
        seconds,
        connections,
        batch_connections: batchConnections,
        batch_records: batchSize,
        client: honorRetryAfter ? 'waits Retry-After' : 'sends again at once',
        front: viaNginx ? 'nginx (deploy/nginx.conf)' : 'none',
        shedding_settings: Object.fromEntries(
          Object.entries(process.env).filter(([k]) => k.startsWith('LOAD_SHED_') || k === 'ACCEPT_PER_TURN'),
        ),
        ...total,
        by_request: { device_batches: batches.report(), vehicle_pages: lists.report() },
        records_stored_per_s: Math.round((batches.answered['2xx'] * batchSize) / elapsed),
        shed_by_reason: metrics.shed,
        server_event_loop_stall_max_ms: metrics.eventLoopLagMaxMs,
        probes,
        server_cpu_pct: cpu0 === null || cpu1 === null ? null : Math.round(((cpu1 - cpu0) / 1000 / elapsed) * 100),
        server_event_loop_thread:
          sched0 && sched1
            ? {
                on_cpu_pct: Math.round((sched1.onCpuMs - sched0.onCpuMs) / 10 / elapsed),
                waiting_for_cpu_pct: Math.round((sched1.waitMs - sched0.waitMs) / 10 / elapsed),
              }
            : null,
        client_event_loop_delay_max_ms: round(clientLag.max / 1e6),
        targets: { answered_within_ms: ANSWER_WITHIN_MS, unanswered: 0, probe_silence_below_ms: ANSWER_WITHIN_MS },
        pass:
          total.unanswered === 0 &&
          total.answered.other === 0 &&
          total.answered_after_2s === 0 &&
          probeFailures === 0 &&
          probeSilence < ANSWER_WITHIN_MS,
      };
    } finally {
      await front?.stop();
      await server.stop();
    }
  });
}
