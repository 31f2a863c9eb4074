/**
 * The ingestion benchmark's own measurement (run through `npx tsx bench/scenarios/ingest-locations.ts`;
 * files starting with `_` are not scenarios). In one run, on one fresh database:
 * 1. raw bulk insert: the same rows (500 per INSERT, one transaction each, straight through Kysely)
 *    into telemetry_records, rows/s;
 * 2. HTTP ingestion into the real server (a child process, every processor on): INGEST_CONNECTIONS
 *    clients each posting 500-record batches back to back for INGEST_SECONDS, records/s and the batch
 *    latency percentiles. INGEST_BATCH (1–500, default 500) sets the records per HTTP batch, to measure
 *    what a batch costs apart from its records (small batches are what real devices send); the targets
 *    are for 500.
 * Targets: ≥ 50,000 records/s, and ≥ 25 % of the raw insert rate. INGEST_LOCATION_WEBHOOK=1 adds a
 * webhook subscribed to vehicle_location_received (one event per fix). Bounded in time; writes
 * bench/results/ingest-<database>.json (and, with BENCH_CPU_PROF=1, a CPU profile of the measured
 * window to bench/results/profiles/ingest-<database>.cpuprofile).
 */
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { openDb, sqlitePath } from '../../src/storage/db.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { benchCompany } from '../lib/fleet.js';
import { cpuMs } from '../lib/load.js';
import { ownRun } from '../lib/own-run.js';
import { PROFILE_DIR, startServer } from '../lib/server-process.js';
import type { Insertable } from 'kysely';
import type { Db } from '../../src/storage/db.js';
import type { TelemetryRecordsTable } from '../../src/telemetry/store/tables.js';
import { provisionDevice } from '../../src/domain/devices/service.js';
import { createGeofence } from '../../src/domain/geofences/service.js';
import { nowIso } from '../../src/storage/values.js';

export const BATCH = 500;
const DEVICES = 8;

export interface IngestState {
  devices: Array<{ token: string; vehicleId: number; deviceId: number; lon: number }>;
  seq: number[];
  t0: number;
}

/** Vehicles with ELDs and a few geofences for one company. */
export async function seedIngest(db: Db, companyId: number, devices = DEVICES, tag = 'B'): Promise<IngestState> {
  const now = nowIso();
  const out: IngestState['devices'] = [];
  // Device i drives from longitude -120 + 3 (i mod 10) up to 40° east and back, through zone i mod 10:
  // every fix a valid position however many devices (the overload scenario seeds 250).
  for (let i = 0; i < devices; i++) {
    const { id } = await db.kysely
      .insertInto('vehicles')
      .values({ company_id: companyId, number: `ING-${tag}-${i}`, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const d = await provisionDevice(db, { companyId }, { identifier: `ING-${tag}-${companyId}-${i}`, vehicleId: id });
    out.push({ token: d.device_token, vehicleId: id, deviceId: d.id, lon: -120 + (i % 10) * 3 });
  }
  for (let g = 0; g < 10; g++) {
    await createGeofence(
      db,
      { companyId },
      { name: `Zone ${g}`, center: { lat: 39 + g * 0.01, lon: -120 + g * 3 + 0.2 }, radius_m: 800 },
      { circularOnly: true },
    );
  }
  // Fixes start 30 days ago and advance 10 s each: 259,200 per device before they would reach the
  // present (a week allowed only 60,480, which a 10 s run at 50,000 records/s over 8 devices exceeds).
  return { devices: out, seq: out.map(() => 0), t0: Date.now() - 30 * 86_400_000 };
}

/**
 * The next batch of one device: `size` (500) fixes 10 s apart at 90 kph, with a stop every so often,
 * driving east for 40° of longitude (through its geofence), then back west, and so on: positions stay
 * valid however long the run.
 */
export function nextBatch(s: IngestState, i: number, size = BATCH): string {
  const d = s.devices[i];
  const parts: string[] = [];
  for (let k = 0; k < size; k++) {
    const n = ++s.seq[i];
    const stopped = n % 720 < 60;
    const t = new Date(s.t0 + n * 10_000).toISOString();
    const x = ((n * 0.25) / 85) % 80;
    const lon = d.lon + (x < 40 ? x : 80 - x);
    parts.push(
      `{"seq":${n},"type":"location","time":"${t}","lat":39.0,"lon":${lon.toFixed(6)},"speed_kph":${stopped ? 0 : 90},"bearing_deg":${x < 40 ? 90 : 270},"odometer_km":${(n * 0.25).toFixed(2)},"fuel_used_l":${(n * 0.09).toFixed(2)}}`,
    );
  }
  return `{"records":[${parts.join(',')}]}`;
}

const num = (name: string, def: number) => (process.env[name] ? Number(process.env[name]) : def);

function pct(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : 0;
}

/** Raw rows a 30-day span of fixes 10 s apart holds. */
const RAW_PERIOD = 259_200;

function rawRow(
  companyId: number,
  deviceId: number,
  vehicleId: number,
  n: number,
  t0: number,
): Insertable<TelemetryRecordsTable> {
  // The times repeat every 30 days (the seqs never do): however fast the host and long the run, every
  // row stays in the past, where a partition already holds it (a row of the future has none on PostgreSQL).
  const at = new Date(t0 + (n % RAW_PERIOD) * 10_000).toISOString();
  return {
    company_id: companyId,
    device_id: deviceId,
    channel: 9,
    seq: n,
    vehicle_id: vehicleId,
    asset_id: null,
    type: 'location',
    fix_time: at,
    received_at: new Date().toISOString(),
    lat: 39,
    lon: -120 + n * 0.003,
    speed_kph: 90,
    bearing_deg: 90,
    odometer_km: n * 0.25,
    engine_hours: null,
    fuel_used_l: n * 0.09,
    fuel_level_pct: null,
    battery_v: null,
    driver_id: null,
    description: '3.2 mi SE of Springfield, IL',
    point_type: 'vehicle_moving',
    data: null,
    point_json: `"located_at":"${at.slice(0, 19)}Z","lat":39,"lon":${-120 + n * 0.003},"bearing":90,"engine_hours":null,"type":"vehicle_moving","description":"3.2 mi SE of Springfield, IL","speed":55.9,"odometer":${n * 0.15},"fuel":${n * 0.02}`,
  };
}

/**
 * The raw bulk insert: SQLite through better-sqlite3 with one prepared statement reused for every row,
 * 500 rows per transaction (the fastest plain way); PostgreSQL with 500-row multi-row INSERTs.
 */
async function rawInsert(
  url: string,
  companyId: number,
  deviceId: number,
  vehicleId: number,
  seconds: number,
): Promise<number> {
  const t0 = Date.now() - 30 * 86_400_000;
  let n = 0;
  if (url.startsWith('sqlite:')) {
    const conn = new SqliteDatabase(sqlitePath(url));
    conn.pragma('journal_mode = WAL');
    conn.pragma('synchronous = FULL'); // as the server's connection (src/storage/db.ts)
    const cols = Object.keys(rawRow(0, 0, 0, 0, 0));
    const stmt = conn.prepare(
      `insert into telemetry_records (${cols.join(', ')}) values (${cols.map((c) => `@${c}`).join(', ')}) on conflict (device_id, channel, seq) do nothing`,
    );
    const batch = conn.transaction((rows: Array<Record<string, unknown>>) => {
      for (const r of rows) stmt.run(r);
    });
    const start = performance.now();
    while (performance.now() - start < seconds * 1000) {
      const rows = [];
      for (let k = 0; k < BATCH; k++, n++)
        rows.push(rawRow(companyId, deviceId, vehicleId, n, t0) as Record<string, unknown>);
      batch(rows);
    }
    const rate = n / ((performance.now() - start) / 1000);
    conn.close();
    return rate;
  }
  const db = openDb(url, { poolSize: 2 });
  try {
    const start = performance.now();
    while (performance.now() - start < seconds * 1000) {
      const rows: Array<Insertable<TelemetryRecordsTable>> = [];
      for (let k = 0; k < BATCH; k++, n++) rows.push(rawRow(companyId, deviceId, vehicleId, n, t0));
      await db.kysely.transaction().execute((trx) => trx.insertInto('telemetry_records').values(rows).execute());
    }
    return n / ((performance.now() - start) / 1000);
  } finally {
    await db.close();
  }
}

export async function runIngestBench(kind: 'sqlite' | 'postgres') {
  const seconds = num('INGEST_SECONDS', 10);
  const connections = num('INGEST_CONNECTIONS', 4);
  const size = num('INGEST_BATCH', BATCH);
  if (!Number.isInteger(size) || size < 1 || size > BATCH) throw new Error(`INGEST_BATCH must be from 1 to ${BATCH}`);
  await ownRun('ingest', kind, (seconds * 3 + 180) * 1000, async (database, log) => {
    const db = openDb(database.url, { poolSize: 2 });
    await migrateToLatest(db);
    const { companyId } = await benchCompany(db, 'Ingest bench');
    const state = await seedIngest(db, companyId, connections * 2);
    const listening = process.env.INGEST_LOCATION_WEBHOOK === '1';
    if (listening) {
      // A webhook subscribed to every received location: each fix then records an event (the bench server
      // runs no delivery worker, so this measures what ingestion pays for them).
      const now = nowIso();
      await db.kysely
        .insertInto('company_webhooks')
        .values({
          company_id: companyId,
          url: 'http://127.0.0.1:9/',
          secret: 'bench',
          format: 'json',
          actions: JSON.stringify(['vehicle_location_received']),
          enabled: 1,
          webhook_type: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
    }
    const raw = await seedIngest(db, companyId, 1, 'RAW');
    await db.close();

    log(`raw bulk insert, ${seconds} s`);
    const rawRate = await rawInsert(
      database.url,
      companyId,
      raw.devices[0].deviceId,
      raw.devices[0].vehicleId,
      seconds,
    );
    log(`raw: ${Math.round(rawRate)} rows/s`);

    const server = await startServer(['app', database.url]);
    const latencies: number[] = [];
    let records = 0;
    let errors = 0;
    /** The failed answers by status, with the first body of each (what the errors were). */
    const failures: Record<string, { count: number; first: string }> = {};
    try {
      // Warm-up: one batch per device.
      for (let i = 0; i < state.devices.length; i++)
        await post(server.url, state.devices[i].token, nextBatch(state, i));
      log(`HTTP ingestion, ${connections} connections, ${seconds} s`);
      const start = performance.now();
      const until = start + seconds * 1000;
      const profile = process.env.BENCH_CPU_PROF === '1' ? join(PROFILE_DIR, `ingest-${kind}.cpuprofile`) : null;
      if (profile) await server.profileStart();
      const cpu0 = cpuMs(server.pid);
      await Promise.all(
        Array.from({ length: connections }, async (_, c) => {
          let turn = 0;
          while (performance.now() < until) {
            const i = c * 2 + (turn++ % 2);
            const body = nextBatch(state, i, size);
            const t = performance.now();
            const failed = await post(server.url, state.devices[i].token, body, size);
            latencies.push(performance.now() - t);
            if (failed === null) {
              records += size;
            } else {
              errors++;
              const f = (failures[failed.status] ??= { count: 0, first: failed.body.slice(0, 300) });
              f.count++;
            }
          }
        }),
      );
      const elapsed = (performance.now() - start) / 1000;
      const cpu1 = cpuMs(server.pid);
      if (profile) {
        await server.profileStop(profile);
        log(`profile: ${profile}`);
      }
      const cpuUs = cpu0 === null || cpu1 === null ? null : Math.round(((cpu1 - cpu0) * 1000) / records);
      const rate = records / elapsed;
      latencies.sort((a, b) => a - b);
      return {
        database: kind,
        seconds,
        connections,
        batch: size,
        location_webhook: listening,
        records_per_s: Math.round(rate),
        raw_rows_per_s: Math.round(rawRate),
        ratio_to_raw: Math.round((rate / rawRate) * 1000) / 1000,
        batch_latency_ms: {
          p50: round(pct(latencies, 50)),
          p90: round(pct(latencies, 90)),
          p99: round(pct(latencies, 99)),
          max: round(latencies.at(-1) ?? 0),
        },
        batches: latencies.length,
        errors,
        failures,
        server_cpu_us_per_record: cpuUs,
        server_cpu_us_per_batch:
          cpu0 === null || cpu1 === null ? null : Math.round(((cpu1 - cpu0) * 1000) / (records / size)),
        records_per_server_cpu_s: cpuUs ? Math.round(1_000_000 / cpuUs) : null,
        targets: { records_per_s: 50_000, ratio_to_raw: 0.25 },
        pass: size === BATCH && rate >= 50_000 && rate / rawRate >= 0.25 && errors === 0,
      };
    } finally {
      await server.stop();
    }
  });
}

const round = (x: number) => Math.round(x * 10) / 10;

/** Null when the batch was accepted whole; else the answer's status and body. */
async function post(
  url: string,
  token: string,
  body: string,
  records = BATCH,
): Promise<{ status: number; body: string } | null> {
  const res = await fetch(`${url}/device/v1/batches`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  return res.status === 200 && text.includes(`"accepted":${records}`) ? null : { status: res.status, body: text };
}
