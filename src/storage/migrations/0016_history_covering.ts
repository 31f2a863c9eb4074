import { sql } from 'kysely';
import type { Migration } from './helpers.js';

/**
 * PostgreSQL: the history index (migration 0015) also carries what a vehicle's history reads besides
 * its keys (lat, type, driver_id and the stored history text, point_json), so that a vehicle-day is read
 * from one contiguous range of index pages (an index-only scan, once vacuum has marked the pages
 * all-visible) instead of visiting a table page per fix, where each vehicle's rows lie among every
 * other vehicle's. Measured (bench/scenarios/history-day.ts, ten vehicles' days in the table): the
 * queries of a vehicle-day 8–9 ms instead of 13–14 at the median, the answer's p99 35–48 ms instead of
 * 37–70 (docs/telemetry.md, Performance). The price is the text stored twice: about half again the
 * table's bytes per fix (docs/scaling.md). point_json is a few hundred bytes at most (numbers and a
 * place name), far under the 2.7 kB limit of an index entry.
 *
 * `if not exists`: on a large existing table, create the index beforehand with CREATE INDEX
 * CONCURRENTLY under this name, and the migration only drops the old one.
 */
export const historyCovering: Migration = {
  async up(db, kind) {
    if (kind !== 'postgres') return;
    await sql`create index if not exists telemetry_records_vehicle_history_idx on telemetry_records
      (vehicle_id, fix_time, id) include (lat, type, driver_id, point_json)`.execute(db);
    await sql`drop index if exists telemetry_records_vehicle_time_idx`.execute(db);
  },
};
