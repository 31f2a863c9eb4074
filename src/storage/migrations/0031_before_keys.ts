import { sql } from 'kysely';
import type { Migration } from './helpers.js';
import { beforeName } from '../partitions/layout.js';
import { TELEMETRY } from '../partitions/telemetry.js';

/**
 * PostgreSQL: the partition before the weeks (migration 0025: the table as it was) loses the foreign keys
 * it kept from migration 0007 (company, device, vehicle, asset). The weekly partitions never had them
 * (src/storage/partitions/telemetry.ts): the ingest path takes the device, its vehicle or asset and its
 * company from the device's credential, and nothing deletes those while records point at them. Each
 * key cost a query per stored record (a trigger's `SELECT … FOR KEY SHARE` on the parent): a third of
 * PostgreSQL's CPU while device batches went into that partition (`perf record` of
 * bench/scenarios/ingest-locations.ts, bench/RESULTS.md), which is where every record of the first one
 * or two weeks after the upgrade goes, and every late one older than the first week. Dropping a foreign
 * key checks nothing and rewrites nothing: a moment's lock on the partition and on the parents.
 */
export const beforeKeys: Migration = {
  async up(db, kind) {
    if (kind !== 'postgres') return;
    const before = beforeName(TELEMETRY);
    const keys = await sql<{ name: string }>`select conname as name from pg_constraint
      where conrelid = to_regclass(${before}) and contype = 'f' order by conname`.execute(db);
    for (const { name } of keys.rows)
      await sql`alter table ${sql.id(before)} drop constraint if exists ${sql.id(name)}`.execute(db);
  },
};
