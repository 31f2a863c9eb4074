/**
 * A fingerprint of the database: every table's row count and a hash of its rows (in a stable order),
 * so that "a rejected write changed nothing" can be checked without knowing what a route writes.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../src/storage/db.js';

/**
 * Tables left out, and why:
 * - the migration bookkeeping (`kysely_migration*`): written by migrations only, never by a request;
 * - `webhook_worker_state`: the webhook worker's heartbeat, written on a timer, not by requests
 *   (the fuzz app runs with WEBHOOK_WORKER=0, but the table is not request state either way);
 * - `web_sessions`: sign-in sessions of the browser pages, which are not fuzzed;
 * - `hos_logs`: a driver's log day is materialized the first time a day is read (GET /v1/hours_of_service,
 *   /v1/logs), so reads add rows;
 * - `ifta_fragments`, `ifta_progress`, `ifta_stale_days`, `ifta_trip_ids`: IFTA mileage is computed
 *   lazily from the GPS tracks when a report is read, and a write (a fuel purchase, a deleted vehicle)
 *   only marks days stale, so these follow reads, not the write under test.
 * Rate-limit and sign-in failure counters are kept in memory (or Redis), not in the database, so
 * nothing else changes on a request that is refused.
 */
export const EXCLUDED_TABLES = new Set([
  'kysely_migration',
  'kysely_migration_lock',
  'webhook_worker_state',
  'web_sessions',
  'hos_logs',
  'ifta_fragments',
  'ifta_progress',
  'ifta_stale_days',
  'ifta_trip_ids',
]);

/**
 * Columns left out: `telemetry_state.last_received_at` (and its `updated_at`) is when the device was
 * last heard from, written for every batch its credential authenticates, even one whose records are
 * all duplicates or refused: a heartbeat, not a stored record. Its `writer` is the token of the batch
 * that wrote the row last (src/telemetry/store/pending-memory.ts), renewed by the same write.
 */
export const EXCLUDED_COLUMNS: Record<string, string[]> = {
  telemetry_state: ['last_received_at', 'updated_at', 'writer'],
};

export type Fingerprint = Map<string, { rows: number; hash: string }>;

export async function tableNames(db: Db): Promise<string[]> {
  const q =
    db.kind === 'sqlite'
      ? sql<{
          name: string;
        }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`
      : sql<{
          name: string;
        }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`;
  const { rows } = await q.execute(db.kysely);
  return rows.map((r) => r.name).filter((n) => !EXCLUDED_TABLES.has(n));
}

const canonical = (v: unknown): unknown => {
  if (v instanceof Date) return v.toISOString();
  if (Buffer.isBuffer(v) || v instanceof Uint8Array) return `bytes:${Buffer.from(v).toString('hex')}`;
  if (typeof v === 'bigint') return `${v}`;
  return v;
};

/**
 * Fingerprints of one database. SQLite: rows hashed here, skipped while the connection's
 * `total_changes()` (rows inserted, updated or deleted since it opened; the app has this one
 * connection) has not moved. PostgreSQL: one statement hashing every table's rows in the server (the
 * sum of each row's md5, so row order does not matter).
 */
export function fingerprinter(db: Db, tables: string[]): () => Promise<Fingerprint> {
  let last: Fingerprint | null = null;
  let lastChanges = -1;
  if (db.kind === 'sqlite') {
    return async () => {
      const { rows } = await sql<{ n: number }>`select total_changes() as n`.execute(db.kysely);
      if (last && rows[0].n === lastChanges) return last;
      lastChanges = rows[0].n;
      last = await sqliteFingerprint(db, tables);
      return last;
    };
  }
  const row = (t: string) => {
    const drop = EXCLUDED_COLUMNS[t] ?? [];
    const value = drop.length
      ? sql`(to_jsonb(x) - ${sql.raw(drop.map((c) => `'${c}'`).join(' - '))})::text`
      : sql`x::text`;
    // A sum of per-row hashes: independent of row order, so no sort.
    return sql`select ${t}::text as name, count(*)::int as n, coalesce(sum(('x' || left(md5(${value}), 15))::bit(60)::bigint), 0)::text as h from ${sql.table(t)} x`;
  };
  const query = sql.join(tables.map(row), sql` union all `);
  return async () => {
    const { rows } = await sql<{ name: string; n: number; h: string }>`${query}`.execute(db.kysely);
    return new Map(rows.map((r) => [r.name, { rows: r.n, hash: r.h }]));
  };
}

async function sqliteFingerprint(db: Db, tables: string[]): Promise<Fingerprint> {
  const out: Fingerprint = new Map();
  for (const t of tables) {
    const drop = new Set(EXCLUDED_COLUMNS[t] ?? []);
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(t)}`.execute(db.kysely);
    const lines = rows
      .map((r) =>
        JSON.stringify(
          Object.keys(r)
            .filter((k) => !drop.has(k))
            .sort()
            .map((k) => [k, canonical(r[k])]),
        ),
      )
      .sort();
    const h = createHash('sha1');
    for (const l of lines) h.update(l).update('\n');
    out.set(t, { rows: rows.length, hash: h.digest('hex') });
  }
  return out;
}
/** The tables whose rows differ, with their counts before and after. */
export function diff(a: Fingerprint, b: Fingerprint): string[] {
  const out: string[] = [];
  for (const [t, x] of b) {
    const y = a.get(t);
    if (!y || y.hash !== x.hash) out.push(`${t} (${y?.rows ?? 0} -> ${x.rows} rows)`);
  }
  return out;
}
