import { withId, type Migration } from './helpers.js';

/** Hours of service: duty-status records, edits, violations, per-driver evaluation state, daily logs. */
export const hos: Migration = {
  async up(db, kind) {
    await withId(db.schema.createTable('hos_events'), kind)
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
      .addColumn('driver_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('vehicle_id', 'integer', (c) => c.references('vehicles.id'))
      .addColumn('eld_device_id', 'integer')
      .addColumn('sequence_id', 'integer', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('event_type', 'integer', (c) => c.notNull())
      .addColumn('event_code', 'integer', (c) => c.notNull())
      .addColumn('status', 'text')
      .addColumn('special', 'text')
      .addColumn('code', 'text')
      .addColumn('record_status', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('record_origin', 'integer', (c) => c.notNull())
      .addColumn('occurred_at', 'text', (c) => c.notNull())
      .addColumn('ended_at', 'text')
      .addColumn('lat', 'double precision')
      .addColumn('lon', 'double precision')
      .addColumn('location', 'text')
      .addColumn('odometer_km', 'double precision')
      .addColumn('engine_hours', 'double precision')
      .addColumn('notes', 'text')
      .addColumn('edit_id', 'integer')
      .addColumn('superseded_by_edit_id', 'integer')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    // The clock window: records of a driver still in effect after an instant, covering what the engine reads.
    await db.schema
      .createIndex('hos_events_window_idx')
      .on('hos_events')
      .columns(['company_id', 'driver_id', 'ended_at', 'record_status', 'kind', 'occurred_at', 'status', 'code'])
      .execute();
    await db.schema
      .createIndex('hos_events_time_idx')
      .on('hos_events')
      .columns(['company_id', 'driver_id', 'occurred_at'])
      .execute();

    await withId(db.schema.createTable('hos_edits'), kind)
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
      .addColumn('driver_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('start_at', 'text', (c) => c.notNull())
      .addColumn('end_at', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('special', 'text')
      .addColumn('record_origin', 'integer', (c) => c.notNull())
      .addColumn('requested_by', 'integer')
      .addColumn('annotation', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('decided_at', 'text')
      .execute();
    await db.schema
      .createIndex('hos_edits_driver_idx')
      .on('hos_edits')
      .columns(['company_id', 'driver_id', 'id'])
      .execute();

    await withId(db.schema.createTable('hos_violations'), kind)
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
      .addColumn('driver_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('start_at', 'text', (c) => c.notNull())
      .addColumn('end_at', 'text')
      .addColumn('withdrawn_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('hos_violations_start_idx')
      .on('hos_violations')
      .columns(['company_id', 'start_at'])
      .execute();
    await db.schema
      .createIndex('hos_violations_driver_idx')
      .on('hos_violations')
      .columns(['company_id', 'driver_id', 'start_at'])
      .execute();

    await db.schema
      .createTable('hos_driver_states')
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
      .addColumn('driver_id', 'integer', (c) => c.notNull().primaryKey().references('users.id'))
      .addColumn('evaluated_at', 'text', (c) => c.notNull())
      .addColumn('next_check_at', 'text')
      .execute();
    await db.schema
      .createIndex('hos_driver_states_due_idx')
      .on('hos_driver_states')
      .columns(['company_id', 'next_check_at'])
      .execute();

    await withId(db.schema.createTable('hos_logs'), kind)
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
      .addColumn('driver_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('log_date', 'text', (c) => c.notNull())
      .addColumn('shipping_docs', 'text')
      .addColumn('notes', 'text')
      .addColumn('origin', 'text')
      .addColumn('destination', 'text')
      .addColumn('trailer_numbers', 'text')
      .addColumn('co_driver_full_names', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('hos_logs_driver_day_uq')
      .unique()
      .on('hos_logs')
      .columns(['driver_id', 'log_date'])
      .execute();
    await db.schema.createIndex('hos_logs_company_idx').on('hos_logs').columns(['company_id', 'log_date']).execute();
  },
};
