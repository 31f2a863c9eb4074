/**
 * Write transactions for telemetry. On SQLite the transaction starts with BEGIN IMMEDIATE on the one
 * connection (held for the whole transaction), so that another process writing the same file (the CLI
 * next to a server) waits on busy_timeout instead of failing mid-transaction. On PostgreSQL it is an
 * ordinary transaction; callers lock the rows they serialize on.
 */
import { sql, type Kysely } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { Database } from '../../storage/schema.js';

export type Trx = Kysely<Database>;

export async function writeTx<T>(db: Db, fn: (trx: Trx) => Promise<T>): Promise<T> {
  if (db.kind === 'postgres') return db.kysely.transaction().execute(fn);
  return db.kysely.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      const out = await fn(conn);
      await sql`commit`.execute(conn);
      return out;
    } catch (err) {
      await sql`rollback`.execute(conn).catch(() => {});
      throw err;
    }
  });
}

/**
 * Runs `fn` inside the transaction under a savepoint. When it throws, what it wrote is rolled back, the
 * transaction carries on (PostgreSQL included, whose transaction a failed statement would otherwise
 * abort) and the error is returned; a failure of the savepoint commands themselves fails the
 * transaction.
 */
export async function underSavepoint<T>(trx: Trx, fn: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  await sql`savepoint telemetry_step`.execute(trx);
  let value: T;
  try {
    value = await fn();
  } catch (error) {
    await sql`rollback to savepoint telemetry_step`.execute(trx);
    await sql`release savepoint telemetry_step`.execute(trx);
    return { ok: false, error };
  }
  await sql`release savepoint telemetry_step`.execute(trx);
  return { ok: true, value };
}

/** Serializes work per key inside this process (ingestion and processing of one vehicle never overlap). */
export class KeyedQueue {
  private tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const tail = next.catch(() => {});
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }

  /** Resolves when everything queued so far has finished. */
  async idle(): Promise<void> {
    while (this.tails.size > 0) await Promise.all([...this.tails.values()]);
  }
}
