/**
 * The databases a run measures: always SQLite (a file in a fresh temp directory, WAL, as a real
 * install runs it), and PostgreSQL when BENCH_POSTGRES_URL or TEST_POSTGRES_URL is set (a fresh
 * schema `bench_<random>`, selected through the URL's `options=-c search_path=…`, dropped afterwards).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface BenchDatabase {
  kind: 'sqlite' | 'postgres';
  url: string;
  /** Where it lives, for the report (no credentials). */
  label: string;
  drop(): Promise<void>;
}

export function postgresBaseUrl(env = process.env): string {
  return env.BENCH_POSTGRES_URL || env.TEST_POSTGRES_URL || '';
}

/** The URL without user info, for printing. */
export function redact(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//');
}

export function sqliteDatabase(): BenchDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-bench-'));
  const file = join(dir, 'bench.db');
  return {
    kind: 'sqlite',
    url: `sqlite:${file}`,
    label: `sqlite:${file}`,
    async drop() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function admin<T>(base: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

export async function postgresDatabase(base: string): Promise<BenchDatabase> {
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  await admin(base, (c) => c.query(`create schema ${schema}`));
  const sep = base.includes('?') ? '&' : '?';
  const url = `${base}${sep}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  let dropped = false;
  return {
    kind: 'postgres',
    url,
    label: `${redact(base)} schema ${schema}`,
    async drop() {
      if (dropped) return;
      dropped = true;
      await admin(base, (c) => c.query(`drop schema if exists ${schema} cascade`));
    },
  };
}
