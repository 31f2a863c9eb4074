/**
 * The webhook tests' fixtures: the app of test/helper.ts with its clock moved by the test (the same clock
 * the OAuth module takes) and the worker run on demand, and a real HTTP receiver on 127.0.0.1 that
 * records every request and answers as the test tells it to.
 */
import { after, before } from 'node:test';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../../src/config/index.js';
import { makeApp, TestClock, useOnce, type Dialect, type TestApp, type TestCompany } from '../../helper.js';
import { TEST_ENV as SUITE_ENV } from '../../test-env.js';

export const T0 = Date.parse('2026-03-02T08:00:00.000Z');

/** The app of test/helper.ts with its clock moved by the test and one full webhook worker pass on demand. */
export interface HookApp extends TestApp {
  config: Config;
  clock: TestClock;
  /** One full worker pass at the clock's time. */
  run(): ReturnType<FastifyInstance['webhooks']['worker']['runOnce']>;
}

/** Test settings: the suite's (test/test-env.ts), private targets allowed (the receiver is on loopback), a short timeout. */
export const TEST_ENV = {
  ...SUITE_ENV,
  WEBHOOK_ALLOW_PRIVATE: '1',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_LEASE_MS: '30000',
};

export async function makeHookApp(dialect: Dialect, env: Record<string, string> = {}): Promise<HookApp> {
  const clock = new TestClock(T0);
  const t = await makeApp(dialect, { ...TEST_ENV, ...env }, { clock: clock.fn });
  return { ...t, config: t.app.config, clock, run: () => t.app.webhooks.worker.runOnce() };
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
