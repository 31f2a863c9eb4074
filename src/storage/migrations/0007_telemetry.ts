import { withId, withTimestamps, type Migration } from './helpers.js';

/**
 * Telemetry: the raw records devices send (idempotent per device, channel and sequence number), the
 * per-vehicle processor state, and what the processors derive from them. Table types:
 * src/telemetry/store/tables.ts. Current vehicle locations go to vehicle_locations_latest and asset
 * positions to asset_locations (migration 0005).
 */
export const telemetry: Migration = {
  async up(db, kind) {
    const real = 'double precision';
    const company = (c: any) => c.notNull().references('companies.id');

    let records = db.schema
      .createTable('telemetry_records')
      .addColumn('id', kind === 'sqlite' ? 'integer' : 'bigserial', (c) =>
        kind === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey(),
      )
      .addColumn('company_id', 'integer', company)
      .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id'))
      .addColumn('channel', 'integer', (c) => c.notNull())
      .addColumn('seq', 'bigint', (c) => c.notNull())
      .addColumn('vehicle_id', 'integer', (c) => c.references('vehicles.id'))
      .addColumn('asset_id', 'integer', (c) => c.references('assets.id'))
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('fix_time', 'text', (c) => c.notNull())
      .addColumn('received_at', 'text', (c) => c.notNull());
    for (const col of [
      'lat',
      'lon',
      'speed_kph',
      'bearing_deg',
      'odometer_km',
      'engine_hours',
      'fuel_used_l',
      'fuel_level_pct',
      'battery_v',
    ]) {
      records = records.addColumn(col, real);
    }
    await records
      .addColumn('driver_id', 'integer')
      .addColumn('description', 'text')
      .addColumn('point_type', 'text')
      .addColumn('data', 'text')
      .execute();
    await db.schema
      .createIndex('telemetry_records_seq_uq')
      .unique()
      .on('telemetry_records')
      .columns(['device_id', 'channel', 'seq'])
      .execute();
    await db.schema
      .createIndex('telemetry_records_vehicle_idx')
      .on('telemetry_records')
      .columns(['vehicle_id', 'fix_time'])
      .execute();

    await db.schema
      .createTable('telemetry_state')
      .addColumn('subject', 'text', (c) => c.primaryKey())
      .addColumn('company_id', 'integer', company)
      .addColumn('vehicle_id', 'integer', (c) => c.references('vehicles.id'))
      .addColumn('asset_id', 'integer', (c) => c.references('assets.id'))
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('horizon', 'text')
      .addColumn('max_fix_time', 'text')
      .addColumn('last_received_at', 'text', (c) => c.notNull())
      .addColumn('ingest_driver_id', 'integer')
      .addColumn('ingest_driver_at', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('telemetry_state_company_idx')
      .on('telemetry_state')
      .columns(['company_id', 'subject'])
      .execute();

    let periods = withId(db.schema.createTable('driving_periods'), kind)
      .addColumn('company_id', 'integer', company)
      .addColumn('vehicle_id', 'integer', (c) => c.notNull().references('vehicles.id'))
      .addColumn('driver_id', 'integer', (c) => c.references('users.id'))
      .addColumn('start_time', 'text', (c) => c.notNull())
      .addColumn('end_time', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('source', 'text');
    for (const col of ['start_km', 'end_km', 'distance_km']) periods = periods.addColumn(col, real);
    periods = periods
      .addColumn('origin', 'text')
      .addColumn('origin_lat', real)
      .addColumn('origin_lon', real)
      .addColumn('destination', 'text')
      .addColumn('destination_lat', real)
      .addColumn('destination_lon', real);
    await withTimestamps(periods).execute();
    await db.schema
      .createIndex('driving_periods_uq')
      .unique()
      .on('driving_periods')
      .columns(['vehicle_id', 'start_time'])
      .execute();
    await db.schema
      .createIndex('driving_periods_company_idx')
      .on('driving_periods')
      .columns(['company_id', 'start_time'])
      .execute();

    await withId(db.schema.createTable('idle_events'), kind)
      .addColumn('company_id', 'integer', company)
      .addColumn('vehicle_id', 'integer', (c) => c.notNull().references('vehicles.id'))
      .addColumn('device_id', 'integer')
      .addColumn('driver_id', 'integer', (c) => c.references('users.id'))
      .addColumn('start_time', 'text', (c) => c.notNull())
      .addColumn('end_time', 'text', (c) => c.notNull())
      .addColumn('end_type', 'text', (c) => c.notNull())
      .addColumn('lat', real, (c) => c.notNull())
      .addColumn('lon', real, (c) => c.notNull())
      .addColumn('city', 'text')
      .addColumn('state', 'text')
      .addColumn('rg_brg', real)
      .addColumn('rg_km', real)
      .addColumn('rg_match', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('location', 'text')
      .addColumn('fuel_start_l', real)
      .addColumn('fuel_end_l', real)
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('idle_events_uq')
      .unique()
      .on('idle_events')
      .columns(['vehicle_id', 'start_time'])
      .execute();
    await db.schema
      .createIndex('idle_events_company_idx')
      .on('idle_events')
      .columns(['company_id', 'end_time'])
      .execute();

    await withTimestamps(
      withId(db.schema.createTable('fault_codes'), kind)
        .addColumn('company_id', 'integer', company)
        .addColumn('vehicle_id', 'integer', (c) => c.notNull().references('vehicles.id'))
        .addColumn('device_id', 'integer')
        .addColumn('fault_key', 'text', (c) => c.notNull())
        .addColumn('protocol', 'text', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('spn', 'integer')
        .addColumn('fmi', 'integer')
        .addColumn('source_address', 'integer')
        .addColumn('is_sid', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('first_observed_at', 'text', (c) => c.notNull())
        .addColumn('last_observed_at', 'text', (c) => c.notNull())
        .addColumn('closed_at', 'text')
        .addColumn('cleared', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('occurrence_count', 'integer', (c) => c.notNull())
        .addColumn('num_observations', 'integer', (c) => c.notNull())
        .addColumn('lamps', 'text'),
    ).execute();
    await db.schema
      .createIndex('fault_codes_uq')
      .unique()
      .on('fault_codes')
      .columns(['vehicle_id', 'fault_key', 'first_observed_at'])
      .execute();
    await db.schema
      .createIndex('fault_codes_company_idx')
      .on('fault_codes')
      .columns(['company_id', 'updated_at'])
      .execute();

    let perf = withId(db.schema.createTable('driver_performance_events'), kind)
      .addColumn('company_id', 'integer', company)
      .addColumn('vehicle_id', 'integer', (c) => c.notNull().references('vehicles.id'))
      .addColumn('device_id', 'integer')
      .addColumn('driver_id', 'integer', (c) => c.references('users.id'))
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('start_time', 'text', (c) => c.notNull())
      .addColumn('end_time', 'text', (c) => c.notNull());
    for (const col of [
      'start_speed_kph',
      'end_speed_kph',
      'max_speed_kph',
      'start_bearing',
      'end_bearing',
      'peak_g',
      'lat',
      'lon',
    ]) {
      perf = perf.addColumn(col, real);
    }
    perf = perf
      .addColumn('location', 'text')
      .addColumn('odometer_km', real)
      .addColumn('samples', 'text', (c) => c.notNull())
      .addColumn('coaching_status', 'text', (c) => c.notNull());
    await withTimestamps(perf).execute();
    await db.schema
      .createIndex('driver_performance_events_uq')
      .unique()
      .on('driver_performance_events')
      .columns(['vehicle_id', 'type', 'start_time'])
      .execute();
    await db.schema
      .createIndex('driver_performance_events_company_idx')
      .on('driver_performance_events')
      .columns(['company_id', 'start_time'])
      .execute();

    await withTimestamps(
      withId(db.schema.createTable('geofence_events'), kind)
        .addColumn('company_id', 'integer', company)
        .addColumn('geofence_id', 'integer', (c) => c.notNull().references('geofences.id'))
        .addColumn('vehicle_id', 'integer', (c) => c.notNull().references('vehicles.id'))
        .addColumn('start_time', 'text', (c) => c.notNull())
        .addColumn('end_time', 'text')
        .addColumn('start_driver_id', 'integer', (c) => c.references('users.id'))
        .addColumn('end_driver_id', 'integer', (c) => c.references('users.id')),
    ).execute();
    await db.schema
      .createIndex('geofence_events_uq')
      .unique()
      .on('geofence_events')
      .columns(['vehicle_id', 'geofence_id', 'start_time'])
      .execute();
    await db.schema
      .createIndex('geofence_events_company_idx')
      .on('geofence_events')
      .columns(['company_id', 'start_time'])
      .execute();

    let util = db.schema
      .createTable('utilization_buckets')
      .addColumn('company_id', 'integer', company)
      .addColumn('vehicle_id', 'integer', (c) => c.notNull().references('vehicles.id'))
      .addColumn('driver_id', 'integer', (c) => c.notNull())
      .addColumn('bucket_start', 'text', (c) => c.notNull());
    for (const col of ['driving_s', 'idle_s', 'driving_fuel_l', 'idle_fuel_l', 'distance_km'])
      util = util.addColumn(col, real, (c) => c.notNull());
    await util.addPrimaryKeyConstraint('utilization_buckets_pk', ['vehicle_id', 'driver_id', 'bucket_start']).execute();
    await db.schema
      .createIndex('utilization_buckets_company_idx')
      .on('utilization_buckets')
      .columns(['company_id', 'bucket_start'])
      .execute();
  },
};
