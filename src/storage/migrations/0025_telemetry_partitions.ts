import type { Migration } from './helpers.js';
import { partitionTelemetry } from '../partitions/telemetry.js';

/**
 * PostgreSQL: telemetry_records becomes a table partitioned by week of fix_time; the table as it was
 * becomes the partition of everything before the first week (src/storage/partitions/telemetry.ts,
 * docs/storage.md, Partitions and Upgrading a large table). SQLite keeps one table: its retention
 * deletes in small batches (src/storage/partitions/retention.ts).
 */
export const telemetryPartitions: Migration = {
  async up(db, kind) {
    if (kind !== 'postgres') return;
    await partitionTelemetry(db, Date.now());
  },
};
