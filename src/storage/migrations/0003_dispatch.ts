import { sql } from 'kysely';
import { withId, withTimestamps, type Migration } from './helpers.js';

/**
 * Dispatch locations, dispatches with their trips and stops, forms and form entries.
 * The one-active-dispatch-per-driver rule is a partial unique index, so it holds under concurrent
 * writers in SQLite and PostgreSQL alike.
 */
export const dispatch: Migration = {
  async up(db, kind) {
    await withTimestamps(
      withId(db.schema.createTable('dispatch_locations'), kind)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
        .addColumn('vendor_id', 'text')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('address1', 'text', (c) => c.notNull())
        .addColumn('address2', 'text')
        .addColumn('city', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('zip', 'text')
        .addColumn('country', 'text', (c) => c.notNull())
        .addColumn('lat', 'double precision')
        .addColumn('lon', 'double precision')
        .addColumn('arrive_radius', 'double precision')
        .addColumn('depart_radius', 'double precision')
        .addColumn('phone', 'text')
        .addColumn('deleted_at', 'text'),
    ).execute();
    await db.schema
      .createIndex('dispatch_locations_vendor_uq')
      .unique()
      .on('dispatch_locations')
      .columns(['company_id', 'vendor_id'])
      .where(sql.ref('deleted_at'), 'is', null)
      .execute();
    await db.schema
      .createIndex('dispatch_locations_company_idx')
      .on('dispatch_locations')
      .columns(['company_id', 'id'])
      .execute();

    await withTimestamps(
      withId(db.schema.createTable('dispatches'), kind)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
        .addColumn('vendor_id', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('driver_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('vehicle_id', 'integer', (c) => c.notNull().references('vehicles.id'))
        .addColumn('auto_complete_forms', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('activated_at', 'text')
        .addColumn('cancelled_at', 'text')
        .addColumn('completed_at', 'text'),
    ).execute();
    await db.schema
      .createIndex('dispatches_vendor_uq')
      .unique()
      .on('dispatches')
      .columns(['company_id', 'vendor_id'])
      .execute();
    await db.schema.createIndex('dispatches_company_idx').on('dispatches').columns(['company_id', 'id']).execute();
    // A driver has at most one active dispatch (docs/reference/api.md §3, rule 1).
    await db.schema
      .createIndex('dispatches_one_active_per_driver')
      .unique()
      .on('dispatches')
      .column('driver_id')
      .where(sql.ref('status'), '=', 'active')
      .execute();

    await withTimestamps(
      withId(db.schema.createTable('dispatch_trips'), kind)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
        .addColumn('dispatch_id', 'integer', (c) => c.notNull().references('dispatches.id').onDelete('cascade'))
        .addColumn('vendor_id', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull()),
    ).execute();
    await db.schema
      .createIndex('dispatch_trips_vendor_uq')
      .unique()
      .on('dispatch_trips')
      .columns(['dispatch_id', 'vendor_id'])
      .execute();

    await withTimestamps(
      withId(db.schema.createTable('dispatch_stops'), kind)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
        .addColumn('dispatch_id', 'integer', (c) => c.notNull().references('dispatches.id').onDelete('cascade'))
        .addColumn('trip_id', 'integer', (c) => c.references('dispatch_trips.id').onDelete('set null'))
        .addColumn('vendor_id', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('dispatch_location_id', 'integer', (c) => c.notNull().references('dispatch_locations.id'))
        .addColumn('type', 'text')
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('available'))
        .addColumn('driver_load', 'integer')
        .addColumn('early_date', 'text')
        .addColumn('late_date', 'text')
        .addColumn('form_ids', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('departed_at', 'text'),
    ).execute();
    await db.schema
      .createIndex('dispatch_stops_vendor_uq')
      .unique()
      .on('dispatch_stops')
      .columns(['dispatch_id', 'vendor_id'])
      .execute();
    await db.schema
      .createIndex('dispatch_stops_location_idx')
      .on('dispatch_stops')
      .column('dispatch_location_id')
      .execute();

    await withTimestamps(
      db.schema
        .createTable('forms')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('external_ids', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('fields', 'text', (c) => c.notNull().defaultTo('[]')),
    ).execute();
    await db.schema.createIndex('forms_company_idx').on('forms').columns(['company_id', 'name']).execute();

    await withId(db.schema.createTable('form_entries'), kind)
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
      .addColumn('form_id', 'text', (c) => c.notNull().references('forms.id'))
      .addColumn('form_version', 'integer', (c) => c.notNull())
      .addColumn('dispatch_id', 'integer', (c) => c.references('dispatches.id').onDelete('set null'))
      .addColumn('dispatch_stop_id', 'integer', (c) => c.references('dispatch_stops.id').onDelete('set null'))
      .addColumn('vendor_dispatch_id', 'text')
      .addColumn('vendor_stop_id', 'text')
      .addColumn('driver_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('vehicle_id', 'integer', (c) => c.references('vehicles.id'))
      .addColumn('entry', 'text', (c) => c.notNull())
      .addColumn('submitted_at', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('form_entries_company_idx').on('form_entries').columns(['company_id', 'id']).execute();
    await db.schema.createIndex('form_entries_stop_idx').on('form_entries').column('dispatch_stop_id').execute();
  },
};
