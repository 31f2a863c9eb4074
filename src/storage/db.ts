/**
 * Database factory: one Kysely instance over SQLite (better-sqlite3, WAL) or PostgreSQL (pg),
 * chosen by DATABASE_URL. See docs/storage.md for the shared representation of values.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  sql,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';
import { databaseKind } from '../config/index.js';
import type { Database } from './schema.js';
import { ChangeTracker } from './changes.js';
import { pgChanges, sqliteChanges, type PgChangeOptions } from './change-sources.js';
import { ReadCache } from './read-cache.js';
import { TrackingDialect, type QueryObserver } from './tracking-dialect.js';

export type DbKind = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  kind: DbKind;
  /** The URL it was opened with (DATABASE_URL); holds the password, if any: never print it whole. */
  url: string;
  /** Which tables changed, from this process's statements and (once watching) other processes'. */
  changes: ChangeTracker;
  /** Read results kept while their tables are unchanged; caches nothing until `watchChanges` ran. */
  cache: ReadCache;
  /** Starts following other processes' changes (SQLite data_version, PostgreSQL LISTEN); idempotent. */
  watchChanges(opts?: PgChangeOptions): Promise<void>;
  /** Answers true when the database responds to a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /** Calls `fn` after every query (its duration, or its error); returns the removal. Used by src/ops. */
  observeQueries(fn: QueryObserver): () => void;
  /** PostgreSQL: the pool's clients right now; null on SQLite (one connection). */
  poolStats(): { total: number; idle: number; waiting: number } | null;
  /**
   * SQLite only: a compiled statement of the connection, for hot loops that run one statement many
   * times inside a transaction that Kysely holds (the telemetry insert). Bypasses the query layer, so
   * the caller reports its writes with `changes.observe(sql)`. Null on PostgreSQL.
   */
  sqliteStatement: ((sql: string) => SqliteDatabase.Statement) | null;
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

/**
 * Kysely's PostgreSQL introspector (which its migrator uses to find its own tables) reads the catalogue
 * of every schema in the database; while another schema is being changed or dropped at that moment it
 * fails. This one looks only at the connection's own schema, which is all the migrator needs.
 */
class CurrentSchemaIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<any>) {}
  async getSchemas(): Promise<SchemaMetadata[]> {
    const r = await sql<{ name: string }>`select current_schema() as name`.execute(this.db);
    return r.rows;
  }
  async getTables(): Promise<TableMetadata[]> {
    const r = await sql<{ table_schema: string; table_name: string; table_type: string }>`
      select table_schema, table_name, table_type from information_schema.tables where table_schema = current_schema()`.execute(
      this.db,
    );
    return r.rows.map((t) => ({
      name: t.table_name,
      schema: t.table_schema,
      isView: t.table_type === 'VIEW',
      columns: [],
    }));
  }
  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}

class SchemaLocalPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}

/** The read cache's default memory budget; the server sets READ_CACHE_MAX_BYTES. */
export const DEFAULT_READ_CACHE_BYTES = 64 * 1024 * 1024;

/** Pages of write-ahead log after which a commit copies the log into the database file (SQLite). */
export const WAL_AUTOCHECKPOINT_PAGES = 4000;

export function openDb(url: string, opts: { poolSize?: number; sqliteSynchronous?: 'full' | 'normal' } = {}): Db {
  const kind = databaseKind(url);
  const changes = new ChangeTracker();
  let kysely: Kysely<Database>;
  let watch: (opts?: PgChangeOptions) => Promise<void>;
  let pool: pg.Pool | null = null;
  let sqliteStatement: Db['sqliteStatement'] = null;
  const observers = new Set<QueryObserver>();
  if (kind === 'sqlite') {
    const path = sqlitePath(url);
    if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
    const conn = new SqliteDatabase(path);
    // WAL lets the server and the CLI share one file; busy_timeout makes a writer wait for the other.
    conn.pragma('journal_mode = WAL');
    conn.pragma('busy_timeout = 5000');
    // FULL (the default): every commit is on disk before it returns (in WAL mode, one fsync of the
    // log per commit), so an acknowledged write survives a power loss too, not only a crash of the
    // process. The fsync blocks the event loop (0.2–0.6 ms a commit on the benchmark machine):
    // nothing next to a 500-record batch, a third of a 1-record one; telemetry writes that arrive
    // together share one commit (src/telemetry/store/tx.ts). NORMAL spares it (docs/storage.md).
    conn.pragma(`synchronous = ${opts.sqliteSynchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
    conn.pragma('foreign_keys = ON');
    // 64 MiB of page cache instead of SQLite's 2 MiB: the indexes of the telemetry table stay in memory
    // while devices append to it, instead of being read back from the OS on every insert.
    conn.pragma('cache_size = -65536');
    // Copy the log into the database file every 4,000 pages (16 MiB) instead of SQLite's 1,000: the pages
    // every batch rewrites (state rows, current locations, the ends of the indexes) are copied once per
    // checkpoint however often they were logged, and each checkpoint syncs the file. 500-record device
    // batches cost ~8 % less CPU in paired runs; a checkpoint holds the event loop longer (docs/storage.md).
    conn.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
    const statements = withStatementCache(conn);
    sqliteStatement = (text) => statements.prepare(text);
    kysely = new Kysely<Database>({
      dialect: new TrackingDialect(new SqliteDialect({ database: statements }), changes, observers),
    });
    watch = async () => sqliteChanges(conn, changes);
  } else {
    // A request waits at most 5 s for a connection (PostgreSQL down or saturated), then fails with 503.
    pool = new pg.Pool({ connectionString: url, max: opts.poolSize ?? 10, connectionTimeoutMillis: 5000 });
    // A client losing its connection (PostgreSQL restarting) must not crash the process. The pool
    // handles idle clients ('error' on the pool); a checked-out client also emits 'error' on itself,
    // with no listener unless we add one. Its query fails (503 to the caller) and the pool drops it.
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    kysely = new Kysely<Database>({
      dialect: new TrackingDialect(new SchemaLocalPostgresDialect({ pool }), changes, observers),
    });
    watch = (opts) => pgChanges(url, changes, opts);
  }
  return {
    kysely,
    kind,
    url,
    changes,
    cache: new ReadCache(changes, DEFAULT_READ_CACHE_BYTES),
    async watchChanges(opts) {
      if (!changes.sourceAttached) await watch(opts);
    },
    async ping() {
      try {
        await sql`select 1`.execute(kysely);
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await changes.close();
      await kysely.destroy();
    },
    observeQueries(fn) {
      observers.add(fn);
      return () => void observers.delete(fn);
    },
    sqliteStatement,
    poolStats: () => (pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : null),
  };
}
