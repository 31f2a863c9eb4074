import { withId, withTimestamps, type Migration } from './helpers.js';

/**
 * IFTA (docs/ifta.md): jurisdiction distance derived from the stored location records, materialized
 * per vehicle, UTC day of computation ("owner day"), 15-minute bucket and jurisdiction; the vehicle
 * days waiting for a recomputation; how far each company's records have been looked at; stable trip
 * ids; and the fleet's odometer calibrations. Table types: src/domain/ifta/tables.ts.
 */
export const ifta: Migration = {
  async up(db, kind) {
    const real = 'double precision';
    const company = (c: any) => c.notNull().references('companies.id');
    const vehicle = (c: any) => c.notNull().references('vehicles.id');

    let fragments = db.schema
      .createTable('ifta_fragments')
      .addColumn('company_id', 'integer', company)
      .addColumn('vehicle_id', 'integer', vehicle)
      .addColumn('owner_day', 'text', (c) => c.notNull())
      .addColumn('bucket_start', 'text', (c) => c.notNull())
      .addColumn('jurisdiction', 'text', (c) => c.notNull())
      .addColumn('distance_km', real, (c) => c.notNull())
      .addColumn('gap_km', real, (c) => c.notNull())
      .addColumn('start_time', 'text', (c) => c.notNull())
      .addColumn('end_time', 'text', (c) => c.notNull());
    for (const col of ['start_lat', 'start_lon', 'end_lat', 'end_lon'])
      fragments = fragments.addColumn(col, real, (c) => c.notNull());
    for (const col of ['start_odometer_km', 'end_odometer_km', 'start_calibrated_km', 'end_calibrated_km'])
      fragments = fragments.addColumn(col, real);
    await fragments
      .addPrimaryKeyConstraint('ifta_fragments_pk', ['vehicle_id', 'owner_day', 'bucket_start', 'jurisdiction'])
      .execute();
    await db.schema
      .createIndex('ifta_fragments_company_idx')
      .on('ifta_fragments')
      .columns(['company_id', 'bucket_start'])
      .execute();
    await db.schema
      .createIndex('ifta_fragments_vehicle_idx')
      .on('ifta_fragments')
      .columns(['vehicle_id', 'bucket_start'])
      .execute();

    await db.schema
      .createTable('ifta_stale_days')
      .addColumn('company_id', 'integer', company)
      .addColumn('vehicle_id', 'integer', vehicle)
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('token', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('ifta_stale_days_pk', ['vehicle_id', 'day'])
      .execute();
    await db.schema
      .createIndex('ifta_stale_days_company_idx')
      .on('ifta_stale_days')
      .columns(['company_id', 'day'])
      .execute();

    await db.schema
      .createTable('ifta_progress')
      .addColumn('company_id', 'integer', (c) => c.primaryKey().references('companies.id'))
      .addColumn('last_record_id', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('ifta_trip_ids'), kind)
      .addColumn('company_id', 'integer', company)
      .addColumn('vehicle_id', 'integer', vehicle)
      .addColumn('jurisdiction', 'text', (c) => c.notNull())
      .addColumn('date', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('ifta_trip_ids_uq')
      .unique()
      .on('ifta_trip_ids')
      .columns(['vehicle_id', 'date', 'jurisdiction'])
      .execute();

    await withTimestamps(
      withId(db.schema.createTable('ifta_odometer_calibrations'), kind)
        .addColumn('company_id', 'integer', company)
        .addColumn('vehicle_id', 'integer', vehicle)
        .addColumn('effective_from', 'text', (c) => c.notNull())
        .addColumn('offset_km', real, (c) => c.notNull())
        .addColumn('note', 'text'),
    ).execute();
    await db.schema
      .createIndex('ifta_odometer_calibrations_uq')
      .unique()
      .on('ifta_odometer_calibrations')
      .columns(['vehicle_id', 'effective_from'])
      .execute();
    await db.schema
      .createIndex('ifta_odometer_calibrations_company_idx')
      .on('ifta_odometer_calibrations')
      .columns(['company_id', 'vehicle_id'])
      .execute();
  },
};
