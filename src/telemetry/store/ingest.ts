/**
 * Storing a device batch: validated records are written in one transaction, once per (device,
 * channel, seq) — a re-sent record is a `duplicate`, never a second row — together with what does
 * not depend on order (./locations.ts: current location and location events, or asset positions).
 *
 * Records of drivers' logs — duty statuses (with the exception claim one may carry), exception
 * claims, logins and logouts, remarks, certifications of a day's log, and ELD malfunctions and data
 * diagnostics (./hos-records.ts) — go into the logs in the same transaction, whatever their age
 * (./hos-link.ts). One the hours-of-service rules refuse (a claim the driver's rules cannot honour,
 * the certification of a day not yet begun, a status that would shorten automatically recorded
 * driving) is rejected and not kept; a login or logout stays, as it still says who drives.
 *
 * When asked, the same transaction then processes the subject (./process.ts) under a savepoint: raw
 * records first, derived data after them. If processing fails, the savepoint is rolled back and the
 * records still commit, pending, for the next batch or the sweep; the failure is returned. One commit
 * per batch instead of two, and nothing is read back. The caller acknowledges only after the commit.
 */
import type { CompiledQuery, Insertable } from 'kysely';
import type { Db } from '../../storage/db.js';
import { json, toIso } from '../../storage/values.js';
import type { DevicePrincipal } from '../../domain/devices/service.js';
import type { TelemetryRecordsTable } from './tables.js';
import type { ParsedRecord } from '../records.js';
import { describe } from '../geocode/places.js';
import type { Thresholds } from '../thresholds.js';
import { writeTx, type Trx } from './tx.js';
import { createState, lockedState, saveIngestState, updateAlong, type IngestChanges } from './state-row.js';
import { insertRecords } from './insert.js';
import { assetLocations, vehicleLocations } from './locations.js';
import { driversOf, notStored, restampDrivers, restampFrom } from './driver-stamps.js';
import { processLocked, subjectOf, type ProcessOptions } from './process.js';
import { pendingOnly, storedPending, type PendingRow, type StateRow } from './pending.js';
import { newWriter, pendingMemoryFor } from './pending-memory.js';
import { markDeviceSeen } from '../../domain/devices/activity.js';
import { pointJson, type PointFields } from '../point-json.js';
import { isoTime } from '../iso-time.js';
import { toLogs } from './hos-link.js';

export type RecordStatus = 'accepted' | 'duplicate' | 'rejected';

export interface RecordResult {
  index: number;
  seq: number | null;
  status: RecordStatus;
  error_message?: string;
  /** Stored, but older than what was already processed: derived data ignores it (history shows it). */
  late?: boolean;
}

export interface Accepted {
  index: number;
  rec: ParsedRecord;
  /** Extra JSON merged into `data` (e.g. the id of the inspection report the record created). */
  extra?: Record<string, unknown>;
}

/** A record stored by this batch (not a duplicate), with its row id: processing can use it without reading it back. */
export type FreshRow = Insertable<TelemetryRecordsTable> & {
  id: number;
  t: number;
  parsed: Record<string, unknown> | null;
};

/** Processing done in the batch's transaction: how many records, or why it failed (the records stay pending). */
export type InBatch = { processed: number } | { error: unknown };

export interface Stored {
  results: Map<number, RecordResult>;
  fresh: FreshRow[];
  /** Null when nothing was processed in the batch's transaction (not asked, or nothing new). */
  inBatch: InBatch | null;
}

export const subjectKey = (d: Pick<DevicePrincipal, 'vehicleId' | 'assetId'>) => subjectOf(d.vehicleId, d.assetId);

/** The location point type of the v1/v3 history (docs/reference/wire.md §4.4). */
export function pointType(r: ParsedRecord, th: Thresholds): string | null {
  if (r.type === 'engine') return r.data?.state === 'on' ? 'ignition_on' : 'ignition_off';
  if (r.type !== 'location') return null;
  // A fix without a speed (phones often send none) says where, not whether it moved.
  if (r.speed_kph === null) return 'breadcrumb';
  return r.speed_kph > th.movingSpeedKph ? 'vehicle_moving' : 'vehicle_stopped';
}

/** The row of one accepted record, in its final shape (id filled in once stored): no copies later. */
function toRow(
  d: DevicePrincipal,
  channel: number,
  a: Accepted,
  driverId: number | null,
  receivedAt: string,
  th: Thresholds,
): FreshRow {
  const r = a.rec;
  const parsed = a.extra ? { ...(r.data ?? {}), ...a.extra } : r.data;
  const located = r.lat !== null && r.lon !== null;
  const type = pointType(r, th);
  const row: FreshRow = {
    id: 0,
    t: r.t,
    parsed,
    company_id: d.companyId,
    device_id: d.deviceId,
    channel,
    seq: r.seq,
    vehicle_id: d.vehicleId,
    asset_id: d.assetId,
    type: r.type,
    fix_time: isoTime(r.t),
    received_at: receivedAt,
    lat: r.lat,
    lon: r.lon,
    speed_kph: r.speed_kph,
    bearing_deg: r.bearing_deg,
    odometer_km: r.odometer_km,
    engine_hours: r.engine_hours,
    fuel_used_l: r.fuel_used_l,
    fuel_level_pct: r.fuel_level_pct,
    battery_v: r.battery_v,
    driver_id: driverId,
    description: located ? describe(r.lat!, r.lon!) : null,
    point_type: type,
    data: parsed ? json(parsed) : null,
    point_json: null,
  };
  if (located && type !== null) row.point_json = pointJson(row as PointFields);
  return row;
}

/** The subject's state row, locked; created first when the subject has none yet (its first batch). */
async function lockState(trx: Trx, db: Db, d: DevicePrincipal, now: string) {
  const subject = subjectKey(d);
  const found = (await lockedState(trx, db.kind, subject)).rows[0];
  if (found) return found;
  await createState(trx, db.kind, subject, d.companyId, d.vehicleId, d.assetId, now);
  return (await lockedState(trx, db.kind, subject)).rows[0];
}

/**
 * Processing failed inside the batch's transaction. The transaction is rolled back and the batch stored
 * again without processing (storeBatch): a failure is rare, and a savepoint around every processing run
 * cost two statements a batch.
 */
class ProcessingFailed extends Error {
  constructor(readonly cause: unknown) {
    super('telemetry processing failed');
  }
}

/**
 * Writes the accepted records of one device's batch and, with `process`, processes the subject in the
 * same transaction. Returns, per input index, whether the record was new (accepted, maybe late) or a
 * duplicate.
 */
export async function storeBatch(
  db: Db,
  d: DevicePrincipal,
  channel: number,
  accepted: Accepted[],
  th: Thresholds,
  nowMs: number,
  process?: ProcessOptions,
): Promise<Stored> {
  if (accepted.length === 0) return { results: new Map(), fresh: [], inBatch: null };
  try {
    return await writeTx(db, (trx) => storeIn(trx, db, d, channel, accepted, th, nowMs, process));
  } catch (err) {
    if (!(err instanceof ProcessingFailed)) throw err;
    // Everything was rolled back: the records are stored again on their own, pending.
    const stored = await writeTx(db, (trx) => storeIn(trx, db, d, channel, accepted, th, nowMs));
    return { ...stored, inBatch: { error: err.cause } };
  }
}

/** The same in the caller's transaction (a record written together with the rows it creates elsewhere). */
export async function storeIn(
  trx: Trx,
  db: Db,
  d: DevicePrincipal,
  channel: number,
  accepted: Accepted[],
  th: Thresholds,
  nowMs: number,
  process?: ProcessOptions,
): Promise<Stored> {
  const out = new Map<number, RecordResult>();
  if (accepted.length === 0) return { results: out, fresh: [], inBatch: null };
  const now = toIso(nowMs);
  const state = await lockState(trx, db, d, now);
  // Taken (and so dropped) whatever happens next: a batch that rolls back leaves no stale entry behind.
  const kept = process ? pendingMemoryFor(db).take(state.subject, state.writer) : null;
  const drivers = driversOf(
    await notStored(trx, d, channel, accepted),
    state.ingest_driver_id,
    state.ingest_driver_at ? Date.parse(state.ingest_driver_at) : -Infinity,
  );
  const rows = accepted.map((a) => toRow(d, channel, a, drivers.byIndex.get(a.index) ?? null, now, th));
  const ids = await insertRecords(trx, db, rows);
  const horizon = state.horizon;
  let fresh: FreshRow[] = [];
  for (let i = 0; i < accepted.length; i++) {
    const a = accepted[i];
    const id = ids[i];
    if (id === null) {
      out.set(a.index, { index: a.index, seq: a.rec.seq, status: 'duplicate' });
      continue;
    }
    const row = rows[i];
    row.id = id;
    fresh.push(row);
    const late = horizon !== null && row.fix_time <= horizon;
    out.set(
      a.index,
      late
        ? { index: a.index, seq: a.rec.seq, status: 'accepted', late: true }
        : { index: a.index, seq: a.rec.seq, status: 'accepted' },
    );
  }
  if (d.vehicleId !== null) fresh = await toLogs(db, trx, d, accepted, fresh, out);
  let maxFix = state.max_fix_time;
  for (const row of fresh) if (maxFix === null || row.fix_time > maxFix) maxFix = row.fix_time;
  const driverChanged = drivers.at > (state.ingest_driver_at ? Date.parse(state.ingest_driver_at) : -Infinity);
  let latest: CompiledQuery | null = null;
  if (fresh.length > 0) {
    const from = d.vehicleId !== null ? restampFrom(fresh, state.max_fix_time, state.ingest_driver_at) : null;
    if (d.vehicleId !== null) {
      const driver = driverChanged ? { id: drivers.id, at: toIso(drivers.at) } : null;
      // Sent with the state row's update on PostgreSQL, when no restamp below touches the current location.
      latest = await vehicleLocations(db, trx, d, fresh, driver, db.kind === 'postgres' && from === null);
    } else await assetLocations(trx, d, fresh, now);
    if (from !== null) await restampDrivers(trx, d.vehicleId!, from);
  }
  const changes: IngestChanges = {
    max_fix_time: maxFix,
    last_received_at: now,
    ingest_driver_id: driverChanged ? drivers.id : state.ingest_driver_id,
    ingest_driver_at: driverChanged ? toIso(drivers.at) : state.ingest_driver_at,
    writer: null,
    along: latest ? [latest] : [],
  };
  await markDeviceSeen(db, trx, d.deviceId, now, nowMs);
  const inBatch = process ? await processBatch(db, trx, state, changes, fresh, kept, { ...process, now }) : null;
  if (!inBatch?.processed) {
    const c = changes;
    const save = saveIngestState.compiled(
      trx,
      db.kind,
      state.subject,
      maxFix,
      now,
      c.ingest_driver_id,
      c.ingest_driver_at,
      c.writer,
    );
    await updateAlong(trx, save, c.along);
  }
  return { results: out, fresh, inBatch };
}

/**
 * Processes the subject in the batch's transaction, from the rows in memory: the batch's own, and the
 * earlier pending ones kept by the previous batch (`kept`, ./pending-memory.ts) or else read once. What
 * stays pending is kept for the next batch, under a new token that `changes.writer` carries into the
 * state row (saved by processing when it processed anything, else by the caller).
 */
async function processBatch(
  db: Db,
  trx: Trx,
  state: StateRow,
  changes: IngestChanges,
  fresh: FreshRow[],
  kept: PendingRow[] | null,
  opts: ProcessOptions,
): Promise<{ processed: number } | null> {
  const storedBefore = state.max_fix_time;
  const older = kept ?? (fresh.length > 0 ? await storedPending(db, trx, state, { fresh, storedBefore }) : null);
  if (older !== null) changes.writer = newWriter();
  let horizon = state.horizon;
  let processed: number | null = null;
  if (fresh.length > 0) {
    const batch = { fresh, storedBefore, older: older ?? undefined };
    try {
      // Saves the state row with `changes` when it processed anything (one update instead of two).
      ({ processed, horizon } = await processLocked(db, trx, { ...state, ...changes }, opts, batch, changes));
    } catch (err) {
      throw new ProcessingFailed(err);
    }
  }
  if (older !== null) {
    const pending = (fresh as unknown as PendingRow[]).filter((r) => horizon === null || r.fix_time > horizon);
    for (const r of older) if (horizon === null || r.fix_time > horizon) pending.push(r);
    pendingMemoryFor(db).keep(state.subject, changes.writer!, pending.map(pendingOnly));
  }
  return processed === null ? null : { processed };
}
