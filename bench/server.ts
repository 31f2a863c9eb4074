/**
 * The server under test, run as a child process of bench/run.ts so that the load generator and the
 * server do not share an event loop (on a 2-core machine each gets a core, instead of both fighting
 * over one thread).
 *
 *   tsx bench/server.ts baseline          bare Fastify: GET / → {"hello":"world"}
 *   tsx bench/server.ts app <DATABASE_URL> the real app (buildApp, LOG_LEVEL=silent)
 *
 * Listens on 127.0.0.1, port 0, and reports `{ type: 'listening', port }` over IPC. Commands from the
 * parent: `profile-start`, `profile-stop` (writes a V8 CPU profile of just the measured window) and
 * `stop` (closes and exits; so does losing the parent).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Session } from 'node:inspector/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/index.js';

/**
 * The load comes from one API key, a few devices and 127.0.0.1, tens of thousands of requests a second:
 * far past the production limits (docs/rate-limits.md). Limits this high are never reached, so every
 * request still pays for its limit checks and the numbers include them, but nothing is refused.
 */
const BENCH_LIMITS = {
  RATE_LIMIT_REQUESTS_PER_CREDENTIAL: '1000000000',
  RATE_LIMIT_REQUESTS_PER_DEVICE: '1000000000',
  RATE_LIMIT_REQUESTS_PER_IP: '1000000000',
  RATE_LIMIT_LOCATION_HISTORY_CONCURRENT: '1000000',
};

async function baseline(): Promise<FastifyInstance> {
  // The same handler as fastify/benchmarks' fastify.js: no hooks, no schema, logger off.
  const app = Fastify({ logger: false });
  app.get('/', (_req, reply) => {
    reply.send({ hello: 'world' });
  });
  return app;
}

interface Command {
  type: string;
  seq?: number;
  file?: string;
}

let session: Session | null = null;

async function handle(m: Command): Promise<void> {
  if (m.type === 'profile-start') {
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 500 });
    await session.post('Profiler.start');
  } else if (m.type === 'profile-stop' && session && m.file) {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    session = null;
    mkdirSync(dirname(m.file), { recursive: true });
    writeFileSync(m.file, JSON.stringify(profile));
  } else {
    throw new Error(`unknown command ${JSON.stringify(m)}`);
  }
}

async function main() {
  const [mode, databaseUrl] = process.argv.slice(2);
  const send = process.send?.bind(process);
  if (!send) throw new Error('bench/server.ts must be started by bench/run.ts (it reports over IPC)');
  let app: FastifyInstance;
  if (mode === 'baseline') {
    app = await baseline();
  } else if (mode === 'app' && databaseUrl) {
    // Load shedding, ACCEPT_PER_TURN (and a metrics token to read its counters) as the environment sets them: the overload
    // scenario measures the shedding settings; the others run with the defaults.
    const passed = Object.fromEntries(
      Object.entries(process.env).filter(
        ([k]) => k.startsWith('LOAD_SHED_') || k === 'ACCEPT_PER_TURN' || k === 'METRICS_TOKEN',
      ),
    );
    const config = loadConfig({
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'silent',
      HOST: '127.0.0.1',
      PORT: '0',
      ...BENCH_LIMITS,
      ...passed,
    });
    app = (await buildApp(config)) as unknown as FastifyInstance;
  } else {
    throw new Error('usage: bench/server.ts baseline | app <DATABASE_URL>');
  }
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('no TCP address');

  let closing = false;
  const stop = async () => {
    if (closing) return;
    closing = true;
    await app.close();
    process.exit(0);
  };
  process.on('message', (m: Command) => {
    if (m?.type === 'stop') return void stop();
    handle(m).then(
      () => send({ type: 'ok', seq: m.seq }),
      (err: Error) => send({ type: 'error', seq: m.seq, error: err.message }),
    );
  });
  process.on('disconnect', () => void stop());
  send({ type: 'listening', port: addr.port, pid: process.pid });
}

main().catch((err) => {
  console.error('bench server failed:', err);
  process.exit(1);
});
