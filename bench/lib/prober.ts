/**
 * Health probes for a benchmark under load: GET each path every `intervalMs` on a keep-alive connection
 * of its own, each answer awaited up to `timeoutMs`, from a worker thread, so that a load generator
 * busy on the main thread does not delay the probes or their clock. Reports, per path, how long the
 * server went without answering it: the longest gap between consecutive answers (and from the start to
 * the first, and from the last to the stop).
 */
import { Worker } from 'node:worker_threads';

export interface ProbeReport {
  sent: number;
  /** Answered 200. */
  ok: number;
  /** Answered with another status. */
  other_status: number;
  /** No answer within the timeout, or a connection error. */
  failed: number;
  max_latency_ms: number;
  longest_silence_ms: number;
}

// Plain JavaScript: the worker runs it as a script, without the TypeScript loader.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { url, paths, intervalMs, timeoutMs } = workerData;
const start = performance.now();
let stopping = false;
function probe(agent, path) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    let done = false;
    const finish = (status) => { if (done) return; done = true; clearTimeout(timer); resolve({ t0, t1: performance.now(), status }); };
    const req = http.get(url + path, { agent }, (res) => { res.resume(); res.on('end', () => finish(res.statusCode)); });
    const timer = setTimeout(() => { req.destroy(); finish(0); }, timeoutMs);
    req.on('error', () => finish(0));
  });
}
async function loop(path) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const r = { sent: 0, ok: 0, other_status: 0, failed: 0, max_latency_ms: 0, longest_silence_ms: 0 };
  let last = start;
  while (!stopping) {
    const p = await probe(agent, path);
    r.sent++;
    if (p.status === 0) r.failed++;
    else {
      if (p.status === 200) r.ok++; else r.other_status++;
      r.longest_silence_ms = Math.max(r.longest_silence_ms, p.t1 - last);
      last = p.t1;
    }
    r.max_latency_ms = Math.max(r.max_latency_ms, p.t1 - p.t0);
    const wait = p.t0 + intervalMs - performance.now();
    if (wait > 0) await new Promise((res) => setTimeout(res, wait));
  }
  r.longest_silence_ms = Math.max(r.longest_silence_ms, performance.now() - last);
  agent.destroy();
  for (const k of ['max_latency_ms', 'longest_silence_ms']) r[k] = Math.round(r[k] * 10) / 10;
  return [path, r];
}
const running = Promise.all(paths.map(loop));
parentPort.on('message', async () => {
  stopping = true;
  parentPort.postMessage(Object.fromEntries(await running));
});
`;

export interface Prober {
  /** Stops probing (after the probes in flight are answered or time out) and reports by path. */
  stop(): Promise<Record<string, ProbeReport>>;
}

export function startProber(url: string, paths: string[], intervalMs = 100, timeoutMs = 10_000): Prober {
  const worker = new Worker(WORKER, { eval: true, workerData: { url, paths, intervalMs, timeoutMs } });
  return {
    stop: () =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => void worker.terminate().then(() => reject(new Error('prober did not stop'))),
          timeoutMs + 5000,
        );
        worker.once('message', (report: Record<string, ProbeReport>) => {
          clearTimeout(timer);
          void worker.terminate();
          resolve(report);
        });
        worker.once('error', reject);
        worker.postMessage('stop');
      }),
  };
}
