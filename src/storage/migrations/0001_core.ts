import { withId, withTimestamps, type Migration } from './helpers.js';

/** Companies, users, vehicles, groups with their memberships, API keys. */
export const core: Migration = {
  async up(db, kind) {
    await withTimestamps(
      withId(db.schema.createTable('companies'), kind)
        .addColumn('company_code', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('street', 'text')
        .addColumn('city', 'text')
        .addColumn('state', 'text')
        .addColumn('zip', 'text')
        .addColumn('dot_ids', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('cycle', 'text', (c) => c.notNull().defaultTo('70_8'))
        .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('Eastern Time (US & Canada)'))
        .addColumn('exception_24_hour_restart', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('exception_8_hour_break', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('exception_wait_time', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('exception_short_haul', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('exception_ca_farm_school_bus', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('exception_adverse_driving', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('metric_units', 'integer', (c) => c.notNull().defaultTo(0)),
    ).execute();

    let users = withId(db.schema.createTable('users'), kind)
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
      .addColumn('first_name', 'text', (c) => c.notNull())
      .addColumn('last_name', 'text', (c) => c.notNull())
      .addColumn('email', 'text')
      .addColumn('username', 'text')
      .addColumn('password_hash', 'text');
    for (const col of [
      'phone',
      'phone_ext',
      'phone_country_code',
      'phone2',
      'phone_country_code2',
      'company_reference_id',
      'time_zone',
      'expires_at',
      'driver_company_id',
      'drivers_license_number',
      'drivers_license_state',
      'joined_at',
      'cycle',
      'cycle2',
      'terminal_street',
      'terminal_city',
      'terminal_state',
      'terminal_zip',
      'mobile_current_sign_in_at',
      'mobile_last_active_at',
      'mobile_last_sign_in_at',
      'web_current_sign_in_at',
      'web_last_active_at',
      'web_last_sign_in_at',
    ]) {
      users = users.addColumn(col, 'text');
    }
    users = users
      .addColumn('metric_units', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('external_ids', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('group_visibility', 'text', (c) => c.notNull().defaultTo('all'))
      .addColumn('duty_status', 'text', (c) => c.notNull().defaultTo('off_duty'))
      .addColumn('eld_mode', 'text', (c) => c.notNull().defaultTo('logs'))
      .addColumn('violation_alerts', 'text', (c) => c.notNull().defaultTo('1_hour'))
      .addColumn('carrier_name', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('carrier_street', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('carrier_city', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('carrier_state', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('carrier_zip', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('driver_flags', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('associated_dispatcher_id', 'integer');
    await withTimestamps(users).execute();
    // Sign-in names are global: one login form serves every company.
    await db.schema.createIndex('users_email_uq').unique().on('users').column('email').execute();
    await db.schema.createIndex('users_username_uq').unique().on('users').column('username').execute();
    await db.schema.createIndex('users_company_idx').on('users').columns(['company_id', 'id']).execute();
    await db.schema
      .createIndex('users_driver_company_id_idx')
      .on('users')
      .columns(['company_id', 'driver_company_id'])
      .execute();

    let vehicles = withId(db.schema.createTable('vehicles'), kind)
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
      .addColumn('number', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
      .addColumn('ifta', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('metric_units', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('prevent_auto_odometer_entry', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('incab_alert_live_stream_enable', 'integer', (c) => c.notNull().defaultTo(-1))
      .addColumn('driver_facing_camera', 'integer', (c) => c.notNull().defaultTo(-1))
      .addColumn('incab_audio_recording', 'integer', (c) => c.notNull().defaultTo(-1))
      .addColumn('permanent_driver_id', 'integer', (c) => c.references('users.id'))
      .addColumn('current_driver_id', 'integer', (c) => c.references('users.id'))
      .addColumn('availability_updated_by', 'integer', (c) => c.references('users.id'))
      .addColumn('carb_ctc_test_enabled', 'integer');
    for (const col of [
      'vin',
      'make',
      'model',
      'year',
      'license_plate_state',
      'license_plate_number',
      'license_plate_country_code',
      'fuel_type',
      'notes',
      'availability_status',
      'availability_updated_at',
      'carb_ctc_emission_status',
      'registration_expiry_date',
    ]) {
      vehicles = vehicles.addColumn(col, 'text');
    }
    await withTimestamps(vehicles).execute();
    await db.schema
      .createIndex('vehicles_number_uq')
      .unique()
      .on('vehicles')
      .columns(['company_id', 'number'])
      .execute();
    await db.schema.createIndex('vehicles_company_idx').on('vehicles').columns(['company_id', 'id']).execute();

    await withTimestamps(
      withId(db.schema.createTable('groups'), kind)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('parent_id', 'integer', (c) => c.references('groups.id').onDelete('set null'))
        .addColumn('user_id', 'integer', (c) => c.references('users.id')),
    ).execute();
    await db.schema.createIndex('groups_company_idx').on('groups').columns(['company_id', 'id']).execute();

    for (const [table, target] of [
      ['group_users', 'users'],
      ['group_vehicles', 'vehicles'],
    ] as const) {
      await db.schema
        .createTable(table)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
        .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
        .addColumn('member_id', 'integer', (c) => c.notNull().references(`${target}.id`).onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint(`${table}_pk`, ['group_id', 'member_id'])
        .execute();
      await db.schema.createIndex(`${table}_member_idx`).on(table).columns(['member_id', 'group_id']).execute();
    }

    await withId(db.schema.createTable('api_keys'), kind)
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('key_prefix', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .execute();
  },
};
