import { sql, type Kysely } from 'kysely';
import type { Migration } from './helpers.js';

/**
 * PostgreSQL: a statement-level trigger on the tables whose reads are cached (credentials and the core
 * resources) announces each change with `pg_notify('fleet_changes', '<schema>.<table>')`, sent at
 * commit, so that every node drops its cached reads of that table (storage/change-sources.ts). Only
 * slowly changing tables carry it: a notifying commit takes a database-wide lock for a moment, which
 * high-volume tables (telemetry, events) should not pay. SQLite needs nothing: it has one writer
 * process in practice and `PRAGMA data_version` covers the others.
 */
export const NOTIFYING_TABLES = [
  'companies',
  'users',
  'vehicles',
  'groups',
  'group_users',
  'group_vehicles',
  'devices',
  'api_keys',
];

export const changeNotify: Migration = {
  async up(db, kind) {
    if (kind !== 'postgres') return;
    await sql`create or replace function fleet_notify_change() returns trigger language plpgsql as $$
      begin
        perform pg_notify('fleet_changes', TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME);
        return null;
      end $$`.execute(db);
    await notifyChanges(db, NOTIFYING_TABLES);
  },
};

/** Puts the change trigger on these tables; PostgreSQL only (callers skip it on SQLite). */
export async function notifyChanges(db: Kysely<any>, tables: string[]): Promise<void> {
  for (const t of tables) {
    await sql`create trigger fleet_changes after insert or update or delete or truncate on ${sql.table(t)}
      for each statement execute function fleet_notify_change()`.execute(db);
  }
}
