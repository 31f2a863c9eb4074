import type { Migration } from './helpers.js';

/**
 * When each device was last heard from (src/domain/devices/activity.ts), in a table of its own rather
 * than the `devices` column that was never written: `devices` is read on every batch to resolve the
 * device's credential, kept in the read cache while the table is unchanged, and a write per device
 * each minute would empty that cache for every device all the time.
 */
export const deviceActivity: Migration = {
  async up(db) {
    await db.schema
      .createTable('device_activity')
      .addColumn('device_id', 'integer', (c) => c.primaryKey().references('devices.id'))
      .addColumn('last_seen_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.alterTable('devices').dropColumn('last_seen_at').execute();
  },
};
