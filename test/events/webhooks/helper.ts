/**
 * Webhook test helpers: the real app on a real database with a controllable clock (the same clock the
 * OAuth module takes), and a real HTTP receiver on 127.0.0.1 that records every request and answers
 * as the test tells it to.
 */
import { after, before } from 'node:test';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../../../src/app.js';
import { loadConfig, type Config } from '../../../src/config/index.js';
import { openDb, type Db } from '../../../src/storage/db.js';
import { createCompany } from '../../../src/domain/companies/service.js';
import { createApiKey } from '../../../src/auth/api-keys.js';
import { closeOnce, freshDatabase, useOnce, type Dialect, type TestCompany } from '../../helper.js';
import { TEST_ENV as SUITE_ENV } from '../../test-env.js';

export const T0 = Date.parse('2026-03-02T08:00:00.000Z');

export interface TestClock {
  now: number;
  fn: () => number;
  advance(ms: number): void;
}

export function testClock(start = T0): TestClock {
  const c: TestClock = { now: start, fn: () => c.now, advance: (ms) => void (c.now += ms) };
  return c;
}

export interface HookApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  dialect: Dialect;
  clock: TestClock;
  company: TestCompany;
  databaseUrl: string;
  newCompany(name?: string): Promise<TestCompany>;
  call(opts: InjectOptions & { as?: TestCompany }): Promise<{ status: number; body: any; raw: string }>;
  /** One full worker pass at the clock's time. */
  run(): ReturnType<FastifyInstance['webhooks']['worker']['runOnce']>;
  close(): Promise<void>;
}

/** Test settings: the suite's (test/test-env.ts), private targets allowed (the receiver is on loopback), a short timeout. */
export const TEST_ENV = {
  ...SUITE_ENV,
  WEBHOOK_ALLOW_PRIVATE: '1',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_LEASE_MS: '30000',
};

export async function makeHookApp(dialect: Dialect, env: Record<string, string> = {}): Promise<HookApp> {
  const database = await freshDatabase(dialect);
  const config = loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent', ...TEST_ENV, ...env });
  const db = openDb(config.databaseUrl, { poolSize: 4 });
  const clock = testClock();
  const app = await buildApp(config, { db, clock: clock.fn });
  const newCompany = async (name = 'Acme Freight') => {
    const c = await createCompany(db, { name });
    const key = await createApiKey(db, c.id, 'test');
    return { id: c.id, apiKey: key.api_key, headers: { 'x-api-key': key.api_key } };
  };
  const company = await newCompany();
  return {
    app,
    db,
    config,
    dialect,
    clock,
    company,
    newCompany,
    databaseUrl: database.url,
    async call(opts) {
      const { as, ...rest } = opts;
      const res = await app.inject({
        ...rest,
        headers: { ...(as ?? company).headers, ...(rest.headers ?? {}) },
      } as InjectOptions);
      let body: unknown;
      try {
        body = res.body ? JSON.parse(res.body) : undefined;
      } catch {
        body = res.body;
      }
      return { status: res.statusCode, body, raw: res.body };
    },
    run: () => app.webhooks.worker.runOnce(),
    close: closeOnce(app, db, database),
  };
}

/** makeHookApp for a describe block: built on first use, closed after the block. */
export function useHookApp(dialect: Dialect, env: Record<string, string> = {}): () => Promise<HookApp> {
  return useOnce(() => makeHookApp(dialect, env));
}

/**
 * A test file's webhook app and receiver, made once and ready before its tests: they read `.t` and
 * `.r` (both closed after the file).
 */
export function useHookSuite(dialect: Dialect, env: Record<string, string> = {}): { t: HookApp; r: Receiver } {
  const getApp = useHookApp(dialect, env);
  const getReceiver = useReceiver();
  const suite = {} as { t: HookApp; r: Receiver };
  before(async () => {
    suite.t = await getApp();
    suite.r = await getReceiver();
  });
  return suite;
}

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  body: any;
  at: number;
}

export interface Reply {
  status?: number;
  delayMs?: number;
  body?: string;
  headers?: Record<string, string>;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** How to answer the n-th request (0-based) to a path; 200 at once by default. */
  respond: (r: Received, n: number) => Reply;
  /** Requests to one path (the url of a webhook is `${url}${path}`). */
  at(path: string): Received[];
  /** Deliveries (not test requests) to a path. */
  deliveries(path: string): Received[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const counts = new Map<string, number>();
  const r = {} as Receiver;
  r.received = [];
  r.respond = () => ({ status: 200 });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let body: unknown;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        body = raw.toString('utf8');
      }
      const rec: Received = { path: req.url ?? '/', headers: req.headers, raw, body, at: Date.now() };
      r.received.push(rec);
      const n = counts.get(rec.path) ?? 0;
      counts.set(rec.path, n + 1);
      const reply = r.respond(rec, n);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status ?? 200, { 'content-type': 'text/plain', ...reply.headers });
        res.end(reply.body ?? 'ok');
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  r.at = (path) => r.received.filter((x) => x.path === path);
  r.deliveries = (path) => r.at(path).filter((x) => !Array.isArray(x.body) && x.body?.action !== 'test');
  r.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return r;
}

/** A receiver for the describe block, closed after it. */
export function useReceiver(): () => Promise<Receiver> {
  let p: Promise<Receiver> | null = null;
  after(async () => {
    if (p) await (await p).close();
  });
  return () => (p ??= startReceiver());
}

let pathSeq = 0;
/** A fresh receiver path per webhook, so tests sharing a receiver do not see each other's requests. */
export const freshPath = (name = 'hook') => `/${name}-${++pathSeq}`;

/** Registers a webhook through the API and returns its wire object. */
export async function registerHook(
  t: HookApp,
  receiver: Receiver,
  actions: string[],
  extra: Record<string, unknown> = {},
) {
  const path = freshPath();
  const res = await t.call({
    method: 'POST',
    url: '/v1/company_webhooks',
    payload: { url: receiver.url + path, actions, ...extra },
  });
  if (res.status !== 201) throw new Error(`webhook not created: ${res.status} ${res.raw}`);
  return { ...res.body.company_webhook, path } as {
    id: number;
    url: string;
    secret: string;
    enabled: boolean;
    actions: string[];
    path: string;
  };
}
