import type { Migration } from './helpers.js';

/**
 * The location history's wire text, rendered once when a record is stored (telemetry_records.point_json):
 * reading a vehicle-day of 8,640 points then joins stored text instead of converting every value again.
 */
export const telemetryPoints: Migration = {
  async up(db) {
    await db.schema.alterTable('telemetry_records').addColumn('point_json', 'text').execute();
  },
};
