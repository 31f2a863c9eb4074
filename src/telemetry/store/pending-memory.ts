/**
 * The records a node stored for a vehicle or asset and has not processed yet (those inside the reorder
 * window), kept in memory from one batch to the next, so that a batch does not read them back: on small
 * batches that read was one statement of seven (docs/telemetry.md, Performance).
 *
 * Memory is trusted only when it is provably the truth: every batch that keeps an entry writes a fresh
 * token (`writer`) into the subject's state row in the same transaction, and every other write of that
 * row (processing outside a batch, replay, another node's batch) writes null or its own token. A batch
 * uses the entry only when the locked row still carries the entry's token; otherwise it reads the
 * pending records from the database, as before. A transaction that rolls back leaves the old token in
 * the row, which no longer matches the entry: it is not used.
 *
 * Bounded: an entry holds at most MAX_PER_SUBJECT records (a longer backlog is read back), and all
 * entries together at most MAX_ROWS (the least recently used go first).
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../storage/db.js';
import type { PendingRow } from './pending.js';

export const MAX_PER_SUBJECT = 2_000;
const MAX_ROWS = 200_000;

/** This process's part of every token, so that two nodes (or two processes of one) never write the same one. */
const PROCESS = randomUUID().slice(0, 8);
let counter = 0;

/** A token no other write of a state row has used. */
export const newWriter = (): string => `${PROCESS}:${(++counter).toString(36)}`;

interface Entry {
  writer: string;
  rows: PendingRow[];
}

export class PendingMemory {
  private readonly entries = new Map<string, Entry>();
  private size = 0;

  /** The pending records kept for `subject`, when the state row's `writer` says they are all there is. */
  take(subject: string, writer: string | null): PendingRow[] | null {
    const e = this.entries.get(subject);
    if (!e) return null;
    this.drop(subject, e);
    return writer !== null && e.writer === writer ? e.rows : null;
  }

  /** Keeps the subject's pending records, valid while its state row carries `writer`; false when too many. */
  keep(subject: string, writer: string, rows: PendingRow[]): boolean {
    const old = this.entries.get(subject);
    if (old) this.drop(subject, old);
    if (rows.length > MAX_PER_SUBJECT) return false;
    while (this.size + rows.length > MAX_ROWS && this.entries.size > 0) {
      const [k, e] = this.entries.entries().next().value as [string, Entry];
      this.drop(k, e);
    }
    this.entries.set(subject, { writer, rows });
    this.size += rows.length;
    return true;
  }

  private drop(subject: string, e: Entry): void {
    this.entries.delete(subject);
    this.size -= e.rows.length;
  }
}

const memories = new WeakMap<Db, PendingMemory>();

/** The memory of one database handle (tests open many in one process). */
export function pendingMemoryFor(db: Db): PendingMemory {
  let m = memories.get(db);
  if (!m) memories.set(db, (m = new PendingMemory()));
  return m;
}
