/**
 * The records of a vehicle or asset that are stored but not processed yet (pending: past the horizon),
 * as processing reads them: from the database in chunks, or, for a batch processed in the transaction
 * that stored it, its own rows from memory merged with the earlier ones.
 */
import type { Selectable } from 'kysely';
import type { Db } from '../../storage/db.js';
import { prepared } from '../../storage/prepared.js';
import type { RecordIn } from '../processors/types.js';
import type { TelemetryStateTable } from './tables.js';
import type { FreshRow } from './ingest.js';
import type { Trx } from './tx.js';
import { MAX_PER_SUBJECT } from './pending-memory.js';

/** Most records processed in one transaction; a longer backlog takes several. */
export const PROCESS_CHUNK = 5000;

export type StateRow = Selectable<TelemetryStateTable>;

export type PendingRow = {
  id: number;
  /** Fix time in ms and parsed data, when the row comes from memory rather than the database. */
  t?: number;
  parsed?: Record<string, unknown> | null;
  device_id: number;
  channel: number;
  type: string;
  fix_time: string;
  lat: number | null;
  lon: number | null;
  speed_kph: number | null;
  bearing_deg: number | null;
  odometer_km: number | null;
  fuel_used_l: number | null;
  description: string | null;
  data: string | null;
  received_at: string;
};

export function recordIn(r: PendingRow): RecordIn {
  return {
    t: r.t ?? Date.parse(r.fix_time),
    type: r.type,
    deviceId: r.device_id,
    channel: r.channel,
    lat: r.lat,
    lon: r.lon,
    speedKph: r.speed_kph,
    bearing: r.bearing_deg,
    odometerKm: r.odometer_km,
    fuelUsedL: r.fuel_used_l,
    description: r.description,
    data: r.parsed !== undefined ? r.parsed : r.data ? (JSON.parse(r.data) as Record<string, unknown>) : null,
    receivedAt: r.received_at,
  };
}

export const PENDING_COLUMNS = [
  'device_id',
  'channel',
  'type',
  'fix_time',
  'lat',
  'lon',
  'speed_kph',
  'bearing_deg',
  'odometer_km',
  'fuel_used_l',
  'description',
  'data',
  'received_at',
] as const;

/** A pending row with only what processing reads (a row kept in memory need not hold its history text). */
export function pendingOnly(r: PendingRow): PendingRow {
  return {
    id: r.id,
    t: r.t,
    parsed: r.parsed,
    device_id: r.device_id,
    channel: r.channel,
    type: r.type,
    fix_time: r.fix_time,
    lat: r.lat,
    lon: r.lon,
    speed_kph: r.speed_kph,
    bearing_deg: r.bearing_deg,
    odometer_km: r.odometer_km,
    fuel_used_l: r.fuel_used_l,
    description: r.description,
    data: r.data,
    received_at: r.received_at,
  };
}

const byTime = (a: { fix_time: string; id: number }, b: { fix_time: string; id: number }) =>
  a.fix_time < b.fix_time ? -1 : a.fix_time > b.fix_time ? 1 : a.id - b.id;

/** What a batch hands to processing: the rows it stored, and the newest fix time stored before it. */
export interface BatchRows {
  fresh: FreshRow[];
  /** Every row stored before the batch and still pending, when known (else read as needed). */
  older?: PendingRow[];
  /** telemetry_state.max_fix_time before the batch: every earlier row's fix time is at or before it. */
  storedBefore: string | null;
}

/**
 * The two reads of pending rows, for a vehicle's or an asset's records, prepared once
 * (storage/prepared.ts): the rows past the horizon up to a fix time, and the same without the ids
 * between `lo` and `hi` (the batch's own rows, already in memory). No horizon yet is passed as '',
 * which every fix time follows.
 */
function pendingReads(subject: 'vehicle_id' | 'asset_id') {
  const upTo = (db: Trx, id: number, horizon: string, until: string) =>
    db
      .selectFrom('telemetry_records')
      .select([...PENDING_COLUMNS, 'id'])
      .where(subject, '=', id)
      .where('fix_time', '>', horizon)
      .where('fix_time', '<=', until);
  return {
    upTo: prepared((db, _kind, id: number, horizon: string, until: string) =>
      upTo(db, id, horizon, until).orderBy('fix_time').orderBy('id').limit(PROCESS_CHUNK),
    ),
    outside: prepared((db, _kind, id: number, horizon: string, until: string, lo: number, hi: number) =>
      upTo(db, id, horizon, until)
        .where((eb) => eb.or([eb('id', '<', lo), eb('id', '>', hi)]))
        .orderBy('fix_time')
        .orderBy('id')
        .limit(PROCESS_CHUNK),
    ),
  };
}

const PENDING = { vehicle_id: pendingReads('vehicle_id'), asset_id: pendingReads('asset_id') };

/**
 * The pending rows: read from the database, except the ones the batch just stored (already in
 * memory), which only need merging in, and those of earlier batches when the batch brings them
 * (`older`, from ./pending-memory.ts or from `storedPending`). Rows stored before the batch lie at or
 * before its `storedBefore`, so otherwise only that stretch past the horizon is read (usually the
 * reorder window, often nothing at all), not the batch's own rows again.
 */
export async function pendingRows(
  db: Db,
  trx: Trx,
  st: StateRow,
  watermark: string,
  batch: BatchRows | undefined,
): Promise<PendingRow[]> {
  const [reads, id] = st.vehicle_id !== null ? [PENDING.vehicle_id, st.vehicle_id] : [PENDING.asset_id, st.asset_id!];
  const horizon = st.horizon;
  const fresh = batch?.fresh;
  if (batch && fresh && fresh.length > 0) {
    const before = batch.storedBefore;
    const upTo = before === null ? null : before < watermark ? before : watermark;
    const older =
      upTo === null || (horizon !== null && upTo <= horizon)
        ? []
        : batch.older
          ? batch.older.filter((r) => r.fix_time <= upTo && (horizon === null || r.fix_time > horizon))
          : (await reads.outside(trx, db.kind, id, horizon ?? '', upTo, ...idRange(fresh))).rows;
    const mine = fresh.filter((r) => r.fix_time <= watermark && (horizon === null || r.fix_time > horizon));
    if (older.length + mine.length <= PROCESS_CHUNK) {
      // Fresh rows carry every pending column (and t, parsed): they are used as they are.
      const own = mine as unknown as PendingRow[];
      const rows = older.length === 0 ? own : [...older.map((o) => ({ ...o, id: Number(o.id) })), ...own];
      return rows.sort(byTime);
    }
  }
  return (await reads.upTo(trx, db.kind, id, horizon ?? '', watermark)).rows;
}

/**
 * Every row stored before the batch and not processed yet (past the horizon, up to `storedBefore`), or
 * null when there are more than a kept batch may hold (they are then read in chunks by processing).
 */
export async function storedPending(db: Db, trx: Trx, st: StateRow, batch: BatchRows): Promise<PendingRow[] | null> {
  const before = batch.storedBefore;
  if (before === null || (st.horizon !== null && before <= st.horizon)) return [];
  const [reads, id] = st.vehicle_id !== null ? [PENDING.vehicle_id, st.vehicle_id] : [PENDING.asset_id, st.asset_id!];
  const rows = (await reads.outside(trx, db.kind, id, st.horizon ?? '', before, ...idRange(batch.fresh))).rows;
  return rows.length >= MAX_PER_SUBJECT ? null : rows.map((o) => ({ ...o, id: Number(o.id) }));
}

/** The lowest and highest id of the batch's rows (consecutive or nearly: the read leaves them out). */
function idRange(fresh: FreshRow[]): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const r of fresh) {
    if (r.id < lo) lo = r.id;
    if (r.id > hi) hi = r.id;
  }
  return [lo, hi];
}
