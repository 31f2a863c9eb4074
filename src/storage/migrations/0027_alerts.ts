import { sql } from 'kysely';
import { withId, type Migration } from './helpers.js';

/**
 * Alerts (src/domain/alerts, docs/alerts.md): the company's alerts, who received each and whether they
 * read it, what each user chose to receive, the email queue, the worker's turn row, and a mark on each
 * domain event of an alerting action once it has been turned into alerts (`domain_events.alerted_at`).
 * Events recorded before alerts existed count as done: nobody chose to be told of them.
 */
/**
 * The webhook actions that make alerts. The partial index below is built on exactly this list, and the
 * worker looks for events with it (src/domain/alerts/kinds.ts): another action needs a new migration.
 */
export const ALERT_ACTIONS = [
  'hos_violation_upserted',
  'speeding_event_created',
  'vehicle_geofence_event',
  'fault_code_opened',
  'vehicle_gateway_disconnected',
] as const;

export const alerts: Migration = {
  async up(db, kind) {
    await withId(db.schema.createTable('alerts'), kind)
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
      .addColumn('event_id', 'integer', (c) => c.notNull().unique())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('vehicle_id', 'integer')
      .addColumn('driver_id', 'integer')
      .addColumn('occurred_at', 'text', (c) => c.notNull())
      .addColumn('facts', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('alerts_company_idx').on('alerts').columns(['company_id', 'id']).execute();
    await db.schema.createIndex('alerts_subject_idx').on('alerts').columns(['company_id', 'subject']).execute();

    await db.schema
      .createTable('alert_recipients')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('alert_id', 'integer', (c) => c.notNull().references('alerts.id').onDelete('cascade'))
      .addColumn('company_id', 'integer', (c) => c.notNull())
      .addColumn('read_at', 'text')
      .addPrimaryKeyConstraint('alert_recipients_pk', ['user_id', 'alert_id'])
      .execute();
    await db.schema.createIndex('alert_recipients_alert_idx').on('alert_recipients').column('alert_id').execute();
    await sql`create index alert_recipients_unread_idx on alert_recipients (user_id, alert_id) where read_at is null`.execute(
      db,
    );

    await db.schema
      .createTable('alert_preferences')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('company_id', 'integer', (c) => c.notNull())
      .addColumn('console', 'integer', (c) => c.notNull())
      .addColumn('email', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('alert_preferences_pk', ['user_id', 'kind'])
      .execute();

    // The email queue keeps its own copy of what it sends: trimming the feed never drops an email.
    await withId(db.schema.createTable('alert_emails'), kind)
      .addColumn('company_id', 'integer', (c) => c.notNull())
      .addColumn('alert_id', 'integer', (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.notNull())
      .addColumn('to_address', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'text')
      .addColumn('lease_until', 'text')
      .addColumn('claim_token', 'text')
      .addColumn('last_error', 'text')
      .addColumn('sent_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('alert_emails_uq', ['alert_id', 'user_id'])
      .execute();
    await sql`create index alert_emails_due_idx on alert_emails (next_attempt_at, id) where state = 'pending'`.execute(
      db,
    );
    await sql`create index alert_emails_lease_idx on alert_emails (lease_until, id) where state = 'sending'`.execute(
      db,
    );

    await db.schema
      .createTable('alert_worker_state')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    const now = new Date().toISOString();
    await db.insertInto('alert_worker_state').values({ name: 'feed', updated_at: now }).execute();

    await db.schema.alterTable('domain_events').addColumn('alerted_at', 'text').execute();
    const actions = sql.join(ALERT_ACTIONS.map((a) => sql.lit(a)));
    await sql`update domain_events set alerted_at = ${now} where action in (${actions})`.execute(db);
    // Only events of the alerting actions are looked for; the index holds those not yet turned into alerts.
    await sql`create index domain_events_alert_idx on domain_events (id) where alerted_at is null and action in (${actions})`.execute(
      db,
    );
  },
};
