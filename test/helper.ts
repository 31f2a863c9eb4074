/**
 * Test helper: builds the real app on a real database per test and closes it after.
 * SQLite runs always (a fresh in-memory database per app). PostgreSQL runs when TEST_POSTGRES_URL is
 * set: every app gets its own schema, dropped at close, so test files can run in parallel.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import pg from 'pg';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp, type BuildOptions } from '../src/app.js';
import { loadConfig } from '../src/config/index.js';
import { openDb, type Db } from '../src/storage/db.js';
import { createCompany } from '../src/domain/companies/service.js';
import { createApiKey } from '../src/auth/api-keys.js';
import { migrateToLatest } from '../src/storage/migrate.js';
import { main } from '../src/cli/main.js';
import { TEST_ENV } from './test-env.js';

export type Dialect = 'sqlite' | 'postgres';

export const POSTGRES_URL = process.env.TEST_POSTGRES_URL || '';

export function dialects(): Dialect[] {
  return POSTGRES_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

/** Runs a describe block once per database dialect. */
export function eachDialect(name: string, fn: (dialect: Dialect) => void): void {
  for (const d of dialects()) describe(`${name} [${d}]`, () => fn(d));
}

/** A database URL for a fresh, empty database of this dialect, and how to drop it. */
export async function freshDatabase(dialect: Dialect): Promise<{ url: string; drop(): Promise<void> }> {
  if (dialect === 'sqlite') return { url: 'sqlite::memory:', drop: async () => {} };
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const u = new URL(POSTGRES_URL);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: POSTGRES_URL });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}

/**
 * A fresh database of the dialect for the enclosing suite: opened (and `setup` run on it) before its
 * tests, closed and dropped after them. Returns the way to reach it from the tests.
 */
export function useFreshDb(dialect: Dialect, setup: (db: Db) => Promise<unknown>): () => Db {
  let db: Db | undefined;
  let drop = async () => {};
  before(async () => {
    const fresh = await freshDatabase(dialect);
    drop = fresh.drop;
    db = openDb(fresh.url);
    await setup(db);
  });
  after(async () => {
    await db?.close();
    await drop();
  });
  return () => db!;
}

export interface TestCompany {
  id: number;
  apiKey: string;
  headers: Record<string, string>;
}

/** A clock the test moves (epoch milliseconds): `fn` is what the app reads (BuildOptions.clock). */
export class TestClock {
  constructor(public now = Date.parse('2026-03-02T12:00:00.000Z')) {}
  readonly fn = () => this.now;
  advance(ms: number): void {
    this.now += ms;
  }
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  dialect: Dialect;
  /** The database's URL, for a second app (node) or a CLI on the same database. */
  databaseUrl: string;
  /** A company with an API key, ready to call the API. */
  company: TestCompany;
  newCompany(name?: string): Promise<TestCompany>;
  /** inject as `company` (or `as`), returning status, parsed JSON body and headers. */
  call(
    opts: InjectOptions & { as?: TestCompany },
  ): Promise<{ status: number; body: any; headers: Record<string, unknown>; raw: string }>;
  close(): Promise<void>;
}

export async function makeApp(
  dialect: Dialect,
  env: Record<string, string> = {},
  build: Omit<BuildOptions, 'db'> = {},
): Promise<TestApp> {
  const database = await freshDatabase(dialect);
  const config = loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent', ...TEST_ENV, ...env });
  const db = openDb(config.databaseUrl, { poolSize: 4 });
  const app = await buildApp(config, { ...build, db });
  const newCompany = async (name = 'Acme Freight') => {
    const c = await createCompany(db, { name });
    const key = await createApiKey(db, c.id, 'test');
    return { id: c.id, apiKey: key.api_key, headers: { 'x-api-key': key.api_key } };
  };
  const company = await newCompany();
  const t: TestApp = {
    app,
    db,
    dialect,
    databaseUrl: database.url,
    company,
    newCompany,
    async call(opts) {
      const { as, ...rest } = opts;
      const who = as ?? company;
      const res = await app.inject({ ...rest, headers: { ...who.headers, ...(rest.headers ?? {}) } } as InjectOptions);
      let body: unknown = undefined;
      try {
        body = res.body ? JSON.parse(res.body) : undefined;
      } catch {
        body = res.body;
      }
      return { status: res.statusCode, body, headers: res.headers, raw: res.body };
    },
    close: closeOnce(app, db, database),
  };
  return t;
}

/** Closes the app, then its database, then drops the database; once, however often it is called. */
export function closeOnce(
  app: { close(): Promise<unknown> },
  db: Db,
  database: { drop(): Promise<void> },
): () => Promise<void> {
  let closing: Promise<void> | null = null;
  return () =>
    (closing ??= (async () => {
      await app.close();
      await db.close();
      await database.drop();
    })());
}

/** Something built on first use and closed after the describe block that asked for it. */
export function useOnce<T extends { close(): Promise<void> }>(make: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | null = null;
  after(async () => {
    if (p) await (await p).close();
  });
  return () => (p ??= make());
}

/** makeApp for the whole describe block: built on first use, closed after the block. */
export function useApp(dialect: Dialect, env: Record<string, string> = {}): () => Promise<TestApp> {
  return useOnce(() => makeApp(dialect, env));
}

/** Runs the `fleet` CLI in this process and returns its exit code and what it wrote to stderr. */
export async function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; err: string }> {
  let err = '';
  const write = process.stderr.write.bind(process.stderr);
  (process.stderr as { write: unknown }).write = (s: string) => ((err += s), true);
  try {
    return { code: await main(args, env), err };
  } finally {
    (process.stderr as { write: unknown }).write = write;
  }
}

/**
 * Runs the `fleet` CLI in this process and returns its exit code and what it printed on stdout. The test
 * runner also writes its own reports to this process's stdout, so `out` keeps only the command's lines
 * that are JSON objects (a command with --json prints one).
 */
export async function runCliStdout(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string }> {
  let raw = '';
  const write = process.stdout.write.bind(process.stdout);
  (process.stdout as { write: unknown }).write = (s: string) => ((raw += s), true);
  try {
    const code = await main(args, env);
    return { code, out: (raw.match(/\{"[^\n]*\}\n/g) ?? []).join('') };
  } finally {
    (process.stdout as { write: unknown }).write = write;
  }
}

/**
 * A migrated SQLite database in a file of its own (the CLI opens it by URL, which `sqlite::memory:`
 * cannot offer), removed afterwards.
 */
export async function withSqliteFile<T>(fn: (db: Db, url: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-test-'));
  const url = `sqlite:${join(dir, 'fleet.db')}`;
  const db = openDb(url);
  try {
    await migrateToLatest(db);
    return await fn(db, url);
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
