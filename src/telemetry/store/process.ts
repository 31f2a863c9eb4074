/**
 * Processing one vehicle: its stored records past the horizon (the last processed fix time) and up to
 * the watermark, in fix-time order, through the pipeline, with the state and every output written in
 * one transaction. The watermark trails the newest fix by the reorder window, so records arriving out
 * of order within the window are still processed in order; `flush` processes everything stored (a
 * quiet vehicle, tests, replay). This is the one entry point for processing: a scale-out claim (an
 * advisory lock per vehicle) wraps this function; the PostgreSQL row lock on the state row already
 * serializes two nodes.
 */
import type { Db } from '../../storage/db.js';
import { json, toIso } from '../../storage/values.js';
import { shapeOf } from '../../domain/geofences/service.js';
import type { Thresholds } from '../thresholds.js';
import { loadState, runPipeline } from '../processors/pipeline.js';
import type { Env, GeofenceDef, RecordIn } from '../processors/types.js';
import { writeOutputs } from './outputs.js';
import { detectDriving, forwardDutyStatus, recordAutoDuty, savedAutoDuty } from './hos-link.js';
import { writeTx, type Trx } from './tx.js';
import type { FreshRow } from './ingest.js';

/** Most records processed in one transaction; a longer backlog takes several. */
export const PROCESS_CHUNK = 5000;

export interface ProcessOptions {
  thresholds: Thresholds;
  reorderWindowS: number;
  flush: boolean;
}

export async function loadGeofences(trx: Trx, companyId: number): Promise<GeofenceDef[]> {
  const rows = await trx
    .selectFrom('geofences')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('deleted_at', 'is', null)
    .where('status', '=', 'active')
    .orderBy('id')
    .execute();
  return rows.map((g) => ({
    id: g.id, shape: shapeOf(g),
    bounds: { min_lat: g.min_lat, max_lat: g.max_lat, min_lon: g.min_lon, max_lon: g.max_lon },
  }));
}

type PendingRow = {
  /** Fix time in ms and parsed data, when the row comes from memory rather than the database. */
  t?: number;
  parsed?: Record<string, unknown> | null;
  device_id: number; channel: number; type: string; fix_time: string; lat: number | null; lon: number | null;
  speed_kph: number | null; bearing_deg: number | null; odometer_km: number | null; fuel_used_l: number | null;
  description: string | null; data: string | null;
};

export function recordIn(r: PendingRow): RecordIn {
  return {
    t: r.t ?? Date.parse(r.fix_time), type: r.type, deviceId: r.device_id, channel: r.channel, lat: r.lat, lon: r.lon,
    speedKph: r.speed_kph, bearing: r.bearing_deg, odometerKm: r.odometer_km, fuelUsedL: r.fuel_used_l,
    description: r.description, data: r.parsed !== undefined ? r.parsed : r.data ? (JSON.parse(r.data) as Record<string, unknown>) : null,
  };
}

export const PENDING_COLUMNS = [
  'device_id', 'channel', 'type', 'fix_time', 'lat', 'lon', 'speed_kph', 'bearing_deg', 'odometer_km', 'fuel_used_l', 'description', 'data',
] as const;

/**
 * The pending rows: read from the database, except the ones the batch just stored (`fresh`, already
 * in memory), which only need merging in.
 */
async function pendingRows(trx: Trx, vehicleId: number, horizon: string | null, watermark: string, fresh: FreshRow[] | undefined): Promise<PendingRow[]> {
  let pq = trx.selectFrom('telemetry_records').select([...PENDING_COLUMNS, 'id']).where('vehicle_id', '=', vehicleId).where('fix_time', '<=', watermark);
  if (horizon !== null) pq = pq.where('fix_time', '>', horizon);
  const inRange = (r: FreshRow) => r.fix_time <= watermark && (horizon === null || r.fix_time > horizon);
  if (fresh && fresh.length > 0) {
    let lo = Infinity;
    let hi = -Infinity;
    for (const r of fresh) {
      if (r.id < lo) lo = r.id;
      if (r.id > hi) hi = r.id;
    }
    const older = await pq.where((eb) => eb.or([eb('id', '<', lo), eb('id', '>', hi)])).orderBy('fix_time').orderBy('id').limit(PROCESS_CHUNK).execute();
    const mine = fresh.filter(inRange);
    if (older.length + mine.length <= PROCESS_CHUNK) {
      // Fresh rows carry every pending column (and t, parsed): they are used as they are.
      const rows = [...older.map((o) => ({ ...o, id: Number(o.id) })), ...(mine as unknown as Array<PendingRow & { id: number }>)];
      return rows.sort((a, b) => (a.fix_time < b.fix_time ? -1 : a.fix_time > b.fix_time ? 1 : a.id - b.id));
    }
  }
  return pq.orderBy('fix_time').orderBy('id').limit(PROCESS_CHUNK).execute();
}

/** One transaction's worth of processing; returns how many records it processed. */
async function processChunk(db: Db, vehicleId: number, opts: ProcessOptions, fresh?: FreshRow[]): Promise<number> {
  return writeTx(db, async (trx) => {
    let q = trx.selectFrom('telemetry_state').selectAll().where('subject', '=', `v:${vehicleId}`);
    if (db.kind === 'postgres') q = q.forUpdate();
    const st = await q.executeTakeFirst();
    if (!st || st.max_fix_time === null) return 0;
    const watermark = opts.flush ? st.max_fix_time : toIso(Date.parse(st.max_fix_time) - opts.reorderWindowS * 1000);
    if (st.horizon !== null && st.horizon >= watermark) return 0;
    let rows = await pendingRows(trx, vehicleId, st.horizon, watermark, fresh);
    if (rows.length === 0) return 0;
    if (rows.length === PROCESS_CHUNK) {
      // Never split records of one instant across two chunks: the horizon is a fix time.
      const lastTime = rows[rows.length - 1].fix_time;
      const cut = rows.findIndex((r) => r.fix_time === lastTime);
      if (cut > 0) rows = rows.slice(0, cut);
    }
    const geofences = await loadGeofences(trx, st.company_id);
    const env: Env = { th: opts.thresholds, geofences, geofenceIds: geofences.map((g) => g.id) };
    const records = rows.map(recordIn);
    const { state, outputs } = runPipeline(loadState(st.state), records, env);
    const auto = detectDriving(savedAutoDuty(st.state), records);
    await writeOutputs(trx, { companyId: st.company_id, vehicleId, announce: true }, outputs);
    await forwardDutyStatus(db, trx, st.company_id, vehicleId, records);
    await recordAutoDuty(db, trx, st.company_id, vehicleId, auto.proposals);
    const now = toIso(Date.now());
    await trx
      .updateTable('telemetry_state')
      .set({ state: json({ ...state, hos_auto: auto.state }), horizon: rows[rows.length - 1].fix_time, updated_at: now })
      .where('subject', '=', st.subject)
      .execute();
    return rows.length;
  });
}

/** Processes a vehicle's pending records (bounded: at most `maxChunks` transactions). */
export async function processVehicle(db: Db, vehicleId: number, opts: ProcessOptions, maxChunks = 100, fresh?: FreshRow[]): Promise<number> {
  let total = 0;
  for (let i = 0; i < maxChunks; i++) {
    const n = await processChunk(db, vehicleId, opts, i === 0 ? fresh : undefined);
    total += n;
    if (n < PROCESS_CHUNK) break;
  }
  return total;
}
