/**
 * telemetry_records as weekly range partitions of fix_time on PostgreSQL (docs/storage.md, Partitions).
 *
 * Each weekly partition carries its own indexes, created with it; the parent has none:
 * - `(device_id, channel, seq)` unique: the idempotency key. Inserts say `ON CONFLICT DO NOTHING`
 *   without a target, which PostgreSQL checks against every unique index of the partition the row
 *   goes to. A re-sent record carries the time it was taken, so it goes to the partition of its
 *   original and meets it there (docs/storage.md says what this means for a reused seq).
 * - `(vehicle_id, fix_time, id) include (lat, type, driver_id, point_json)`: the history index (migration
 *   0016); a compacted partition (./compact.ts) has it without point_json.
 * - `(asset_id, fix_time)` for asset records only, as migration 0013.
 * - a BRIN index of `id`: the records after an id (IFTA's watermark) are found in the newest pages of
 *   each partition, for a few kB a partition instead of a B-tree entry per fix.
 * No foreign keys: the ingest path resolves device, vehicle and company from the device's credential,
 * and each key would cost an index lookup per row.
 */
import { sql, type Kysely } from 'kysely';
import {
  beforeName,
  boundText,
  missingWeeks,
  parseBound,
  weekStart,
  WEEK_MS,
  DAY_MS,
  type PartitionRange,
} from './layout.js';

export const TELEMETRY = 'telemetry_records';
/** A CHECK constraint of this name on the unpartitioned table, validated beforehand, names the upgrade's bound. */
export const UPGRADE_BOUND = 'telemetry_records_upgrade_bound';
/** Weeks created ahead of the present, beyond the accepted future slack. */
export const WEEKS_AHEAD = 3;

const q = (name: string) => sql.id(name);

/** The history index's definition: with the stored history text (recent weeks) or without (compacted). */
export const historyIndex = (withText: boolean) =>
  sql.raw(`(vehicle_id, fix_time, id) include (lat, type, driver_id${withText ? ', point_json' : ''})`);

/** The indexes of one weekly partition (see the header). */
export async function indexPartition(k: Kysely<any>, name: string, withText: boolean): Promise<void> {
  await sql`create unique index if not exists ${q(`${name}_seq_uq`)} on ${q(name)} (device_id, channel, seq)`.execute(
    k,
  );
  await sql`create index if not exists ${q(`${name}_history_idx`)} on ${q(name)} ${historyIndex(withText)}`.execute(k);
  await sql`create index if not exists ${q(`${name}_asset_idx`)} on ${q(name)} (asset_id, fix_time) where asset_id is not null`.execute(
    k,
  );
  await sql`create index if not exists ${q(`${name}_id_brin`)} on ${q(name)} using brin (id) with (autosummarize = on)`.execute(
    k,
  );
}

/** Whether telemetry_records is partitioned (false on a database before migration 0025). */
export async function isPartitioned(k: Kysely<any>): Promise<boolean> {
  const r = await sql<{ kind: string }>`select c.relkind as kind from pg_class c
    where c.oid = to_regclass(${TELEMETRY})`.execute(k);
  return r.rows[0]?.kind === 'p';
}

/** The partitions of telemetry_records with their ranges, oldest first. */
export async function telemetryPartitions(k: Kysely<any>): Promise<PartitionRange[]> {
  const r = await sql<{ name: string; bound: string }>`select c.relname as name,
      pg_get_expr(c.relpartbound, c.oid) as bound
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = to_regclass(${TELEMETRY})`.execute(k);
  return r.rows
    .map((x) => parseBound(x.name, x.bound))
    .filter((x): x is PartitionRange => x !== null)
    .sort((a, b) => a.from - b.from);
}

/**
 * Creates the weekly partitions missing up to the end of the week holding `untilMs`. Idempotent; the
 * callers serialize (the migration lock, or the maintenance job's advisory lock). Returns the names made.
 */
export async function createAhead(k: Kysely<any>, untilMs: number): Promise<string[]> {
  const made: string[] = [];
  for (const p of missingWeeks(TELEMETRY, await telemetryPartitions(k), untilMs)) {
    await createPartition(k, p);
    made.push(p.name);
  }
  return made;
}

/** One partition of `range`, with its indexes. */
export async function createPartition(k: Kysely<any>, range: PartitionRange): Promise<void> {
  await sql`create table if not exists ${q(range.name)} partition of ${q(TELEMETRY)}
    for values from (${sql.lit(boundText(range.from))}) to (${sql.lit(boundText(range.to))})`.execute(k);
  await indexPartition(k, range.name, true);
}

/** The bound of a validated UPGRADE_BOUND constraint, if the operator prepared one (docs/storage.md). */
async function preparedBound(k: Kysely<any>): Promise<number | null> {
  const r = await sql<{ def: string; valid: boolean }>`select pg_get_constraintdef(oid) as def, convalidated as valid
    from pg_constraint where conrelid = to_regclass(${TELEMETRY}) and conname = ${UPGRADE_BOUND}`.execute(k);
  const row = r.rows[0];
  const m = row?.valid ? /fix_time < '([^']+)'/.exec(row.def) : null;
  return m ? Date.parse(m[1]) : null;
}

/**
 * Migration 0025: the table as it is becomes the partition of everything before a bound T, under a
 * new partitioned parent of the same columns, and weekly partitions follow from T. Nothing is copied:
 * rows, ids and their sequence stay where they are, so no record is lost or stored twice, and device
 * batches wait for the migration's lock (a moment, or the time to check the old rows against T when
 * no prepared constraint says it) instead of failing. T is the first Monday at least two days ahead
 * (beyond any accepted fix time: the future slack is at most a day), or the operator's prepared bound.
 */
export async function partitionTelemetry(k: Kysely<any>, nowMs: number): Promise<void> {
  if (await isPartitioned(k)) return;
  const bound = (await preparedBound(k)) ?? weekStart(nowMs + 2 * DAY_MS) + WEEK_MS;
  const before = beforeName(TELEMETRY);
  await sql`alter table ${q(TELEMETRY)} rename to ${q(before)}`.execute(k);
  await sql`create table ${q(TELEMETRY)} (like ${q(before)} including defaults) partition by range (fix_time)`.execute(
    k,
  );
  const seq = await sql<{ s: string }>`select pg_get_serial_sequence(${before}, 'id') as s`.execute(k);
  await sql`alter sequence ${sql.raw(seq.rows[0].s)} owned by ${q(TELEMETRY)}.id`.execute(k);
  await sql`alter table ${q(TELEMETRY)} attach partition ${q(before)}
    for values from (minvalue) to (${sql.lit(boundText(bound))})`.execute(k);
  await sql`alter table ${q(before)} drop constraint if exists ${q(UPGRADE_BOUND)}`.execute(k);
  await createAhead(k, nowMs + WEEKS_AHEAD * WEEK_MS);
}
