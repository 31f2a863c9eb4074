/**
 * Weekly partitions for seeded history on PostgreSQL, and their compaction (docs/storage.md). The bench
 * seeds days in the past, which a freshly migrated database keeps in the partition of what came before
 * the migration; a database partitioned for some weeks has weeks of their own there, so the bench makes
 * them first (`weeksForTheSeed`), and can then compact them as RETENTION_COMPACT_AFTER_DAYS would
 * (`compactSeededWeeks`).
 */
import { sql } from 'kysely';
import type { Db } from '../../src/storage/db.js';
import { DAY_MS, WEEK_MS, beforeName, partitionName, weekStart } from '../../src/storage/partitions/layout.js';
import { TELEMETRY, createPartition, telemetryPartitions } from '../../src/storage/partitions/telemetry.js';
import { compactPartition } from '../../src/storage/partitions/compact.js';

/** Replaces the (empty) partition of what came before with weeks from ten days ago on. */
export async function weeksForTheSeed(db: Db): Promise<void> {
  const before = beforeName(TELEMETRY);
  await sql`alter table ${sql.id(TELEMETRY)} detach partition ${sql.id(before)}`.execute(db.kysely);
  await sql`drop table ${sql.id(before)}`.execute(db.kysely);
  const first = (await telemetryPartitions(db.kysely))[0].from;
  for (let w = weekStart(Date.now() - 10 * DAY_MS); w < first; w += WEEK_MS)
    await createPartition(db.kysely, { name: partitionName(TELEMETRY, w), from: w, to: Math.min(w + WEEK_MS, first) });
}

/** Compacts every week (the layout of weeks past RETENTION_COMPACT_AFTER_DAYS), then vacuums. */
export async function compactSeededWeeks(db: Db): Promise<void> {
  for (const p of await telemetryPartitions(db.kysely))
    if (p.name !== beforeName(TELEMETRY)) await compactPartition(db, p.name);
  await sql`vacuum analyze`.execute(db.kysely);
}
