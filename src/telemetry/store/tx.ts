/**
 * Write transactions for telemetry (ingestion, processing, replay, IFTA upkeep).
 *
 * On SQLite the writes of one process go through one connection, so they share transactions: a write
 * asked for while the connection is free starts at the end of the current turn of the event loop,
 * together with every other write asked for in that turn (the batches of other devices whose requests
 * arrived meanwhile), up to GROUP_MAX. The group is one transaction, BEGIN IMMEDIATE … COMMIT (another
 * process writing the same file, the CLI next to a server, waits on busy_timeout instead of failing
 * mid-transaction), and each write after the first runs under a savepoint of its own: one that fails is
 * rolled back alone and its caller gets the error, the others commit (a failed first write rolls the
 * transaction back and ends the group). Every caller is answered after the COMMIT,
 * so nothing is acknowledged before it is on disk, and one commit (one fsync of the log with
 * synchronous=FULL) serves the whole group instead of one per batch.
 *
 * On PostgreSQL each write is an ordinary transaction of its own (the pool runs them side by side);
 * callers lock the rows they serialize on.
 */
import { CompiledQuery, type Kysely } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { Database } from '../../storage/schema.js';

export type Trx = Kysely<Database>;

/** Most writes sharing one SQLite transaction (bounds the wait of the last one in a group). */
export const GROUP_MAX = 32;
/**
 * A group takes no further write once its writes have run this long (milliseconds). The statements are
 * synchronous, so a group is one stretch of the event loop: 32 device batches of 500 fixes held it for
 * ~650 ms (bench/scenarios/overload.ts), with the probes, the load-shedding check and every other request
 * waiting. With the budget a stretch is ~50 ms plus one write; small writes (what devices send most)
 * still share a commit by the dozen.
 */
export const GROUP_BUDGET_MS = 50;

const BEGIN_IMMEDIATE = CompiledQuery.raw('begin immediate');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');

interface Job {
  fn: (trx: Trx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

class GroupCommit {
  private queue: Job[] = [];
  private busy = false;

  constructor(private readonly db: Db) {}

  add<T>(fn: (trx: Trx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      if (this.busy) return;
      this.busy = true;
      setImmediate(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        await this.commit();
        // The statements run synchronously, so without this turn a backlog of groups would hold the event
        // loop until the last commit: no probe, no other request, not even the load-shedding check
        // (src/ops/load-shedding.ts) would run meanwhile. One group at a time, then I/O gets its turn.
        if (this.queue.length > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } finally {
      this.busy = false;
    }
  }

  /**
   * Commits the writes at the head of the queue, as many as GROUP_MAX and GROUP_BUDGET_MS allow. The first
   * write runs without a savepoint (a group of one, what a quiet server mostly runs, costs no savepoint
   * statements): when it fails the whole transaction is rolled back, which undoes exactly its writes, and
   * the group ends there. The writes after it run under savepoints of their own.
   */
  private async commit(): Promise<void> {
    const jobs: Job[] = [this.queue.shift()!];
    let outcomes: Outcome[];
    try {
      outcomes = await this.db.kysely.connection().execute(async (conn) => {
        await conn.executeQuery(BEGIN_IMMEDIATE);
        try {
          const out: Outcome[] = [];
          const until = performance.now() + GROUP_BUDGET_MS;
          try {
            out.push({ ok: true, value: await jobs[0].fn(conn) });
          } catch (error) {
            await conn.executeQuery(ROLLBACK);
            return [{ ok: false, error }];
          }
          while (this.queue.length > 0 && jobs.length < GROUP_MAX && performance.now() < until) {
            const job = this.queue.shift()!;
            jobs.push(job);
            out.push(await underSavepoint(conn, () => job.fn(conn), 'write_group'));
          }
          await conn.executeQuery(COMMIT);
          return out;
        } catch (err) {
          await conn.executeQuery(ROLLBACK).catch(() => {});
          throw err;
        }
      });
    } catch (err) {
      // The transaction failed as a whole (BEGIN, a savepoint command, COMMIT): nothing of it is stored.
      for (const job of jobs) job.reject(err);
      return;
    }
    outcomes.forEach((o, i) => (o.ok ? jobs[i].resolve(o.value) : jobs[i].reject(o.error)));
  }
}

const groups = new WeakMap<Db, GroupCommit>();

export function writeTx<T>(db: Db, fn: (trx: Trx) => Promise<T>): Promise<T> {
  if (db.kind === 'postgres') return db.kysely.transaction().execute(fn);
  let group = groups.get(db);
  if (!group) groups.set(db, (group = new GroupCommit(db)));
  return group.add(fn);
}

/**
 * Runs `fn` inside the transaction under a savepoint. When it throws, what it wrote is rolled back, the
 * transaction carries on (PostgreSQL included, whose transaction a failed statement would otherwise
 * abort) and the error is returned; a failure of the savepoint commands themselves fails the
 * transaction.
 */
export async function underSavepoint<T>(
  trx: Trx,
  fn: () => Promise<T>,
  name = 'telemetry_step',
): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  const sp = savepointOf(name);
  await trx.executeQuery(sp.save);
  let value: T;
  try {
    value = await fn();
  } catch (error) {
    await trx.executeQuery(sp.rollback);
    await trx.executeQuery(sp.release);
    return { ok: false, error };
  }
  await trx.executeQuery(sp.release);
  return { ok: true, value };
}

/** The three commands of a savepoint, as compiled statements (the same text on both databases), made once per name. */
const savepoints = new Map<string, { save: CompiledQuery; rollback: CompiledQuery; release: CompiledQuery }>();

function savepointOf(name: string) {
  let sp = savepoints.get(name);
  if (!sp) {
    if (!/^[a-z_]+$/.test(name)) throw new Error(`savepoint name must be lowercase letters and underscores: ${name}`);
    sp = {
      save: CompiledQuery.raw(`savepoint ${name}`),
      rollback: CompiledQuery.raw(`rollback to savepoint ${name}`),
      release: CompiledQuery.raw(`release savepoint ${name}`),
    };
    savepoints.set(name, sp);
  }
  return sp;
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
