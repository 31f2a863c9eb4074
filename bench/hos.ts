/**
 * Hours-of-service benchmark: available time for 10,000 drivers with 8 days of stored records each,
 * computed from the stored records (the query and the engine), on SQLite and, when BENCH_POSTGRES_URL
 * (or TEST_POSTGRES_URL) is set, PostgreSQL. Also the incremental path: one new record re-evaluates one
 * driver. Target: under 2 s for the 10,000 drivers on SQLite.
 *
 *   npx tsx bench/hos.ts
 *
 * On a shared machine wall time depends on what else runs: the process's own CPU time is reported too
 * (for SQLite it includes the database; for PostgreSQL the server's work is not in it).
 *
 * Environment: HOS_BENCH_DRIVERS (default 10000), HOS_BENCH_DAYS (default 8), HOS_BENCH_REPEAT (3).
 */
import { pathToFileURL } from 'node:url';
import { sql, type Insertable } from 'kysely';
import { openDb, type Db } from '../src/storage/db.js';
import { migrateToLatest } from '../src/storage/migrate.js';
import { toIso } from '../src/storage/values.js';
import type { HosEventsTable } from '../src/domain/hos/tables.js';
import { evaluateDrivers, lookbackMs } from '../src/domain/hos/evaluation.js';
import { hosDrivers } from '../src/domain/hos/drivers.js';
import { loadWindows } from '../src/domain/hos/store.js';
import { evaluate } from '../src/domain/hos/engine/index.js';
import { recordDutyStatusEvents } from '../src/domain/hos/service.js';
import { OPEN_END } from '../src/domain/hos/store.js';
import { seedFleet, benchCompany } from './lib/fleet.js';
import { postgresBaseUrl, postgresDatabase, sqliteDatabase, type BenchDatabase } from './lib/databases.js';

const DRIVERS = Number(process.env.HOS_BENCH_DRIVERS ?? 10_000);
const DAYS = Number(process.env.HOS_BENCH_DAYS ?? 8);
const REPEAT = Number(process.env.HOS_BENCH_REPEAT ?? 3);
const BATCH = 500;
const H = 3_600_000;
const log = (m: string) => process.stderr.write(`[hos-bench] ${m}\n`);

type Row = Insertable<HosEventsTable>;

/** One driver's days: on duty, driving with a break, off; every tenth driver overdrives (driving_11). */
export function driverRows(companyId: number, driverId: number, i: number, now: number, days = DAYS): Row[] {
  const rows: Row[] = [];
  const today = Math.floor(now / (24 * H)) * 24 * H;
  const created = toIso(now);
  let seq = 0;
  const add = (at: number, kind: string, status: string | null, type: number, code: number) => {
    if (at > now) return;
    rows.push({
      company_id: companyId,
      driver_id: driverId,
      vehicle_id: null,
      eld_device_id: null,
      sequence_id: seq++ % 0x10000,
      kind,
      event_type: type,
      event_code: code,
      status,
      special: null,
      code: null,
      record_status: 1,
      record_origin: 2,
      occurred_at: toIso(at),
      ended_at: kind === 'duty_status' ? OPEN_END : null,
      lat: null,
      lon: null,
      location: null,
      odometer_km: null,
      engine_hours: null,
      notes: null,
      edit_id: null,
      superseded_by_edit_id: null,
      created_at: created,
    });
  };
  for (let d = days; d >= 0; d--) {
    const s = today - d * 24 * H + (4 + (i % 6)) * H + (i % 60) * 60_000;
    const long = i % 10 === 0;
    add(s, 'duty_status', 'on_duty', 1, 4);
    add(s + 0.4 * H, 'engine_power_up', null, 6, 1);
    add(s + 0.5 * H, 'duty_status', 'driving', 1, 3);
    add(s + 1.5 * H, 'intermediate_log', null, 2, 1);
    add(s + 3.5 * H, 'intermediate_log', null, 2, 1);
    add(s + 4.5 * H, 'duty_status', 'off_duty', 1, 1);
    add(s + 5 * H, 'duty_status', 'driving', 1, 3);
    add(s + 6.5 * H, 'intermediate_log', null, 2, 1);
    add(s + 8 * H, 'intermediate_log', null, 2, 1);
    add(s + (long ? 12.5 : 9) * H, 'duty_status', 'on_duty', 1, 4);
    add(s + (long ? 12.7 : 9.2) * H, 'engine_shut_down', null, 6, 3);
    add(s + (long ? 13 : 9.5) * H, 'duty_status', 'off_duty', 1, 1);
  }
  const duty = rows.filter((r) => r.kind === 'duty_status');
  for (let k = 0; k < duty.length - 1; k++) duty[k]!.ended_at = duty[k + 1]!.occurred_at;
  return rows;
}

/** Seeds `drivers` drivers of the company with `days` days of records each (batched, one transaction). */
export async function seedHosRecords(
  db: Db,
  companyId: number,
  drivers: number,
  now: number,
  days = DAYS,
): Promise<{ driverIds: number[]; rows: number }> {
  const fleet = await seedFleet(db, companyId, { vehicles: 0, drivers, groups: 0 });
  let rows = 0;
  let pending: Row[] = [];
  await db.kysely.transaction().execute(async (trx) => {
    for (let i = 0; i < fleet.driverIds.length; i++) {
      pending.push(...driverRows(companyId, fleet.driverIds[i]!, i, now, days));
      if (pending.length >= 4000 || i === fleet.driverIds.length - 1) {
        for (let k = 0; k < pending.length; k += BATCH)
          await trx
            .insertInto('hos_events')
            .values(pending.slice(k, k + BATCH))
            .execute();
        rows += pending.length;
        pending = [];
      }
    }
  });
  return { driverIds: fleet.driverIds, rows };
}

async function seed(db: Db, now: number): Promise<{ companyId: number; driverIds: number[]; rows: number }> {
  const { companyId } = await benchCompany(db, 'HOS bench');
  return { companyId, ...(await seedHosRecords(db, companyId, DRIVERS, now)) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function run(database: BenchDatabase) {
  const db = openDb(database.url, { poolSize: 4 });
  try {
    await migrateToLatest(db);
    const now = Date.now();
    let t0 = performance.now();
    const { companyId, driverIds, rows } = await seed(db, now);
    // Statistics, as autovacuum / a periodic ANALYZE keep them on a live database.
    await sql`${sql.raw(database.kind === 'postgres' ? 'vacuum analyze hos_events' : 'analyze')}`.execute(db.kysely);
    log(
      `${database.kind}: seeded ${driverIds.length} drivers, ${rows} records in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const tenant = { companyId };
    const times: number[] = [];
    const cpu: number[] = [];
    let violations = 0;
    for (let r = 0; r < REPEAT; r++) {
      t0 = performance.now();
      const c0 = process.cpuUsage();
      violations = 0;
      for (let k = 0; k < driverIds.length; k += BATCH) {
        const out = await evaluateDrivers(db.kysely, tenant, driverIds.slice(k, k + BATCH), now);
        for (const e of out.values()) violations += e.evaluation.violations.length;
      }
      times.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
    }
    // Where the time goes: reading drivers and records, and the engine.
    const split = { drivers_ms: 0, records_ms: 0, engine_ms: 0 };
    for (let k = 0; k < driverIds.length; k += BATCH) {
      const part = driverIds.slice(k, k + BATCH);
      let t1 = performance.now();
      const drivers = await hosDrivers(db.kysely, companyId, part);
      split.drivers_ms += performance.now() - t1;
      t1 = performance.now();
      const back = Math.max(...[...drivers.values()].map(lookbackMs));
      const windows = await loadWindows(db.kysely, companyId, part, now - back, now);
      split.records_ms += performance.now() - t1;
      t1 = performance.now();
      for (const [id, d] of drivers) evaluate(d.ruleset, windows.get(id)!.records, windows.get(id)!.claims, now);
      split.engine_ms += performance.now() - t1;
    }
    for (const k of Object.keys(split) as Array<keyof typeof split>) split[k] = Math.round(split[k]);
    const incremental: number[] = [];
    for (let k = 0; k < 20; k++) {
      t0 = performance.now();
      await recordDutyStatusEvents(
        db,
        tenant,
        driverIds[k]!,
        [{ at: toIso(now - 1000 + k), status: k % 2 ? 'on_duty' : 'off_duty' }],
        { now },
      );
      incremental.push(performance.now() - t0);
    }
    return {
      database: database.kind,
      drivers: driverIds.length,
      days: DAYS,
      records: rows,
      available_time_ms: times.map(Math.round),
      median_ms: Math.round(median(times)),
      cpu_median_ms: Math.round(median(cpu)),
      violations_in_window: violations,
      ...split,
      incremental_record_median_ms: Number(median(incremental).toFixed(1)),
    };
  } finally {
    await db.close();
    await database.drop();
  }
}

async function main() {
  const results = [await run(sqliteDatabase())];
  const pgBase = postgresBaseUrl();
  if (pgBase) results.push(await run(await postgresDatabase(pgBase)));
  for (const r of results) {
    const verdict = r.database === 'sqlite' ? (r.median_ms < 2000 ? 'PASS (< 2 s)' : 'MISS (target < 2 s)') : 'INFO';
    console.log(
      `${r.database}: available time for ${r.drivers} drivers × ${r.days} days (${r.records} records): median ${r.median_ms} ms ${JSON.stringify(r.available_time_ms)} (this process's CPU: ${r.cpu_median_ms} ms) — ${verdict}; one new record re-evaluates one driver in ${r.incremental_record_median_ms} ms (drivers ${r.drivers_ms} ms, records ${r.records_ms} ms, engine ${r.engine_ms} ms)`,
    );
  }
  console.log(JSON.stringify(results));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
