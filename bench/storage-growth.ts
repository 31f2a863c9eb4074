/**
 * Storage per vehicle per day: stores VEHICLE_DAYS vehicle-days of 10-second fixes (8,640 a day, with
 * stops) through the ingestion path, processes them, and reports the bytes each table and its indexes
 * grew by, per vehicle-day. SQLite through the dbstat table, PostgreSQL through pg_total_relation_size,
 * each partition counted with its table. On PostgreSQL the fixes go to weekly partitions (the seeded
 * days lie before the partition the migration starts with, so the bench makes weeks for them first),
 * and the run reports the bytes twice: as stored (the recent weeks' layout, with the history text)
 * and after compaction (the layout of weeks past RETENTION_COMPACT_AFTER_DAYS; docs/storage.md).
 *
 *   npx tsx bench/storage-growth.ts [sqlite|postgres]     (VEHICLE_DAYS=3 by default)
 */
import { sql } from 'kysely';
import { openDb, type Db } from '../src/storage/db.js';
import { migrateToLatest } from '../src/storage/migrate.js';
import { benchCompany } from './lib/fleet.js';
import { postgresBaseUrl, postgresDatabase, sqliteDatabase } from './lib/databases.js';
import { POINTS, seedHistory } from './scenarios/_history-run.js';
import { compactSeededWeeks, weeksForTheSeed } from './lib/weeks.js';

/** Bytes per table, indexes counted with their table. */
async function sizes(db: Db): Promise<Map<string, number>> {
  if (db.kind === 'postgres') {
    const r = await sql<{ name: string; bytes: number }>`
      select coalesce(p.relname, c.relname) as name, sum(pg_total_relation_size(c.oid))::bigint as bytes
        from pg_class c left join pg_inherits i on i.inhrelid = c.oid left join pg_class p on p.oid = i.inhparent
       where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r'
       group by coalesce(p.relname, c.relname)`.execute(db.kysely);
    return new Map(r.rows.map((x) => [x.name, Number(x.bytes)]));
  }
  const r = await sql<{ name: string; tbl: string; bytes: number }>`
    select d.name as name, coalesce(m.tbl_name, d.name) as tbl, sum(d.pgsize) as bytes
      from dbstat d left join sqlite_master m on m.name = d.name group by d.name`.execute(db.kysely);
  const out = new Map<string, number>();
  for (const x of r.rows) out.set(x.tbl, (out.get(x.tbl) ?? 0) + Number(x.bytes));
  return out;
}

async function main() {
  const kind = (process.argv[2] ?? 'sqlite') as 'sqlite' | 'postgres';
  const days = Number(process.env.VEHICLE_DAYS ?? 3);
  const base = postgresBaseUrl();
  if (kind === 'postgres' && !base) throw new Error('set BENCH_POSTGRES_URL or TEST_POSTGRES_URL');
  const database = kind === 'sqlite' ? sqliteDatabase() : await postgresDatabase(base);
  const db = openDb(database.url, { poolSize: 2 });
  try {
    await migrateToLatest(db);
    // One company per vehicle-day (the seed names its vehicle after the company); their own rows are
    // a few hundred bytes, left out below with the other tables that do not grow with telemetry.
    const companies = [];
    for (let d = 0; d < days; d++) companies.push((await benchCompany(db, `Storage bench ${d}`)).companyId);
    if (kind === 'postgres') await weeksForTheSeed(db);
    if (kind === 'postgres') await sql`vacuum analyze`.execute(db.kysely);
    const before = await sizes(db);
    for (const companyId of companies) await seedHistory(db, companyId);
    if (kind === 'postgres') await sql`vacuum analyze`.execute(db.kysely);
    const report = (after: Map<string, number>) => {
      const rows = [...after]
        .map(([table, bytes]) => ({
          table,
          bytes_per_vehicle_day: Math.round((bytes - (before.get(table) ?? 0)) / days),
        }))
        .filter((x) => x.bytes_per_vehicle_day > 0)
        .sort((a, b) => b.bytes_per_vehicle_day - a.bytes_per_vehicle_day);
      const total = rows.reduce((a, x) => a + x.bytes_per_vehicle_day, 0);
      return { total_bytes_per_vehicle_day: total, bytes_per_point: Math.round(total / POINTS), tables: rows };
    };
    const stored = report(await sizes(db));
    let compacted = null;
    if (kind === 'postgres') {
      await compactSeededWeeks(db);
      compacted = report(await sizes(db));
    }
    console.log(
      JSON.stringify({ database: kind, vehicle_days: days, points_per_day: POINTS, stored, compacted }, null, 2),
    );
  } finally {
    await db.close();
    await database.drop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
