/**
 * /healthz probed over real HTTP from a worker thread (its own event loop), every 100 ms, while the fuzz
 * requests run: what a load balancer would see. A probe that takes over a second, or fails, is recorded
 * with its wall-clock start so the report can name the fuzz requests in flight at the time.
 */
import { Worker } from 'node:worker_threads';

export interface ProbeReport {
  probes: number;
  maxMs: number;
  slow: Array<{ at: number; ms: number; error?: string }>;
}

const CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const report = { probes: 0, maxMs: 0, slow: [] };
let stopping = false;
function probe() {
  if (stopping) return finish();
  const at = Date.now();
  let done = false;
  const end = (error) => {
    if (done) return;
    done = true;
    const ms = Date.now() - at;
    report.probes++;
    report.maxMs = Math.max(report.maxMs, ms);
    if (error || ms > workerData.limitMs) report.slow.push({ at, ms, error });
    setTimeout(probe, Math.max(0, workerData.everyMs - ms));
  };
  const req = http.get({ host: '127.0.0.1', port: workerData.port, path: '/healthz', agent, timeout: 10000 }, (res) => {
    res.resume();
    res.on('end', () => end(res.statusCode === 200 ? undefined : 'status ' + res.statusCode));
  });
  req.on('timeout', () => { req.destroy(new Error('timeout')); });
  req.on('error', (e) => end(String(e.message || e)));
}
let finished = false;
function finish() { if (!finished) { finished = true; agent.destroy(); parentPort.postMessage(report); } }
parentPort.on('message', () => { stopping = true; });
probe();
`;

export interface HealthProbe {
  stop(): Promise<ProbeReport>;
}

export function startHealthProbe(port: number, opts: { everyMs?: number; limitMs?: number } = {}): HealthProbe {
  const worker = new Worker(CODE, {
    eval: true,
    workerData: { port, everyMs: opts.everyMs ?? 100, limitMs: opts.limitMs ?? 1000 },
  });
  const result = new Promise<ProbeReport>((resolve, reject) => {
    worker.once('message', (r: ProbeReport) => resolve(r));
    worker.once('error', reject);
  });
  return {
    async stop() {
      worker.postMessage('stop');
      const r = await result;
      await worker.terminate();
      return r;
    },
  };
}
