import { withId, withTimestamps, type Migration } from './helpers.js';

/**
 * Assets entering and leaving geofences (`asset_geofence_event`, docs/telemetry.md): the visits the
 * geofence processor derives from asset gateways' positions, and an index that lets an asset's pending
 * records be read in fix-time order as a vehicle's are. Table type: src/telemetry/store/tables.ts.
 */
export const assetGeofences: Migration = {
  async up(db, kind) {
    await withTimestamps(
      withId(db.schema.createTable('asset_geofence_events'), kind)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
        .addColumn('geofence_id', 'integer', (c) => c.notNull().references('geofences.id'))
        .addColumn('asset_id', 'integer', (c) => c.notNull().references('assets.id'))
        .addColumn('start_time', 'text', (c) => c.notNull())
        .addColumn('end_time', 'text'),
    ).execute();
    await db.schema
      .createIndex('asset_geofence_events_uq')
      .unique()
      .on('asset_geofence_events')
      .columns(['asset_id', 'geofence_id', 'start_time'])
      .execute();
    await db.schema
      .createIndex('asset_geofence_events_company_idx')
      .on('asset_geofence_events')
      .columns(['company_id', 'start_time'])
      .execute();
    // Partial: vehicle records (nearly all) carry no asset and must not pay for an index entry each.
    await db.schema
      .createIndex('telemetry_records_asset_idx')
      .on('telemetry_records')
      .columns(['asset_id', 'fix_time'])
      .where('asset_id', 'is not', null)
      .execute();
    // Positions stored before assets were processed stay as they are: processing starts with the next
    // one, instead of announcing past visits.
    await db
      .updateTable('telemetry_state')
      .set((eb: any) => ({ horizon: eb.ref('max_fix_time') }))
      .where('asset_id', 'is not', null)
      .execute();
  },
};
