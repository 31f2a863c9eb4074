import type { Migration } from './helpers.js';
import { sql } from 'kysely';
import { isPartitioned, partitionTelemetry } from '../partitions/telemetry.js';

/**
 * PostgreSQL: telemetry_records becomes a table partitioned by week of fix_time; the table as it was
 * becomes the partition of everything before the first week (src/storage/partitions/telemetry.ts,
 * docs/storage.md, Partitions and Upgrading a large table). SQLite keeps one table: its retention
 * deletes in small batches (src/storage/partitions/retention.ts).
 */
export const telemetryPartitions: Migration = {
  async up(db, kind) {
    if (kind !== 'postgres') return;
    // Migrations after this one in the same run (one transaction) may alter telemetry_state (0030). A
    // device batch locks its state row before it writes records: were telemetry_records locked here
    // first, a batch could hold its row while waiting for telemetry_records, and a later migration of the
    // run wait for that row: a deadlock. Batches wait at their first statement instead.
    if (!(await isPartitioned(db))) await sql`lock table telemetry_state in access exclusive mode`.execute(db);
    await partitionTelemetry(db, Date.now());
  },
};
