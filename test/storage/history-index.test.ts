/**
 * The index a vehicle's history is read by (migrations 0015 and 0016): the window of one vehicle, in
 * (fix_time, id) order, comes from the (vehicle_id, fix_time, …) index without a sort step (on
 * PostgreSQL, each weekly partition's own). On
 * PostgreSQL the index holds the id (sorts are forbidden to the planner here, so a plan without a
 * Sort node shows that the index gives the order) and carries the columns the history reads, so the
 * history's own query needs no table page (an index-only scan, once vacuum has marked the pages
 * all-visible); on SQLite its entries end with the rowid, which is the id.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { eachDialect, useFreshDb } from '../helper.js';

const HISTORY_ORDER = `select id from telemetry_records where vehicle_id = 1
  and fix_time >= '2026-01-01T00:00:00.000Z' and fix_time < '2026-01-02T00:00:00.000Z' order by fix_time, id`;

/** The columns and filter of a history slice on PostgreSQL (src/telemetry/queries/locations.ts). */
const HISTORY_SLICE = `select id, point_json, driver_id from telemetry_records where vehicle_id = 1
  and fix_time >= '2026-01-01T00:00:00.000Z' and fix_time < '2026-01-02T00:00:00.000Z'
  and lat is not null and type in ('location', 'engine') order by fix_time, id`;

eachDialect('history index', (dialect) => {
  const fresh = useFreshDb(dialect, migrateToLatest);

  test("a vehicle's window is read in (fix_time, id) order from the index, with no sort", async () => {
    const db = fresh();
    if (dialect === 'postgres') {
      // The table is partitioned by week (src/storage/partitions/telemetry.ts): each partition has the
      // index, the one holding the rows from before the migration under its old name.
      const indexes = await sql<{ tablename: string; indexname: string; indexdef: string }>`select tablename,
          indexname, indexdef from pg_indexes
        where schemaname = current_schema() and tablename like 'telemetry_records%' and indexdef like '%(vehicle_id%'
        order by tablename`.execute(db.kysely);
      const defs = indexes.rows.map((r) => [r.tablename, r.indexname, r.indexdef.replace(/.*USING btree /, '')]);
      const HISTORY = '(vehicle_id, fix_time, id) INCLUDE (lat, type, driver_id, point_json)';
      assert.deepEqual(
        defs.find((r) => r[0] === 'telemetry_records_before'),
        ['telemetry_records_before', 'telemetry_records_vehicle_history_idx', HISTORY],
      );
      const weeks = defs.filter((r) => r[0] !== 'telemetry_records_before');
      assert.ok(weeks.length >= 2, JSON.stringify(defs));
      for (const [table, name, def] of weeks) assert.deepEqual([name, def], [`${table}_history_idx`, HISTORY]);
      const plan = await db.kysely.transaction().execute(async (trx) => {
        await sql`set local enable_sort = off`.execute(trx);
        await sql`set local enable_seqscan = off`.execute(trx);
        await sql`set local enable_bitmapscan = off`.execute(trx);
        return (await sql<{ 'QUERY PLAN': string }>`explain ${sql.raw(HISTORY_ORDER)}`.execute(trx)).rows
          .map((r) => r['QUERY PLAN'])
          .join('\n');
      });
      assert.match(plan, /Index (Only )?Scan using telemetry_records_vehicle_history_idx/);
      assert.doesNotMatch(plan, /Sort/);
    } else {
      const plan = (await sql<{ detail: string }>`explain query plan ${sql.raw(HISTORY_ORDER)}`.execute(db.kysely)).rows
        .map((r) => r.detail)
        .join('\n');
      assert.match(plan, /USING (COVERING )?INDEX telemetry_records_vehicle_idx/);
      assert.doesNotMatch(plan, /TEMP B-TREE/);
    }
  });

  if (dialect === 'postgres') {
    test('PostgreSQL: a history slice is answered from the index alone, in order', async () => {
      const db = fresh();
      const plan = await db.kysely.transaction().execute(async (trx) => {
        // Sorts, bitmaps and sequential scans are off: the planner picks between the index scans, and
        // takes the index-only one exactly when the index holds every column the query reads.
        for (const off of ['enable_sort', 'enable_seqscan', 'enable_bitmapscan'])
          await sql.raw(`set local ${off} = off`).execute(trx);
        return (await sql<{ 'QUERY PLAN': string }>`explain ${sql.raw(HISTORY_SLICE)}`.execute(trx)).rows
          .map((r) => r['QUERY PLAN'])
          .join('\n');
      });
      assert.match(plan, /^Index Only Scan using telemetry_records_vehicle_history_idx/);
      assert.doesNotMatch(plan, /Sort|Seq Scan|Bitmap/);
    });
  }
});
