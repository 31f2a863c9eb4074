/**
 * Database factory: one Kysely instance over SQLite (better-sqlite3, WAL) or PostgreSQL (pg),
 * chosen by DATABASE_URL. See docs/storage.md for the shared representation of values.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { databaseKind } from '../config/index.js';
import type { Database } from './schema.js';

export type DbKind = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  kind: DbKind;
  /** Answers true when the database responds to a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

// COUNT(*) and bigint columns come back from pg as strings; every id and count here fits in a double.
pg.types.setTypeParser(20, (v) => Number(v));

/** `sqlite:./data/fleet.db` → `./data/fleet.db`; `sqlite::memory:` → `:memory:`. */
export function sqlitePath(url: string): string {
  let path = url.slice('sqlite:'.length);
  if (path.startsWith('//')) path = path.slice(2);
  return path === '' ? ':memory:' : path;
}

/**
 * better-sqlite3 compiles a statement on every `prepare`; Kysely prepares each query afresh. Keeping
 * the compiled statements of the most recent distinct SQL texts halves the cost of a point query.
 * SQLite recompiles a cached statement by itself after a schema change.
 */
function withStatementCache(conn: SqliteDatabase.Database, max = 1000) {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => conn.close(),
    prepare(text: string) {
      let stmt = cache.get(text);
      if (stmt) {
        cache.delete(text);
      } else {
        stmt = conn.prepare(text);
        if (cache.size >= max) cache.delete(cache.keys().next().value as string);
      }
      cache.set(text, stmt);
      return stmt;
    },
  };
}

export function openDb(url: string, opts: { poolSize?: number } = {}): Db {
  const kind = databaseKind(url);
  let kysely: Kysely<Database>;
  if (kind === 'sqlite') {
    const path = sqlitePath(url);
    if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
    const conn = new SqliteDatabase(path);
    // WAL lets the server and the CLI share one file; busy_timeout makes a writer wait for the other.
    conn.pragma('journal_mode = WAL');
    conn.pragma('busy_timeout = 5000');
    conn.pragma('synchronous = NORMAL');
    conn.pragma('foreign_keys = ON');
    kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(conn) }) });
  } else {
    const pool = new pg.Pool({ connectionString: url, max: opts.poolSize ?? 10 });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    pool.on('error', () => {});
    kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  return {
    kysely,
    kind,
    async ping() {
      try {
        await sql`select 1`.execute(kysely);
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await kysely.destroy();
    },
  };
}
