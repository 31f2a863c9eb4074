/**
 * Several real server processes on one PostgreSQL schema and one Redis, as a load balancer would see
 * them: each node is `fleet serve` with the same settings. `call` sends a request to one node and
 * returns status and parsed body; `asTestApp(node)` lets the HTTP fixtures (createUser, …) drive a node.
 */
import { after } from 'node:test';
import { freshDatabase, POSTGRES_URL, type TestApp, type TestCompany } from '../helper.js';
import { startServer, type ServerProcess } from '../server-process.js';
import { openDb, type Db } from '../../src/storage/db.js';

/** Nodes share rate limits through this Redis when TEST_REDIS_URL names one (CI); in memory otherwise. */
export const REDIS_URL = process.env.TEST_REDIS_URL || '';

export interface Cluster {
  nodes: ServerProcess[];
  /** A handle on the same database for the test itself (as the CLI or an operator would have). */
  db: Db;
  databaseUrl: string;
  env: Record<string, string>;
  /** Starts one more node with the cluster's settings. */
  addNode(extra?: Record<string, string>): Promise<ServerProcess>;
  close(): Promise<void>;
}

export interface Res {
  status: number;
  body: any;
  headers: Headers;
}

export async function call(
  node: ServerProcess,
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<Res> {
  const res = await fetch(`${node.url}${path}`, {
    method,
    headers: { ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body, headers: res.headers };
}

/** A node seen through the TestApp interface that the HTTP fixtures use (`call` only). */
export function asTestApp(node: ServerProcess, company: TestCompany): TestApp {
  return {
    company,
    async call(opts: {
      method?: string;
      url: string;
      payload?: unknown;
      headers?: Record<string, string>;
      as?: TestCompany;
    }) {
      const who = opts.as ?? company;
      const r = await call(node, opts.method ?? 'GET', opts.url, {
        headers: { ...who.headers, ...opts.headers },
        body: opts.payload,
      });
      return { status: r.status, body: r.body, headers: Object.fromEntries(r.headers), raw: JSON.stringify(r.body) };
    },
  } as unknown as TestApp;
}

/** Starts `n` nodes at the same moment on a fresh schema (so their migrations race). */
export async function startCluster(n: number, extra: Record<string, string> = {}): Promise<Cluster> {
  if (!POSTGRES_URL) throw new Error('the cluster needs TEST_POSTGRES_URL');
  const database = await freshDatabase('postgres');
  const env = {
    DATABASE_URL: database.url,
    ...(REDIS_URL ? { REDIS_URL } : {}),
    COOKIE_SECRET: 'cluster-test-cookie-secret-0123456789abcdef',
    WEBHOOK_ALLOW_PRIVATE: '1',
    WEBHOOK_POLL_MS: '50',
    WEBHOOK_TIMEOUT_MS: '2000',
    TELEMETRY_SWEEP_MS: '200',
    TELEMETRY_REORDER_WINDOW_S: '0',
    ...extra,
  };
  const started = await Promise.allSettled(Array.from({ length: n }, () => startServer(env)));
  const nodes = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  const db = openDb(database.url, { poolSize: 4 });
  const cluster: Cluster = {
    nodes,
    db,
    databaseUrl: database.url,
    env,
    async addNode(more = {}) {
      const node = await startServer({ ...env, ...more });
      nodes.push(node);
      return node;
    },
    async close() {
      await Promise.all(nodes.map((node) => node.stop('SIGKILL')));
      await db.close();
      await database.drop();
    },
  };
  if (failed) {
    await cluster.close();
    throw (failed as PromiseRejectedResult).reason;
  }
  return cluster;
}

/** A cluster for a describe block: started on first use, stopped after the block. */
export function useCluster(n: number, extra: Record<string, string> = {}): () => Promise<Cluster> {
  let p: Promise<Cluster> | null = null;
  after(async () => {
    if (p) await (await p).close();
  });
  return () => (p ??= startCluster(n, extra));
}

/** Polls `fn` until it returns true or `ms` pass; returns the milliseconds it took. */
export async function within(ms: number, fn: () => Promise<boolean>, what: string): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await fn()) return Date.now() - start;
    if (Date.now() - start > ms) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
