/**
 * The maintenance job (docs/storage.md, Partitions and Retention): on PostgreSQL it creates the weekly
 * partitions of telemetry_records ahead of time, compacts the weeks past the render cache's age, and
 * applies retention; on SQLite it applies retention. Any node may run it, at start and on a timer
 * (src/storage/partitions/timer.ts), and `fleet retention` runs it by hand; on PostgreSQL one run at a
 * time holds a session advisory lock (one per schema), and a run that finds it taken does nothing.
 *
 * Partitions are created WEEKS_AHEAD weeks past the present plus the accepted future slack, every
 * run: with the default hourly timer a node that keeps running is weeks ahead of any fix it accepts,
 * and a node that starts runs the job before it serves (src/server.ts), so a cluster that was down for
 * weeks still finds its week's partition.
 */
import { sql } from 'kysely';
import type { Db } from '../db.js';
import { DAY_MS, WEEK_MS } from './layout.js';
import { applyRetention, type RetentionLine, type RetentionOptions } from './retention.js';
import type { RetentionConfig } from '../../config/retention.js';
import { createAhead, isPartitioned, WEEKS_AHEAD } from './telemetry.js';
import { compactOld, type CompactOptions } from './compact.js';

export interface MaintenanceOptions extends RetentionOptions {
  /** Apply retention (or report it, dryRun); without it only partitions are kept ahead. */
  retention: boolean;
  compact?: CompactOptions;
}

export interface MaintenanceRun {
  /** False when another node's run held the lock. */
  ran: boolean;
  created: string[];
  compacted: string[];
  retention: RetentionLine[];
}

/** At most a day: the largest TELEMETRY_FUTURE_SLACK_S. */
const FUTURE_SLACK_MS = DAY_MS;

/** Runs `fn` holding this schema's maintenance lock, or returns null when another session holds it. */
async function exclusively<T>(db: Db, fn: () => Promise<T>): Promise<T | null> {
  if (db.kind === 'sqlite') return fn();
  return db.kysely.connection().execute(async (conn) => {
    const key = sql`hashtext(current_schema() || '.fleet_maintenance')`;
    const got = await sql<{ ok: boolean }>`select pg_try_advisory_lock(${key}) as ok`.execute(conn);
    if (!got.rows[0].ok) return null;
    try {
      return await fn();
    } finally {
      await sql`select pg_advisory_unlock(${key})`.execute(conn);
    }
  });
}

/** Creates the partitions ahead (PostgreSQL); the names made. */
export async function partitionsAhead(db: Db, nowMs: number): Promise<string[]> {
  if (db.kind !== 'postgres' || !(await isPartitioned(db.kysely))) return [];
  return db.kysely.transaction().execute((trx) => createAhead(trx, nowMs + FUTURE_SLACK_MS + WEEKS_AHEAD * WEEK_MS));
}

export async function runMaintenance(db: Db, cfg: RetentionConfig, o: MaintenanceOptions): Promise<MaintenanceRun> {
  const run = await exclusively(db, async (): Promise<MaintenanceRun> => {
    const created = o.dryRun ? [] : await partitionsAhead(db, o.nowMs);
    const compacted = o.compact && !o.dryRun ? await compactOld(db, o.nowMs, o.compact) : [];
    const retention = o.retention ? await applyRetention(db, cfg, o) : [];
    return { ran: true, created, compacted, retention };
  });
  return run ?? { ran: false, created: [], compacted: [], retention: [] };
}
