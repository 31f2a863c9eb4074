import { sql } from 'kysely';
import { withId, withTimestamps, type Migration } from './helpers.js';

/**
 * Messages, documents, fuel purchases and geofences: records a fleet keeps, each tenant-scoped by
 * company_id. Table types: src/domain/{messages,documents,fuel,geofences}/tables.ts.
 */
export const records: Migration = {
  async up(db, kind) {
    await withTimestamps(
      withId(db.schema.createTable('messages'), kind)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
        .addColumn('sender_id', 'integer', (c) => c.references('users.id'))
        .addColumn('recipient_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('sent_at', 'text', (c) => c.notNull())
        .addColumn('read_at', 'text'),
    ).execute();
    await db.schema.createIndex('messages_company_idx').on('messages').columns(['company_id', 'id']).execute();
    await db.schema.createIndex('messages_sent_idx').on('messages').columns(['company_id', 'sent_at']).execute();
    await db.schema.createIndex('messages_recipient_idx').on('messages').columns(['recipient_id', 'id']).execute();

    await withTimestamps(
      withId(db.schema.createTable('documents'), kind)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('doc_type', 'text')
        .addColumn('notes', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('doc_time', 'text', (c) => c.notNull())
        .addColumn('driver_id', 'integer', (c) => c.references('users.id'))
        .addColumn('vehicle_id', 'integer', (c) => c.references('vehicles.id'))
        .addColumn('file_name', 'text')
        .addColumn('content_type', 'text')
        .addColumn('size_bytes', 'integer')
        .addColumn('sha256', 'text')
        .addColumn('blob_key', 'text')
        .addColumn('upload_token_hash', 'text')
        .addColumn('upload_expires_at', 'text'),
    ).execute();
    await db.schema.createIndex('documents_company_idx').on('documents').columns(['company_id', 'id']).execute();
    await db.schema.createIndex('documents_time_idx').on('documents').columns(['company_id', 'doc_time']).execute();
    await db.schema.createIndex('documents_upload_uq').unique().on('documents').column('upload_token_hash').execute();

    await withTimestamps(
      withId(db.schema.createTable('fuel_purchases'), kind)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
        .addColumn('offline_id', 'text')
        .addColumn('purchased_at', 'text', (c) => c.notNull())
        .addColumn('jurisdiction', 'text', (c) => c.notNull())
        .addColumn('fuel_type', 'text')
        .addColumn('ref_no', 'text')
        .addColumn('vendor', 'text')
        .addColumn('total_cost', 'double precision')
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('fuel', 'double precision', (c) => c.notNull())
        .addColumn('fuel_unit', 'text', (c) => c.notNull())
        .addColumn('odometer', 'double precision')
        .addColumn('odometer_unit', 'text')
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('vehicle_id', 'integer', (c) => c.references('vehicles.id'))
        .addColumn('driver_id', 'integer', (c) => c.references('users.id'))
        .addColumn('uploader_id', 'integer', (c) => c.references('users.id'))
        .addColumn('receipt_document_id', 'integer', (c) => c.references('documents.id').onDelete('set null')),
    ).execute();
    await db.schema
      .createIndex('fuel_purchases_time_idx')
      .on('fuel_purchases')
      .columns(['company_id', 'purchased_at'])
      .execute();
    await db.schema
      .createIndex('fuel_purchases_offline_uq')
      .unique()
      .on('fuel_purchases')
      .columns(['company_id', 'offline_id'])
      .where(sql.ref('offline_id'), 'is not', null)
      .execute();

    await withTimestamps(
      withId(db.schema.createTable('geofences'), kind)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('category', 'text')
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
        .addColumn('description', 'text')
        .addColumn('address', 'text')
        .addColumn('shape', 'text', (c) => c.notNull())
        .addColumn('location_points', 'text', (c) => c.notNull())
        .addColumn('center_lat', 'double precision')
        .addColumn('center_lon', 'double precision')
        .addColumn('radius_m', 'double precision')
        .addColumn('min_lat', 'double precision', (c) => c.notNull())
        .addColumn('max_lat', 'double precision', (c) => c.notNull())
        .addColumn('min_lon', 'double precision', (c) => c.notNull())
        .addColumn('max_lon', 'double precision', (c) => c.notNull())
        .addColumn('deleted_at', 'text'),
    ).execute();
    await db.schema.createIndex('geofences_company_idx').on('geofences').columns(['company_id', 'category']).execute();
  },
};
