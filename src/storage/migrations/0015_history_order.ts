import { sql } from 'kysely';
import type { Migration } from './helpers.js';

/**
 * PostgreSQL: the vehicle index of telemetry_records also orders by id, so that a vehicle's history
 * (`order by fix_time, id`) can be read in order from the index instead of being sorted once the whole
 * window is read. The planner takes that path when random access is priced for data in memory or on
 * SSD (random_page_cost 1.1, docs/storage.md); with the default of 4 it reads a bitmap of the window's
 * pages and sorts, as before. Every query that used the old (vehicle_id, fix_time) index uses this one.
 * SQLite needs nothing: its index entries already end with the rowid, which is the id.
 */
export const historyOrder: Migration = {
  async up(db, kind) {
    if (kind !== 'postgres') return;
    await db.schema
      .createIndex('telemetry_records_vehicle_time_idx')
      .on('telemetry_records')
      .columns(['vehicle_id', 'fix_time', 'id'])
      .execute();
    await sql`drop index if exists telemetry_records_vehicle_idx`.execute(db);
  },
};
