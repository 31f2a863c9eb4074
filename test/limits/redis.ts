/**
 * Redis for the limits tests: the shared one at 127.0.0.1:6379 under a key prefix unique to the test
 * run (deleted afterwards), and private redis-server processes a test can stop and start again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { Redis } from 'ioredis';

/**
 * The shared Redis, when TEST_REDIS_URL names one (CI sets it); without it the Redis cases are not run
 * and the run says so (scripts/test.mjs), as with PostgreSQL.
 */
export const SHARED_REDIS_URL = process.env.TEST_REDIS_URL || '';

/** A key prefix no other test run uses. */
export const uniquePrefix = (what: string) => `test:${what}:${process.pid}:${randomBytes(4).toString('hex')}:`;

/** Deletes every key under `prefix`. */
export async function dropPrefix(url: string, prefix: string): Promise<void> {
  const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await r.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length) await r.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    r.disconnect();
  }
}

/** Keys under `prefix` (for checking where counters went). */
export async function keysUnder(url: string, prefix: string): Promise<string[]> {
  const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await r.connect();
  try {
    return (await r.keys(`${prefix}*`)).sort();
  } finally {
    r.disconnect();
  }
}

async function freePort(): Promise<number> {
  const srv = createServer();
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const port = (srv.address() as { port: number }).port;
  srv.close();
  await once(srv, 'close');
  return port;
}

/** A redis-server of the test's own, on a free port, with no persistence. */
export class PrivateRedis {
  private child: ChildProcess | null = null;
  private constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<PrivateRedis> {
    const r = new PrivateRedis(await freePort());
    await r.start();
    return r;
  }

  async start(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.child = child;
    let out = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server on ${this.port} did not start: ${out}`)), 10_000);
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}: ${out}`));
      });
    });
    child.removeAllListeners('exit');
  }

  /** Freezes the server (SIGSTOP): connected, but answering nothing. */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  resume(): void {
    this.child?.kill('SIGCONT');
  }

  /** Kills the server (SIGKILL: an outage, not a shutdown) and waits for it to be gone. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.child = null;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }
}

/** Where an app under test keeps its limits: its own memory, or the shared Redis under a fresh prefix. */
export type Backing = 'memory' | 'redis';
export const BACKINGS: Backing[] = SHARED_REDIS_URL ? ['memory', 'redis'] : ['memory'];

/** The environment that puts an app's limits on `backing`, and how to clean up after it. */
export function backingEnv(backing: Backing, what: string): { env: Record<string, string>; drop(): Promise<void> } {
  if (backing === 'memory') return { env: {}, drop: async () => {} };
  const prefix = uniquePrefix(what);
  return {
    env: { REDIS_URL: SHARED_REDIS_URL, REDIS_KEY_PREFIX: prefix },
    drop: () => dropPrefix(SHARED_REDIS_URL, prefix),
  };
}
