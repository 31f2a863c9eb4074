/**
 * The history benchmark's seed and its own measurement (run through `npx tsx bench/scenarios/history-day.ts`;
 * files starting with `_` are not scenarios): one vehicle-day of 8,640 fixes stored through the
 * ingestion path among the same day of HISTORY_NEIGHBOURS (default 9) other vehicles, then
 * HISTORY_REQUESTS sequential GETs of that day against the real server (a child process); reports
 * the latency percentiles against the target p99 < 50 ms and writes bench/results/history-<database>.json.
 * HISTORY_COMPACTED=1 (PostgreSQL) stores the day in a week of its own and compacts that week first, as
 * RETENTION_COMPACT_AFTER_DAYS does to old weeks (docs/storage.md, Leaner rows): the history is then
 * rendered from the columns, not from stored text.
 */
import { Agent, get as httpGet } from 'node:http';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Db } from '../../src/storage/db.js';
import { openDb } from '../../src/storage/db.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { nowIso } from '../../src/storage/values.js';
import { provisionDevice } from '../../src/domain/devices/service.js';
import { handleBatch } from '../../src/telemetry/store/batch.js';
import { processVehicle } from '../../src/telemetry/store/process.js';
import { loadConfig } from '../../src/config/index.js';
import { benchCompany } from '../lib/fleet.js';
import { cpuMs } from '../lib/load.js';
import { ownRun } from '../lib/own-run.js';
import { compactSeededWeeks, weeksForTheSeed } from '../lib/weeks.js';
import { PROFILE_DIR, startServer } from '../lib/server-process.js';

export const POINTS = 8640;

export interface HistoryState {
  vehicleId: number;
  day: string;
}

/**
 * Stores one vehicle-day of 10-second fixes for the measured vehicle, and the same day for
 * `neighbours` other vehicles of the company, the way a fleet's devices send them: every vehicle a
 * 10-minute batch in turn, so each vehicle's rows lie spread over the table among the others' (one
 * vehicle's day stored alone would sit in contiguous pages, and on PostgreSQL its statistics would make
 * a full scan look cheapest). Then the table is vacuumed and its statistics refreshed, as autovacuum
 * does soon after such a load (and would otherwise do during the measurement).
 */
export async function seedHistory(db: Db, companyId: number, neighbours = 0): Promise<HistoryState> {
  const now = nowIso();
  const day = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
  const t0 = Date.parse(`${day}T00:00:00Z`);
  const cfg = loadConfig({ DATABASE_URL: 'sqlite::memory:' }).telemetry;
  const fleet = [];
  for (let k = 0; k <= neighbours; k++) {
    const number = k === 0 ? `HIST-${companyId}` : `HIST-${companyId}-${k}`;
    const { id: vehicleId } = await db.kysely
      .insertInto('vehicles')
      .values({ company_id: companyId, number, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const device = await provisionDevice(db, { companyId }, { identifier: number, vehicleId });
    fleet.push({
      vehicleId,
      principal: {
        deviceId: device.id,
        companyId,
        kind: 'eld' as const,
        vehicleId,
        assetId: null,
        identifier: device.identifier,
      },
    });
  }
  const batch = neighbours > 0 ? 60 : 500;
  for (let b = 0; b < POINTS; b += batch) {
    for (const [k, v] of fleet.entries()) {
      const records = [];
      for (let n = b; n < Math.min(POINTS, b + batch); n++) {
        const moving = n % 1080 > 120;
        records.push({
          seq: n + 1,
          type: 'location',
          time: new Date(t0 + n * 10_000).toISOString(),
          lat: 41.2 + k * 0.01 + n * 1e-4,
          lon: -96 + n * 2e-4,
          speed_kph: moving ? 88 : 0,
          bearing_deg: 45,
          odometer_km: 1000 + n * 0.24,
          fuel_used_l: 300 + n * 0.08,
          engine_hours: 2000 + n / 360,
        });
      }
      await handleBatch(db, v.principal, 0, records, cfg);
    }
  }
  for (const v of fleet)
    await processVehicle(db, v.vehicleId, { thresholds: cfg.thresholds, reorderWindowS: 0, flush: true });
  if (neighbours > 0)
    await sql.raw(db.kind === 'postgres' ? 'vacuum analyze telemetry_records' : 'analyze').execute(db.kysely);
  return { vehicleId: fleet[0].vehicleId, day };
}

/** Other vehicles whose days share the table with the measured one (HISTORY_NEIGHBOURS). */
export const historyNeighbours = () => Number(process.env.HISTORY_NEIGHBOURS ?? 9);

export async function runHistoryBench(kind: 'sqlite' | 'postgres') {
  const requests = Number(process.env.HISTORY_REQUESTS ?? 200);
  await ownRun('history', kind, 600_000, async (database, log) => {
    const db = openDb(database.url, { poolSize: 2 });
    await migrateToLatest(db);
    const { companyId, apiKey } = await benchCompany(db, 'History bench');
    const compacted = kind === 'postgres' && process.env.HISTORY_COMPACTED === '1';
    if (compacted) await weeksForTheSeed(db);
    const t0 = Date.now();
    const s = await seedHistory(db, companyId, historyNeighbours());
    log(`seeded ${POINTS} points of ${historyNeighbours() + 1} vehicles in ${Date.now() - t0} ms`);
    if (compacted) {
      await compactSeededWeeks(db);
      log('compacted the week');
    }
    await db.close();
    const server = await startServer(['app', database.url]);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const url = `${server.url}/v1/vehicle_locations/${s.vehicleId}?date=${s.day}`;
      const headers = { 'x-api-key': apiKey, 'x-time-zone': 'UTC' };
      // The warm-up answers are read whole and checked point by point; a measured answer only has
      // to come back 200 with the same bytes as those, counted as they arrive, so that the client's
      // own garbage (a 2.4 MB string and 8,640 objects a request) does not land in the measurement.
      let size = 0;
      const check = async () => {
        const res = await fetch(url, { headers });
        const text = await res.text();
        const body = JSON.parse(text) as { vehicle_locations: unknown[] };
        if (res.status !== 200 || body.vehicle_locations.length !== POINTS)
          throw new Error(`bad answer: ${res.status}`);
        size = Buffer.byteLength(text);
      };
      const get = () =>
        new Promise<number>((resolve, reject) => {
          const t = performance.now();
          httpGet(url, { headers, agent }, (res) => {
            let bytes = 0;
            res.on('data', (chunk: Buffer) => (bytes += chunk.length));
            res.on('end', () => {
              // Latency is to the last byte received.
              const ms = performance.now() - t;
              if (res.statusCode !== 200 || bytes !== size)
                reject(new Error(`bad answer: ${res.statusCode}, ${bytes} bytes instead of ${size}`));
              else resolve(ms);
            });
            res.on('error', reject);
          }).on('error', reject);
        });
      for (let i = 0; i < 5; i++) await check();
      for (let i = 0; i < 5; i++) await get();
      const lat: number[] = [];
      const profile = process.env.BENCH_CPU_PROF === '1' ? join(PROFILE_DIR, `history-${kind}.cpuprofile`) : null;
      if (profile) await server.profileStart();
      const cpu0 = cpuMs(server.pid);
      for (let i = 0; i < requests; i++) lat.push(await get());
      const cpu1 = cpuMs(server.pid);
      if (profile) await server.profileStop(profile);
      lat.sort((a, b) => a - b);
      const p = (q: number) =>
        Math.round(lat[Math.min(lat.length - 1, Math.ceil((q / 100) * lat.length) - 1)] * 10) / 10;
      return {
        database: kind,
        compacted,
        points: POINTS,
        vehicles_in_table: historyNeighbours() + 1,
        requests,
        latency_ms: { p50: p(50), p90: p(90), p99: p(99), max: p(100) },
        server_cpu_ms_per_request:
          cpu0 === null || cpu1 === null ? null : Math.round(((cpu1 - cpu0) / requests) * 10) / 10,
        target_p99_ms: 50,
        pass: p(99) < 50,
      };
    } finally {
      agent.destroy();
      await server.stop();
    }
  });
}
