import { withId, type Migration } from './helpers.js';

/** The transactional outbox: domain events written in the same transaction as the change. */
export const events: Migration = {
  async up(db, kind) {
    await withId(db.schema.createTable('domain_events'), kind)
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('trigger', 'text')
      .addColumn('subject_type', 'text', (c) => c.notNull())
      .addColumn('subject_id', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('occurred_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('domain_events_company_idx')
      .on('domain_events')
      .columns(['company_id', 'id'])
      .execute();
  },
};
