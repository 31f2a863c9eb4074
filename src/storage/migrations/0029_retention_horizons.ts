import type { Migration } from './helpers.js';

/**
 * How far retention has removed a table's rows (src/storage/partitions/horizon.ts): one row per table,
 * the time before which its rows may be gone. The IFTA recompute reads the raw records' horizon and
 * leaves the days before it as they were computed (docs/storage.md, Retention).
 */
export const retentionHorizons: Migration = {
  async up(db) {
    await db.schema
      .createTable('retention_horizons')
      .addColumn('table_name', 'text', (c) => c.primaryKey())
      .addColumn('removed_before', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },
};
