/**
 * Retention (docs/storage.md, Retention): rows older than their table's setting go.
 *
 * - telemetry_records on PostgreSQL: whole weekly partitions whose every fix is older than the cutoff
 *   less a day's margin are detached and dropped: no row-by-row delete, no vacuum after. A record
 *   accepted a moment before the run cannot target a partition being dropped: the accepted age stops
 *   at the retention (src/config/retention.ts), and the margin covers the time between the check and the insert.
 *   The partition of everything before the first week (migration 0025) is deleted from in batches
 *   until it is old enough to be dropped whole.
 * - telemetry_records on SQLite: deleted in batches of BATCH_ROWS rows per vehicle and per asset, each
 *   batch a statement of its own read through the (vehicle_id, fix_time) or (asset_id, fix_time) index,
 *   so the write lock is held for milliseconds and device batches go on between them.
 * - every other growing table (derived telemetry, IFTA distance, the outbox, the webhook log), on both
 *   databases: batches per company, read through the table's (company_id, time) or (company_id, id)
 *   index. These tables grow with trips and events, one or two orders of magnitude slower than the raw
 *   fixes, and are read by id, company and state rather than by time: partitions would not prune their
 *   reads, and every lookup by id would visit each partition. Open rows stay (a visit not yet left, a
 *   fault still active, an event not yet fanned out, a delivery still to be attempted).
 *
 * Retention is storage upkeep over every area's tables, as backups are: it deletes by time and
 * touches nothing else.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db.js';
import { DAY_MS } from './layout.js';
import type { RetentionConfig } from '../../config/retention.js';
import { beforeName } from './layout.js';
import { TELEMETRY, telemetryPartitions } from './telemetry.js';
import { advanceHorizon } from './horizon.js';

/** Rows per delete statement. */
export const BATCH_ROWS = 1000;

interface Retained {
  table: string;
  /** The time the setting counts from. */
  column: string;
  setting: keyof Pick<RetentionConfig, 'derivedDays' | 'outboxDays' | 'webhookLogDays'>;
  /** Rows that must stay whatever their age. */
  open?: RawBuilder<unknown>;
}

/** The tables besides telemetry_records, each with the time column its company index orders. */
export const RETAINED: Retained[] = [
  { table: 'driving_periods', column: 'start_time', setting: 'derivedDays', open: sql`end_time is null` },
  { table: 'idle_events', column: 'end_time', setting: 'derivedDays' },
  { table: 'driver_performance_events', column: 'start_time', setting: 'derivedDays' },
  { table: 'geofence_events', column: 'start_time', setting: 'derivedDays', open: sql`end_time is null` },
  { table: 'asset_geofence_events', column: 'start_time', setting: 'derivedDays', open: sql`end_time is null` },
  { table: 'utilization_buckets', column: 'bucket_start', setting: 'derivedDays' },
  { table: 'ifta_fragments', column: 'bucket_start', setting: 'derivedDays' },
  { table: 'fault_codes', column: 'updated_at', setting: 'derivedDays', open: sql`closed_at is null` },
  { table: 'domain_events', column: 'occurred_at', setting: 'outboxDays', open: sql`fanned_out_at is null` },
  {
    table: 'company_webhook_requests',
    column: 'created_at',
    setting: 'webhookLogDays',
    open: sql`state not in ('delivered', 'failed')`,
  },
];

export interface RetentionLine {
  table: string;
  /** Rows older than this go (ISO); null: kept for ever. */
  cutoff: string | null;
  /** Rows deleted, or that would be. */
  rows: number;
  /** PostgreSQL partitions dropped, or that would be. */
  partitions: string[];
}

export interface RetentionOptions {
  nowMs: number;
  dryRun: boolean;
  /** Called between batches (the server yields to requests there). */
  pause?: () => Promise<void>;
}

const cutoffOf = (days: number, nowMs: number) => (days > 0 ? new Date(nowMs - days * DAY_MS).toISOString() : null);
const id = (name: string) => sql.id(name);
/** The row's address for a batched delete: SQLite's rowid, PostgreSQL's ctid. */
const rowAddress = (db: Db) => sql.raw(db.kind === 'sqlite' ? 'rowid' : 'ctid');

/**
 * Deletes (or counts, dry) the rows that `where` selects, BATCH_ROWS at a time; each statement commits
 * on its own.
 */
async function deleteInBatches(
  db: Db,
  table: string,
  where: RawBuilder<unknown>,
  o: RetentionOptions,
): Promise<number> {
  if (o.dryRun) {
    const r = await sql<{ n: number }>`select count(*) as n from ${id(table)} where ${where}`.execute(db.kysely);
    return Number(r.rows[0].n);
  }
  const at = rowAddress(db);
  const pick = sql`select ${at} from ${id(table)} where ${where} limit ${BATCH_ROWS}`;
  const statement =
    db.kind === 'sqlite'
      ? sql`delete from ${id(table)} where rowid in (${pick})`
      : sql`delete from ${id(table)} where ctid = any(array(${pick}))`;
  let total = 0;
  for (;;) {
    const n = Number((await statement.execute(db.kysely)).numAffectedRows ?? 0);
    total += n;
    if (n < BATCH_ROWS) return total;
    await o.pause?.();
  }
}

async function ids(db: Db, table: 'companies' | 'vehicles' | 'assets'): Promise<number[]> {
  return (await db.kysely.selectFrom(table).select('id').orderBy('id').execute()).map((r) => Number(r.id));
}

/** Raw records on SQLite: per vehicle and per asset, through their time indexes. */
async function rawSqlite(db: Db, cutoff: string, o: RetentionOptions): Promise<number> {
  let n = 0;
  for (const v of await ids(db, 'vehicles'))
    n += await deleteInBatches(db, TELEMETRY, sql`vehicle_id = ${v} and fix_time < ${cutoff}`, o);
  for (const a of await ids(db, 'assets'))
    n += await deleteInBatches(db, TELEMETRY, sql`asset_id = ${a} and fix_time < ${cutoff}`, o);
  return n;
}

/** Raw records on PostgreSQL: whole weeks dropped, the partition before the first week trimmed in batches. */
async function rawPostgres(db: Db, cutoff: string, o: RetentionOptions): Promise<RetentionLine> {
  const line: RetentionLine = { table: TELEMETRY, cutoff, rows: 0, partitions: [] };
  // A day's margin: a partition goes only when its last instant is a day older than the cutoff.
  const dropBefore = Date.parse(cutoff) - DAY_MS;
  for (const p of await telemetryPartitions(db.kysely)) {
    if (p.to <= dropBefore) {
      line.partitions.push(p.name);
      const rows = await sql<{ n: number }>`select count(*) as n from ${id(p.name)}`.execute(db.kysely);
      line.rows += Number(rows.rows[0].n);
      if (!o.dryRun) await dropPartition(db, p.name);
    } else if (p.name === beforeName(TELEMETRY)) {
      line.rows += await deleteInBatches(db, p.name, sql`fix_time < ${cutoff}`, o);
    }
  }
  return line;
}

/**
 * Detaches and drops one partition. DETACH takes a brief exclusive lock of the parent, waiting for the
 * inserts in flight; lock_timeout keeps a long wait from queueing every device batch behind it (the
 * next run tries again).
 */
async function dropPartition(db: Db, name: string): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    await sql`set local lock_timeout = '5s'`.execute(trx);
    await sql`alter table ${id(TELEMETRY)} detach partition ${id(name)}`.execute(trx);
    await sql`drop table ${id(name)}`.execute(trx);
  });
}

/** Applies (or with dryRun, reports) retention to every growing table. */
export async function applyRetention(db: Db, cfg: RetentionConfig, o: RetentionOptions): Promise<RetentionLine[]> {
  const out: RetentionLine[] = [];
  const raw = cutoffOf(cfg.rawDays, o.nowMs);
  // Said before any row goes, so that no reader rebuilds from a part of what is going (./horizon.ts).
  if (raw !== null && !o.dryRun) await advanceHorizon(db, TELEMETRY, raw);
  if (raw === null) out.push({ table: TELEMETRY, cutoff: null, rows: 0, partitions: [] });
  else if (db.kind === 'postgres') out.push(await rawPostgres(db, raw, o));
  else out.push({ table: TELEMETRY, cutoff: raw, rows: await rawSqlite(db, raw, o), partitions: [] });
  const companies = await ids(db, 'companies');
  for (const t of RETAINED) {
    const cutoff = cutoffOf(cfg[t.setting], o.nowMs);
    const line: RetentionLine = { table: t.table, cutoff, rows: 0, partitions: [] };
    out.push(line);
    if (cutoff === null) continue;
    const open = t.open ? sql`and not (${t.open})` : sql``;
    for (const c of companies)
      line.rows += await deleteInBatches(
        db,
        t.table,
        sql`company_id = ${c} and ${id(t.column)} < ${cutoff} ${open}`,
        o,
      );
  }
  return out;
}
