/**
 * Compaction of past weeks of telemetry_records on PostgreSQL (docs/storage.md, Leaner rows). A recent
 * week keeps each fix's history text (point_json) in the row and in its history index, so a vehicle-day
 * is read from the index alone (migration 0016). Histories of older weeks are read rarely: a week past
 * RETENTION_COMPACT_AFTER_DAYS loses the text (the history renders those points from their columns,
 * src/telemetry/queries/locations.ts) and its history index is rebuilt without it, and the table is
 * rewritten in (vehicle, time) order, so one vehicle's day lies on adjacent pages.
 *
 * The price: the rewrite (CLUSTER) holds that week's partition exclusively while it runs, so a late
 * record of that week and a read of it wait for the rewrite; other weeks are untouched. A run compacts
 * at most `limit` weeks.
 */
import { sql } from 'kysely';
import type { Db } from '../db.js';
import { DAY_MS, beforeName } from './layout.js';
import { TELEMETRY, historyIndex, telemetryPartitions } from './telemetry.js';

export interface CompactOptions {
  /** Weeks whose end is at least this many days old are compacted. */
  afterDays: number;
  /** Weeks compacted in one run, at most. */
  limit?: number;
}

const leanIndex = (name: string) => `${name}_lean_history_idx`;

/** Whether the week was compacted already (its lean index exists). */
async function compacted(db: Db, name: string): Promise<boolean> {
  const r = await sql<{ r: string | null }>`select to_regclass(${leanIndex(name)})::text as r`.execute(db.kysely);
  return r.rows[0].r !== null;
}

export async function compactPartition(db: Db, name: string): Promise<void> {
  const q = (s: string) => sql.id(s);
  await sql`update ${q(name)} set point_json = null where point_json is not null`.execute(db.kysely);
  await sql`create index if not exists ${q(leanIndex(name))} on ${q(name)} ${historyIndex(false)}`.execute(db.kysely);
  await sql`drop index if exists ${q(`${name}_history_idx`)}`.execute(db.kysely);
  await sql`cluster ${q(name)} using ${q(leanIndex(name))}`.execute(db.kysely);
  await sql`analyze ${q(name)}`.execute(db.kysely);
}

/** Compacts the weeks old enough; the names compacted. */
export async function compactOld(db: Db, nowMs: number, o: CompactOptions): Promise<string[]> {
  if (db.kind !== 'postgres' || o.afterDays <= 0) return [];
  const done: string[] = [];
  for (const p of await telemetryPartitions(db.kysely)) {
    if (done.length >= (o.limit ?? 1)) break;
    if (p.name === beforeName(TELEMETRY) || p.to > nowMs - o.afterDays * DAY_MS) continue;
    if (await compacted(db, p.name)) continue;
    await compactPartition(db, p.name);
    done.push(p.name);
  }
  return done;
}
