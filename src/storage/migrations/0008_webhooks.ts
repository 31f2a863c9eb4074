import { sql } from 'kysely';
import { withId, type Migration } from './helpers.js';

/**
 * Webhooks: registrations, the delivery log (one row per payload and webhook, updated by each attempt),
 * the worker's bookkeeping, and a mark on each domain event once it has been fanned out
 * (src/events/webhooks/fanout.ts).
 */
export const webhooks: Migration = {
  async up(db, kind) {
    await withId(db.schema.createTable('company_webhooks'), kind)
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('format', 'text', (c) => c.notNull())
      .addColumn('actions', 'text', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('webhook_type', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('company_webhooks_company_idx')
      .on('company_webhooks')
      .columns(['company_id', 'id'])
      .execute();

    await withId(db.schema.createTable('company_webhook_requests'), kind)
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
      .addColumn('company_webhook_id', 'integer', (c) =>
        c.notNull().references('company_webhooks.id').onDelete('cascade'),
      )
      .addColumn('event_id', 'integer')
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('trigger', 'text')
      .addColumn('subject_key', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('format', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('num_failures', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('retry_step', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('response_code', 'integer')
      .addColumn('next_attempt_at', 'text')
      .addColumn('lease_until', 'text')
      .addColumn('claim_token', 'text')
      .addColumn('event_occurred_at', 'text')
      .addColumn('posted_at', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    const requests = 'company_webhook_requests';
    await db.schema.createIndex('cwr_company_idx').on(requests).columns(['company_id', 'id']).execute();
    await db.schema.createIndex('cwr_webhook_idx').on(requests).columns(['company_webhook_id', 'id']).execute();
    // One delivery per event and webhook, whatever happens to the fan-out.
    await sql`create unique index cwr_event_uq on company_webhook_requests (company_webhook_id, event_id) where event_id is not null`.execute(
      db,
    );
    // Claims walk due deliveries and expired claims; lanes find their head and their next queued delivery.
    await sql`create index cwr_due_idx on company_webhook_requests (next_attempt_at, id) where state = 'pending'`.execute(
      db,
    );
    await sql`create index cwr_lease_idx on company_webhook_requests (lease_until, id) where state = 'delivering'`.execute(
      db,
    );
    await sql`create index cwr_queued_idx on company_webhook_requests (company_webhook_id, subject_key, id) where state = 'queued'`.execute(
      db,
    );
    await sql`create index cwr_head_idx on company_webhook_requests (company_webhook_id, subject_key) where state in ('pending', 'delivering')`.execute(
      db,
    );

    await db.schema
      .createTable('webhook_worker_state')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('owner', 'text')
      .addColumn('lease_until', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    const now = new Date().toISOString();
    for (const name of ['fanout', 'sqlite_worker']) {
      await db
        .insertInto('webhook_worker_state')
        .values({ name, owner: null, lease_until: null, updated_at: now })
        .execute();
    }

    // Which events have been turned into deliveries. Events written before webhooks existed have no
    // webhook to go to: they count as done.
    await db.schema.alterTable('domain_events').addColumn('fanned_out_at', 'text').execute();
    await db.updateTable('domain_events').set({ fanned_out_at: now }).execute();
    await sql`create index domain_events_fanout_idx on domain_events (id) where fanned_out_at is null`.execute(db);
  },
};
