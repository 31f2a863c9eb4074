import { sql } from 'kysely';
import type { Migration } from './helpers.js';

/**
 * Who wrote a telemetry state row last: the token of the batch that wrote it, or null. A node that finds
 * its own token there knows that nobody stored or processed records of that vehicle or asset since its
 * last batch, so the records it keeps in memory are all that is pending
 * (src/telemetry/store/pending-memory.ts).
 *
 * A trigger clears the token on every update that does not write a new one: a write by code that knows
 * nothing of tokens (a node of an earlier version during an upgrade, a statement typed by hand) can never
 * leave a token standing that no longer tells the truth.
 *
 * It adds nothing where the column is already there, so that it can also be run ahead of the migrations
 * before it (test/storage/partition-upgrade.test.ts: a node of this version reports while 0025 runs).
 */
export const stateWriter: Migration = {
  async up(db, kind) {
    if (kind === 'postgres') {
      const found = await sql`select 1 from information_schema.columns
        where table_schema = current_schema() and table_name = 'telemetry_state' and column_name = 'writer'`.execute(
        db,
      );
      if (found.rows.length > 0) return;
      await sql`alter table telemetry_state add column writer text`.execute(db);
      await sql`create function telemetry_state_writer() returns trigger language plpgsql as $$
        begin
          if new.writer is not distinct from old.writer then new.writer := null; end if;
          return new;
        end $$`.execute(db);
      await sql`create trigger telemetry_state_writer before update on telemetry_state
        for each row execute function telemetry_state_writer()`.execute(db);
      return;
    }
    const columns = await sql<{ name: string }>`pragma table_info(telemetry_state)`.execute(db);
    if (columns.rows.some((c) => c.name === 'writer')) return;
    await db.schema.alterTable('telemetry_state').addColumn('writer', 'text').execute();
    await sql`create trigger telemetry_state_writer after update on telemetry_state
      for each row when new.writer is not null and new.writer is old.writer
      begin update telemetry_state set writer = null where subject = new.subject; end`.execute(db);
  },
};
