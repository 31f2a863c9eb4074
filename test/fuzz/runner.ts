/**
 * Runs generated requests against the fuzz app, one at a time, and judges each answer: no 5xx; a 4xx
 * is JSON with a string `error_message` (or what the surface's own judge says); a refused write leaves
 * the database fingerprint unchanged. /healthz is probed over HTTP from another thread meanwhile, and
 * the main thread's event-loop delay is measured. Failures are collected (not stopped at), grouped by
 * class, and reported with the seed that replays the whole sequence.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import fc from 'fast-check';
import type { FuzzApp } from './fixtures.js';
import { diff, fingerprinter, tableNames, type Fingerprint } from './fingerprint.js';
import { startHealthProbe, type ProbeReport } from './health-probe.js';
import type { FuzzRequest } from './openapi-arbitrary.js';
import { describeRequest } from './report.js';

export interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

/** What the judge sees besides the answer: the tables that changed, when the request could write. */
export interface Seen {
  changed: string[] | null;
  /** Row counts of a table before and after the request (writes only). */
  rows(table: string): [number, number] | null;
}

export type Judge = (req: FuzzRequest, res: Answer, seen: Seen) => string[];

/** The answer's parsed JSON body, or undefined. */
export function jsonOf(res: Answer): any {
  try {
    return JSON.parse(res.body);
  } catch {
    return undefined;
  }
}

/** The API's contract for every request. */
export const apiJudge: Judge = (req, res, seen) => {
  const out: string[] = [];
  if (res.status >= 500) out.push('5xx');
  if (res.status >= 400 && res.status < 500) {
    const body = jsonOf(res);
    const type = String(res.headers['content-type'] ?? '');
    if (!type.startsWith('application/json') || !body || typeof body.error_message !== 'string')
      out.push('4xx without a JSON error_message');
  }
  if (res.status >= 400 && seen.changed?.length) out.push(`refused write changed ${seen.changed.join(', ')}`);
  return out;
};

/**
 * The run's seed: a fixed one by default, so that `npm test` (and CI) sends the same requests every
 * time and a failure is the code's, not the draw's; FUZZ_SEED=<n> replays or explores another one,
 * FUZZ_SEED=random draws one (printed).
 */
export const DEFAULT_SEED = 20261127;
const seedEnv = process.env.FUZZ_SEED;
export const SEED = !seedEnv ? DEFAULT_SEED : seedEnv === 'random' ? (Math.random() * 2 ** 31) | 0 : Number(seedEnv);
/** Requests per database for the API fuzz (other surfaces take a share of it); FUZZ_RUNS raises it. */
export const RUNS = Number(process.env.FUZZ_RUNS || 1500);

export interface Failure {
  kind: string;
  op: string;
  what: string;
  status: number;
  body: string;
  request: FuzzRequest;
  index: number;
  count: number;
}

export interface FuzzReport {
  label: string;
  seed: number;
  requests: number;
  ms: number;
  fingerprintMs: number;
  failures: Failure[];
  probe: ProbeReport;
  loopMaxMs: number;
  blockedBy: string[];
  unconfirmed: string[];
  /** Answers by status, and how many operations got at least one request. */
  statuses: Record<number, number>;
  operations: number;
  slowest: Array<{ ms: number; request: string }>;
}

const normalize = (s: string) =>
  s
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\d+/g, '#')
    .slice(0, 140);

/** A request unanswered after this long is a failure of its own (and the run moves on). */
const ANSWER_MS = 15_000;

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms))),
  ]).finally(() => clearTimeout(timer));
}

/** Requests over real HTTP to the app's port (Node's own parser and its limits apply, as in production). */
export function httpSender(port: number): { send(req: FuzzRequest): Promise<Answer>; close(): void } {
  // A connection per request: a server that closes one after an error cannot fail the next request.
  const agent = new http.Agent({ keepAlive: false });
  const send = (req: FuzzRequest) =>
    new Promise<Answer>((resolve, reject) => {
      const payload =
        req.payload === undefined ? undefined : Buffer.isBuffer(req.payload) ? req.payload : Buffer.from(req.payload);
      const headers: Record<string, string | number> = { ...req.headers };
      if (payload) headers['content-length'] = payload.length;
      const r = http.request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      });
      r.on('error', reject);
      r.end(payload);
    });
  return { send, close: () => agent.destroy() };
}

const PROBE_LIMIT_MS = 1000;

/** The longest event-loop block while the request is served, the smallest of 3 tries, ms. */
async function longestBlock(send: (req: FuzzRequest) => Promise<Answer>, req: FuzzRequest): Promise<number> {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  let least = Infinity;
  try {
    for (let i = 0; i < 3 && least >= PROBE_LIMIT_MS; i++) {
      h.reset();
      await send(req).catch(() => undefined);
      least = Math.min(least, Math.round(h.max / 1e6));
    }
  } finally {
    h.disable();
  }
  return least;
}

export interface RunOptions {
  label: string;
  fx: FuzzApp;
  arbitrary: fc.Arbitrary<FuzzRequest>;
  numRuns: number;
  judge?: Judge;
  /** Sends one request (default: inject into the app). */
  send?: (req: FuzzRequest) => Promise<Answer>;
  /** Whether the request may write (default: every method but GET). */
  mayWrite?: (req: FuzzRequest) => boolean;
}

export async function runFuzz(o: RunOptions): Promise<FuzzReport> {
  const judge = o.judge ?? apiJudge;
  const sender = o.send ? null : httpSender(o.fx.port);
  const send = o.send ?? sender!.send;
  const mayWrite = o.mayWrite ?? ((r: FuzzRequest) => r.method !== 'GET');
  const tables = await tableNames(o.fx.db);
  const failures = new Map<string, Failure>();
  const spans: Array<[number, number, number]> = [];
  const slowest: Array<{ ms: number; request: string }> = [];
  const requests: FuzzRequest[] = [];
  const statuses: Record<number, number> = {};
  let last: Fingerprint | null = null;
  let fpMs = 0;
  const fingerprint = fingerprinter(o.fx.db, tables);
  const takeFingerprint = async () => {
    const t = Date.now();
    const fp = await fingerprint();
    fpMs += Date.now() - t;
    return fp;
  };
  let readsSince: string[] = [];
  const loop = monitorEventLoopDelay({ resolution: 10 });
  const probe = startHealthProbe(o.fx.port, { limitMs: PROBE_LIMIT_MS });
  loop.enable();
  const started = Date.now();
  const record = (kind: string, req: FuzzRequest, res: Answer, index: number) => {
    const what = req.what.replace(/\[\d+\]/g, '[]');
    const key = `${kind}|${req.op}|${what}|${res.status}|${normalize(res.body)}`;
    const f = failures.get(key);
    if (f) f.count++;
    else
      failures.set(key, {
        kind,
        op: req.op,
        what,
        status: res.status,
        body: res.body.slice(0, 300),
        request: req,
        index,
        count: 1,
      });
  };
  try {
    await fc.assert(
      fc.asyncProperty(o.arbitrary, async (req) => {
        const index = requests.length;
        requests.push(req);
        const writes = mayWrite(req);
        let before: Fingerprint | null = null;
        if (writes) {
          before = await takeFingerprint();
          if (last && readsSince.length && diff(last, before).length) {
            const changed = diff(last, before).join(', ');
            record(
              `reads changed ${changed}`,
              { ...req, what: 'reads', op: readsSince[readsSince.length - 1] },
              { status: 200, headers: {}, body: readsSince.slice(-3).join(' | ') },
              index,
            );
          }
        }
        const t0 = Date.now();
        let res: Answer;
        if (process.env.FUZZ_TRACE) console.log(`#${index} ${describeRequest(req).slice(0, 300)}`);
        try {
          res = await withTimeout(send(req), ANSWER_MS);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code ?? '';
          // What an HTTP client refuses to send (a control character in a header) never reaches a server.
          if (/^ERR_(INVALID_CHAR|UNESCAPED_CHARACTERS|INVALID_HTTP_TOKEN)$/.test(code)) return;
          res = { status: 599, headers: {}, body: `request failed: ${(err as Error).message}` };
        }
        const t1 = Date.now();
        spans.push([index, t0, t1]);
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (t1 - t0 > 250) {
          slowest.push({ ms: t1 - t0, request: describeRequest(req).slice(0, 300) });
          slowest.sort((a, b) => b.ms - a.ms).splice(5);
        }
        let changed: string[] | null = null;
        const prior = before;
        if (writes) {
          last = await takeFingerprint();
          changed = diff(before!, last);
          readsSince = [];
        } else {
          readsSince.push(req.op);
        }
        const after = last;
        const rows = (t: string): [number, number] | null =>
          writes && prior && after ? [prior.get(t)?.rows ?? 0, after.get(t)?.rows ?? 0] : null;
        for (const kind of judge(req, res, { changed, rows })) record(kind, req, res, index);
      }),
      { seed: SEED, numRuns: o.numRuns, endOnFailure: true },
    );
  } finally {
    loop.disable();
    sender?.close();
  }
  const ms = Date.now() - started;
  const probeReport = await probe.stop();
  // A slow probe is confirmed by replaying, alone, each request that was in flight then: the longest
  // event-loop block during the replay, at its smallest over 3 tries, must reach the limit too. A busy
  // machine starves the whole process now and then; a request that blocks does so every time.
  const blockedBy: string[] = [];
  const unconfirmed: string[] = [];
  const replayed = new Map<number, number>();
  for (const s of probeReport.slow) {
    const during = spans.filter(([, a, b]) => a <= s.at + s.ms && b >= s.at).map(([i]) => i);
    let confirmed = false;
    for (const i of during) {
      if (!replayed.has(i)) replayed.set(i, await longestBlock(send, requests[i]));
      const block = replayed.get(i)!;
      if (s.error || block >= PROBE_LIMIT_MS) {
        confirmed = true;
        blockedBy.push(
          `probe at +${s.at - started} ms took ${s.ms} ms${s.error ? ` (${s.error})` : ''}; replayed alone, #${i} blocked the event loop ${block} ms: ${describeRequest(requests[i]).slice(0, 300)}`,
        );
      }
    }
    if (!confirmed)
      unconfirmed.push(
        `probe at +${s.at - started} ms took ${s.ms} ms; none of the ${during.length} requests in flight blocks when replayed alone (machine load)`,
      );
  }
  const report: FuzzReport = {
    label: o.label,
    seed: SEED,
    requests: requests.length,
    ms,
    fingerprintMs: fpMs,
    failures: [...failures.values()],
    probe: probeReport,
    loopMaxMs: Math.round(loop.max / 1e6),
    blockedBy,
    unconfirmed,
    statuses,
    operations: new Set(requests.map((r) => r.op)).size,
    slowest,
  };
  if (process.env.FUZZ_REPORT_DIR) {
    mkdirSync(process.env.FUZZ_REPORT_DIR, { recursive: true });
    writeFileSync(
      `${process.env.FUZZ_REPORT_DIR}/${o.label.replace(/\W+/g, '-')}.json`,
      JSON.stringify(report, null, 1),
    );
  }
  return report;
}
