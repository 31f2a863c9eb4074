import { sql } from 'kysely';
import { withId, withTimestamps, type Migration } from './helpers.js';

/**
 * Assets with their groups, external ids and locations; provisioned devices (ELDs and asset gateways);
 * driver vehicle inspection reports with their defects; freight visibility shares and subscriptions;
 * and the latest-location read model of vehicles. Table types: src/domain/assets/tables.ts and siblings.
 */
export const assetsDevices: Migration = {
  async up(db, kind) {
    const real = 'double precision';

    let assets = withId(db.schema.createTable('assets'), kind)
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
      .addColumn('type', 'text', (c) => c.notNull().defaultTo('other'));
    for (const col of [
      'custom_type',
      'vin',
      'make',
      'model',
      'year',
      'license_plate_state',
      'license_plate_number',
      'notes',
    ]) {
      assets = assets.addColumn(col, 'text');
    }
    assets = assets
      .addColumn('gvwr', real)
      .addColumn('gawr', real)
      .addColumn('length', real)
      .addColumn('length_metric_units', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('weight_metric_units', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('axle', 'integer')
      .addColumn('leased', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('availability_status', 'text', (c) => c.notNull().defaultTo('in_service'))
      .addColumn('availability_updated_at', 'text', (c) => c.notNull())
      .addColumn('availability_updated_by', 'integer', (c) => c.references('users.id'));
    await withTimestamps(assets).execute();
    await db.schema.createIndex('assets_name_uq').unique().on('assets').columns(['company_id', 'name']).execute();

    await db.schema
      .createTable('group_assets')
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
      .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
      .addColumn('member_id', 'integer', (c) => c.notNull().references('assets.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('group_assets_pk', ['group_id', 'member_id'])
      .execute();
    await db.schema
      .createIndex('group_assets_member_idx')
      .on('group_assets')
      .columns(['member_id', 'group_id'])
      .execute();

    await db.schema
      .createTable('record_external_ids')
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
      .addColumn('subject_type', 'text', (c) => c.notNull())
      .addColumn('subject_id', 'integer', (c) => c.notNull())
      .addColumn('integration_name', 'text', (c) => c.notNull())
      .addColumn('external_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    // One object per external id and integration within a company: lookups find at most one.
    await db.schema
      .createIndex('record_external_ids_uq')
      .unique()
      .on('record_external_ids')
      .columns(['company_id', 'subject_type', 'integration_name', 'external_id'])
      .execute();
    await db.schema
      .createIndex('record_external_ids_subject_idx')
      .on('record_external_ids')
      .columns(['subject_type', 'subject_id'])
      .execute();

    await db.schema
      .createTable('asset_locations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
      .addColumn('asset_id', 'integer', (c) => c.notNull().references('assets.id').onDelete('cascade'))
      .addColumn('located_at', 'text', (c) => c.notNull())
      .addColumn('lat', real, (c) => c.notNull())
      .addColumn('lon', real, (c) => c.notNull())
      .addColumn('bearing', real)
      .addColumn('speed', real)
      .addColumn('description', 'text')
      .addColumn('battery_voltage', real)
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('asset_locations_asset_idx')
      .on('asset_locations')
      .columns(['asset_id', 'located_at'])
      .execute();

    await withTimestamps(
      withId(db.schema.createTable('devices'), kind)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('identifier', 'text', (c) => c.notNull())
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('vehicle_id', 'integer', (c) => c.references('vehicles.id'))
        .addColumn('asset_id', 'integer', (c) => c.references('assets.id'))
        .addColumn('credential_digest', 'text', (c) => c.notNull().unique())
        .addColumn('last_seen_at', 'text')
        .addColumn('revoked_at', 'text'),
    ).execute();
    const live = sql.ref('revoked_at');
    // A serial number names one live device across all companies (device protocols send only the serial);
    // a vehicle has at most one live ELD and an asset one live gateway.
    await db.schema
      .createIndex('devices_identifier_uq')
      .unique()
      .on('devices')
      .column('identifier')
      .where(live, 'is', null)
      .execute();
    await db.schema
      .createIndex('devices_vehicle_uq')
      .unique()
      .on('devices')
      .column('vehicle_id')
      .where(live, 'is', null)
      .execute();
    await db.schema
      .createIndex('devices_asset_uq')
      .unique()
      .on('devices')
      .column('asset_id')
      .where(live, 'is', null)
      .execute();
    await db.schema.createIndex('devices_company_idx').on('devices').columns(['company_id', 'id']).execute();

    await withTimestamps(
      withId(db.schema.createTable('inspection_reports'), kind)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
        .addColumn('driver_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('vehicle_id', 'integer', (c) => c.notNull().references('vehicles.id'))
        .addColumn('mechanic_id', 'integer', (c) => c.references('users.id'))
        .addColumn('log_id', 'integer')
        .addColumn('inspection_type', 'text')
        .addColumn('date', 'text', (c) => c.notNull())
        .addColumn('time', 'text', (c) => c.notNull())
        .addColumn('odometer', real)
        .addColumn('carrier_name', 'text')
        .addColumn('vehicle_number', 'text')
        .addColumn('trailer_nums', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('location', 'text')
        .addColumn('city', 'text')
        .addColumn('state', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('defect_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('mechanic_signed_at', 'text')
        .addColumn('mechanic_signature_url', 'text')
        .addColumn('mechanic_note', 'text')
        .addColumn('driver_signed_at', 'text')
        .addColumn('driver_signature_url', 'text'),
    ).execute();
    await db.schema
      .createIndex('inspection_reports_time_idx')
      .on('inspection_reports')
      .columns(['company_id', 'time'])
      .execute();
    await db.schema
      .createIndex('inspection_reports_updated_idx')
      .on('inspection_reports')
      .columns(['company_id', 'updated_at'])
      .execute();

    await withId(db.schema.createTable('inspection_defects'), kind)
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
      .addColumn('report_id', 'integer', (c) => c.notNull().references('inspection_reports.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('area', 'text', (c) => c.notNull())
      .addColumn('category', 'text', (c) => c.notNull())
      .addColumn('notes', 'text')
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
      .addColumn('resolved_by', 'integer', (c) => c.references('users.id'))
      .addColumn('resolved_at', 'text')
      .addColumn('resolution_note', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('inspection_defects_report_idx')
      .on('inspection_defects')
      .columns(['report_id', 'position'])
      .execute();

    await db.schema
      .createTable('vehicle_locations_latest')
      .addColumn('vehicle_id', 'integer', (c) => c.primaryKey().references('vehicles.id').onDelete('cascade'))
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('located_at', 'text', (c) => c.notNull())
      .addColumn('lat', real, (c) => c.notNull())
      .addColumn('lon', real, (c) => c.notNull())
      .addColumn('bearing', real)
      .addColumn('speed', real)
      .addColumn('description', 'text')
      .addColumn('odometer', real)
      .addColumn('engine_hours', real)
      .addColumn('fuel', real)
      .addColumn('type', 'text')
      .addColumn('driver_id', 'integer', (c) => c.references('users.id'))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await withTimestamps(
      withId(db.schema.createTable('freight_shares'), kind)
        .addColumn('carrier_company_id', 'integer', (c) => c.notNull().references('companies.id'))
        .addColumn('shipper_company_id', 'integer', (c) => c.notNull().references('companies.id'))
        .addColumn('starts_at', 'text', (c) => c.notNull())
        .addColumn('ends_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text'),
    ).execute();
    await db.schema
      .createIndex('freight_shares_shipper_idx')
      .on('freight_shares')
      .columns(['shipper_company_id', 'carrier_company_id'])
      .execute();
    await db.schema
      .createIndex('freight_shares_carrier_idx')
      .on('freight_shares')
      .columns(['carrier_company_id', 'id'])
      .execute();

    await db.schema
      .createTable('freight_share_vehicles')
      .addColumn('share_id', 'integer', (c) => c.notNull().references('freight_shares.id').onDelete('cascade'))
      .addColumn('carrier_company_id', 'integer', (c) => c.notNull().references('companies.id'))
      .addColumn('vehicle_id', 'integer', (c) => c.notNull().references('vehicles.id'))
      .addPrimaryKeyConstraint('freight_share_vehicles_pk', ['share_id', 'vehicle_id'])
      .execute();
    await db.schema
      .createIndex('freight_share_vehicles_vehicle_idx')
      .on('freight_share_vehicles')
      .columns(['vehicle_id', 'share_id'])
      .execute();

    await withTimestamps(
      withId(db.schema.createTable('freight_subscriptions'), kind)
        .addColumn('shipper_company_id', 'integer', (c) => c.notNull().references('companies.id'))
        .addColumn('carrier_company_id', 'integer', (c) => c.notNull().references('companies.id'))
        .addColumn('vehicle_id', 'integer', (c) => c.notNull().references('vehicles.id'))
        .addColumn('start_time', 'text', (c) => c.notNull())
        .addColumn('end_time', 'text', (c) => c.notNull())
        .addColumn('load_id', 'text')
        .addColumn('load_details', 'text')
        .addColumn('cancelled_at', 'text'),
    ).execute();
    await db.schema
      .createIndex('freight_subscriptions_shipper_idx')
      .on('freight_subscriptions')
      .columns(['shipper_company_id', 'vehicle_id'])
      .execute();
  },
};
