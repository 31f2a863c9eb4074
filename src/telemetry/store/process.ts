/**
 * Processing one vehicle or asset (a subject): its stored records past the horizon (the last processed
 * fix time) and up to the watermark, in fix-time order, through its processors, with the state and
 * every output written in one transaction. The watermark trails the newest fix by the reorder window,
 * so records arriving out of order within the window are still processed in order; `flush` processes
 * everything stored (a quiet subject, tests, replay). `processLocked` is the one place records are
 * processed: inside the transaction that stored a batch (ingest.ts), or in a transaction of its own
 * (`processSubject`: the sweep, `settle`, a backlog). A scale-out claim (an advisory lock per subject)
 * wraps these; the PostgreSQL row lock on the state row already serializes two nodes.
 */
import type { Db } from '../../storage/db.js';
import { json, toIso } from '../../storage/values.js';
import { shapeOf } from '../../domain/geofences/service.js';
import type { Thresholds } from '../thresholds.js';
import { loadAssetState, loadState, runAssetPipeline, runPipeline } from '../processors/pipeline.js';
import type { Env, GeofenceDef } from '../processors/types.js';
import { geofenceGrid } from '../processors/geofence-grid.js';
import { maxSince } from '../processors/geofence.js';
import { writeAssetOutputs, writeOutputs } from './outputs.js';
import { detectDriving, recordAutoDuty, autoDutyOf } from './hos-link.js';
import { writeTx, type Trx } from './tx.js';
import { lockedState, saveIngestedState, saveState, updateAlong, type IngestChanges } from './state-row.js';
import { pendingRows, PROCESS_CHUNK, recordIn, type BatchRows, type StateRow } from './pending.js';

export interface ProcessOptions {
  thresholds: Thresholds;
  reorderWindowS: number;
  flush: boolean;
  /** The server's time (ISO-8601), when the caller has one; else the clock is read. */
  now?: string;
}

/** `v:<vehicle id>` or `a:<asset id>`: the key of telemetry_state and of the in-process queue. */
export const subjectOf = (vehicleId: number | null, assetId: number | null) =>
  vehicleId !== null ? `v:${vehicleId}` : `a:${assetId}`;

export const vehicleKey = (vehicleId: number) => subjectOf(vehicleId, null);

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
    id: g.id,
    shape: shapeOf(g),
    since: g.created_at,
    bounds: { min_lat: g.min_lat, max_lat: g.max_lat, min_lon: g.min_lon, max_lon: g.max_lon },
  }));
}

/** What the processors read besides the records: thresholds and the company's geofences (with their grid). */
export function envOf(th: Thresholds, geofences: GeofenceDef[]): Env {
  return {
    th,
    geofences,
    geofenceIds: geofences.map((g) => g.id),
    geofencesSince: maxSince(geofences),
    geofenceGrid: geofenceGrid(geofences),
  };
}

/**
 * envOf with the company's geofences and their grid kept in the read cache while the geofences table
 * is unchanged (every batch reads them; they change rarely). Read through `trx`, which holds the
 * connection on SQLite; ingestion never writes geofences, so what it reads is committed state.
 */
async function companyEnv(db: Db, trx: Trx, companyId: number, th: Thresholds): Promise<Env> {
  const {
    geofences,
    geofenceIds,
    geofencesSince,
    geofenceGrid: grid,
  } = await db.cache.remember(`telemetry geofences ${companyId}`, async () =>
    envOf(th, await loadGeofences(trx, companyId)),
  );
  return { th, geofences, geofenceIds, geofencesSince, geofenceGrid: grid };
}

/**
 * Processes the pending records of a state row already locked by `trx` (FOR UPDATE on PostgreSQL; the
 * write transaction on SQLite) and saves the state and horizon; returns how many records it processed
 * and the horizon after. With `ingest` (what the batch being stored changes on the row), the same update
 * saves that too, but only when something was processed: on 0 the caller saves it.
 */
export async function processLocked(
  db: Db,
  trx: Trx,
  st: StateRow,
  opts: ProcessOptions,
  batch?: BatchRows,
  ingest?: IngestChanges,
): Promise<Processed> {
  const none = { processed: 0, horizon: st.horizon };
  if (st.max_fix_time === null) return none;
  // The window runs back from the newest fix, but from no later than now: a record a device stamps a
  // little ahead (accepted up to TELEMETRY_FUTURE_SLACK_S) must not make records of the present late.
  const now = opts.now ?? toIso(Date.now());
  const newest = st.max_fix_time < now ? st.max_fix_time : now;
  const watermark = opts.flush ? st.max_fix_time : toIso(Date.parse(newest) - opts.reorderWindowS * 1000);
  if (st.horizon !== null && st.horizon >= watermark) return none;
  let rows = await pendingRows(db, trx, st, watermark, batch);
  if (rows.length === 0) return none;
  if (rows.length === PROCESS_CHUNK) {
    // Never split records of one instant across two chunks: the horizon is a fix time.
    const lastTime = rows[rows.length - 1].fix_time;
    const cut = rows.findIndex((r) => r.fix_time === lastTime);
    if (cut > 0) rows = rows.slice(0, cut);
  }
  const env = await companyEnv(db, trx, st.company_id, opts.thresholds);
  const records = rows.map(recordIn);
  let state: string;
  if (st.vehicle_id !== null) {
    const vehicleId = st.vehicle_id;
    const saved = loadState(st.state);
    const savedAuto = autoDutyOf(saved);
    const run = runPipeline(saved, records, env);
    const auto = detectDriving(savedAuto, records);
    // In a batch's transaction on PostgreSQL the utilization increments go along with the state row's update.
    const defer = ingest && db.kind === 'postgres' ? ingest.along : undefined;
    await writeOutputs(trx, { companyId: st.company_id, vehicleId, announce: true, kind: db.kind, defer }, run.outputs);
    await recordAutoDuty(db, trx, st.company_id, vehicleId, auto.proposals);
    state = json({ ...run.state, hos_auto: auto.state });
  } else {
    const run = runAssetPipeline(loadAssetState(st.state), records, env);
    await writeAssetOutputs(trx, { companyId: st.company_id, assetId: st.asset_id!, announce: true }, run.outputs);
    state = json(run.state);
  }
  const horizon = rows[rows.length - 1].fix_time;
  const savedAt = toIso(Date.now());
  if (ingest) {
    const i = ingest;
    const save = saveIngestedState.compiled(
      trx,
      db.kind,
      st.subject,
      state,
      horizon,
      savedAt,
      i.max_fix_time,
      i.last_received_at,
      i.ingest_driver_id,
      i.ingest_driver_at,
      i.writer,
    );
    await updateAlong(trx, save, i.along);
  } else await saveState(trx, db.kind, st.subject, state, horizon, savedAt);
  return { processed: rows.length, horizon };
}

export interface Processed {
  processed: number;
  /** The horizon after processing (unchanged when nothing was processed). */
  horizon: string | null;
}

/** One transaction's worth of processing; returns how many records it processed. */
function processChunk(db: Db, subject: string, opts: ProcessOptions): Promise<number> {
  return writeTx(db, async (trx) => {
    const st = (await lockedState(trx, db.kind, subject)).rows[0];
    return st ? (await processLocked(db, trx, st, opts)).processed : 0;
  });
}

/** Processes a subject's pending records (bounded: at most `maxChunks` transactions). */
export async function processSubject(db: Db, subject: string, opts: ProcessOptions, maxChunks = 100): Promise<number> {
  let total = 0;
  for (let i = 0; i < maxChunks; i++) {
    const n = await processChunk(db, subject, opts);
    total += n;
    if (n < PROCESS_CHUNK) break;
  }
  return total;
}

/** Processes a vehicle's pending records. */
export function processVehicle(db: Db, vehicleId: number, opts: ProcessOptions, maxChunks = 100): Promise<number> {
  return processSubject(db, vehicleKey(vehicleId), opts, maxChunks);
}
