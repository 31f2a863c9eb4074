/**
 * Retention's horizons (migration 0029): before its rows go, retention records for a table the time
 * before which they may be missing. It only moves forward. A reader that would rebuild something from
 * those rows asks first: the IFTA recompute keeps the distances of days whose raw records are gone,
 * since a recompute from what is left would shrink or erase them (src/domain/ifta/recompute.ts).
 */
import { sql } from 'kysely';
import type { Db } from '../db.js';
import { nowIso } from '../values.js';

export interface HorizonTables {
  retention_horizons: { table_name: string; removed_before: string; updated_at: string };
}

/** Records that rows of `table` before `before` (ISO) may be gone from now on. */
export async function advanceHorizon(db: Db, table: string, before: string): Promise<void> {
  await sql`insert into retention_horizons (table_name, removed_before, updated_at)
    values (${table}, ${before}, ${nowIso()})
    on conflict (table_name) do update set removed_before = excluded.removed_before, updated_at = excluded.updated_at
    where retention_horizons.removed_before < excluded.removed_before`.execute(db.kysely);
}

/** The time (ISO) before which rows of `table` may be gone, or null while retention has removed none. */
export async function removedBefore(db: Db, table: string): Promise<string | null> {
  const row = await db.kysely
    .selectFrom('retention_horizons')
    .select('removed_before')
    .where('table_name', '=', table)
    .executeTakeFirst();
  return row?.removed_before ?? null;
}
