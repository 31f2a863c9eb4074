import { sql } from 'kysely';
import { withId, type Migration } from './helpers.js';

/**
 * Webhooks: registrations, the delivery log (one row per payload and webhook, updated by each attempt)
 * and the worker's bookkeeping. On PostgreSQL every domain event also records the id of the
 * transaction that wrote it, so the fan-out can tell which events are final (src/events/webhooks/fanout.ts).
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
    await db.schema.createIndex('company_webhooks_company_idx').on('company_webhooks').columns(['company_id', 'id']).execute();

    await withId(db.schema.createTable('company_webhook_requests'), kind)
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
      .addColumn('company_webhook_id', 'integer', (c) => c.notNull().references('company_webhooks.id').onDelete('cascade'))
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
    await sql`create unique index cwr_event_uq on company_webhook_requests (company_webhook_id, event_id) where event_id is not null`.execute(db);
    // The claim: due deliveries, expired claims, and the per-object order check, all over live rows only.
    await sql`create index cwr_due_idx on company_webhook_requests (next_attempt_at, id) where state = 'pending'`.execute(db);
    await sql`create index cwr_lease_idx on company_webhook_requests (lease_until) where state = 'delivering'`.execute(db);
    await sql`create index cwr_order_idx on company_webhook_requests (company_webhook_id, subject_key, id) where state in ('pending', 'delivering')`.execute(db);

    await db.schema
      .createTable('webhook_worker_state')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('last_event_id', 'integer', (c) => c.notNull())
      .addColumn('tx_horizon', 'text')
      .addColumn('owner', 'text')
      .addColumn('lease_until', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    const now = new Date().toISOString();
    if (kind === 'postgres') {
      await sql`alter table domain_events add column tx xid8 not null default pg_current_xact_id()`.execute(db);
      await sql`create index domain_events_tx_idx on domain_events (tx, id)`.execute(db);
      // Events written before webhooks existed have no webhook to go to: start after them.
      await sql`insert into webhook_worker_state (name, last_event_id, tx_horizon, updated_at)
        values ('fanout', 0, pg_snapshot_xmin(pg_current_snapshot())::text, ${now})`.execute(db);
    } else {
      await sql`insert into webhook_worker_state (name, last_event_id, tx_horizon, updated_at)
        select 'fanout', coalesce(max(id), 0), null, ${now} from domain_events`.execute(db);
    }
    await sql`insert into webhook_worker_state (name, last_event_id, updated_at) values ('sqlite_worker', 0, ${now})`.execute(db);
  },
};
