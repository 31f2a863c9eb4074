/**
 * Storing a device batch: validated records are written in one transaction, once per (device,
 * channel, seq) — a re-sent record is a `duplicate`, never a second row — together with what does
 * not depend on order: the vehicle's current location (vehicle_locations_latest, with the
 * `vehicle_location_updated` event for the newest fix) or the asset's positions (asset_locations). The
 * caller acknowledges only after this commits. Ordered processing happens afterwards (./process.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { Db } from '../../storage/db.js';
import { json, toIso } from '../../storage/values.js';
import { recordEvent } from '../../events/outbox.js';
import type { DevicePrincipal } from '../../domain/devices/service.js';
import type { TelemetryRecordsTable } from './tables.js';
import type { ParsedRecord } from '../records.js';
import { describe } from '../geocode/places.js';
import type { Thresholds } from '../thresholds.js';
import { writeTx, type Trx } from './tx.js';
import { insertRecords } from './insert.js';
import { locationPayload } from './payloads.js';
import { pointId } from '../point-id.js';
import { pointJson, type PointFields } from '../point-json.js';
import { kmToMi, kphToMph, litersToGallons } from '../units.js';

/** Wire units in the read models other areas share: mph, miles, gallons (rounded to 0.1 or 0.01). */
const convert = (v: number | null | undefined, f: (x: number) => number) => (v === null || v === undefined ? null : Math.round(f(v) * 100) / 100);

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

const CHUNK = 500;

/** A record stored by this batch (not a duplicate), with its row id: processing can use it without reading it back. */
export type FreshRow = Insertable<TelemetryRecordsTable> & { id: number; t: number; parsed: Record<string, unknown> | null };

export interface Stored {
  results: Map<number, RecordResult>;
  fresh: FreshRow[];
}

export const subjectKey = (d: Pick<DevicePrincipal, 'vehicleId' | 'assetId'>) => (d.vehicleId !== null ? `v:${d.vehicleId}` : `a:${d.assetId}`);

/** The location point type of the v1/v3 history (wire-format §4.4). */
export function pointType(r: ParsedRecord, th: Thresholds): string | null {
  if (r.type === 'engine') return r.data?.state === 'on' ? 'ignition_on' : 'ignition_off';
  if (r.type !== 'location') return null;
  return (r.speed_kph ?? 0) > th.movingSpeedKph ? 'vehicle_moving' : 'vehicle_stopped';
}

/** The row of one accepted record, in its final shape (id filled in once stored): no copies later. */
function toRow(d: DevicePrincipal, channel: number, a: Accepted, driverId: number | null, receivedAt: string, th: Thresholds): FreshRow {
  const r = a.rec;
  const parsed = a.extra ? { ...(r.data ?? {}), ...a.extra } : r.data;
  const located = r.lat !== null && r.lon !== null;
  const type = pointType(r, th);
  const row: FreshRow = {
    id: 0, t: r.t, parsed,
    company_id: d.companyId, device_id: d.deviceId, channel, seq: r.seq, vehicle_id: d.vehicleId, asset_id: d.assetId,
    type: r.type, fix_time: toIso(r.t), received_at: receivedAt,
    lat: r.lat, lon: r.lon, speed_kph: r.speed_kph, bearing_deg: r.bearing_deg, odometer_km: r.odometer_km,
    engine_hours: r.engine_hours, fuel_used_l: r.fuel_used_l, fuel_level_pct: r.fuel_level_pct, battery_v: r.battery_v,
    driver_id: driverId,
    description: located ? describe(r.lat!, r.lon!) : null,
    point_type: type,
    data: parsed ? json(parsed) : null,
    point_json: null,
  };
  if (located && type !== null) row.point_json = pointJson(row as PointFields);
  return row;
}

async function lockState(trx: Trx, db: Db, d: DevicePrincipal, now: string) {
  const subject = subjectKey(d);
  await trx
    .insertInto('telemetry_state')
    .values({
      subject, company_id: d.companyId, vehicle_id: d.vehicleId, asset_id: d.assetId, state: '{}', horizon: null,
      max_fix_time: null, last_received_at: now, ingest_driver_id: null, ingest_driver_at: null, updated_at: now,
    })
    .onConflict((oc) => oc.column('subject').doNothing())
    .execute();
  let q = trx.selectFrom('telemetry_state').selectAll().where('subject', '=', subject);
  if (db.kind === 'postgres') q = q.forUpdate();
  return q.executeTakeFirstOrThrow();
}

/** Who was driving at each record, walking the batch in time order from the driver known so far. */
function driversOf(accepted: Accepted[], startId: number | null, startAt: number): { byIndex: Map<number, number | null>; id: number | null; at: number } {
  const byIndex = new Map<number, number | null>();
  let id = startId;
  let at = startAt;
  const ordered = [...accepted].sort((a, b) => a.rec.t - b.rec.t || a.rec.seq - b.rec.seq);
  for (const a of ordered) {
    if (a.rec.type === 'driver' && a.rec.t >= at) {
      id = a.rec.data?.action === 'login' ? (a.rec.data.driver_id as number) : null;
      at = a.rec.t;
    }
    byIndex.set(a.index, id);
  }
  return { byIndex, id, at };
}

/**
 * Writes the accepted records of one device's batch. Returns, per input index, whether the record
 * was new (accepted, maybe late) or a duplicate.
 */
export async function storeBatch(db: Db, d: DevicePrincipal, channel: number, accepted: Accepted[], th: Thresholds, nowMs: number): Promise<Stored> {
  const out = new Map<number, RecordResult>();
  if (accepted.length === 0) return { results: out, fresh: [] };
  const now = toIso(nowMs);
  return writeTx(db, async (trx) => {
    const state = await lockState(trx, db, d, now);
    const drivers = driversOf(accepted, state.ingest_driver_id, state.ingest_driver_at ? Date.parse(state.ingest_driver_at) : -Infinity);
    const rows = accepted.map((a) => toRow(d, channel, a, drivers.byIndex.get(a.index) ?? null, now, th));
    const ids = await insertRecords(trx, db.kind, rows);
    const horizon = state.horizon;
    let maxFix = state.max_fix_time;
    const fresh: FreshRow[] = [];
    accepted.forEach((a, i) => {
      const id = ids[i];
      if (id === null) {
        out.set(a.index, { index: a.index, seq: a.rec.seq, status: 'duplicate' });
        return;
      }
      const row = rows[i];
      row.id = id;
      fresh.push(row);
      const late = horizon !== null && row.fix_time <= horizon;
      out.set(a.index, late ? { index: a.index, seq: a.rec.seq, status: 'accepted', late: true } : { index: a.index, seq: a.rec.seq, status: 'accepted' });
      if (maxFix === null || row.fix_time > maxFix) maxFix = row.fix_time;
    });
    if (fresh.length > 0) {
      if (d.vehicleId !== null) await updateLatest(trx, d, fresh);
      else await addAssetLocations(trx, d, fresh, now);
    }
    const driverChanged = drivers.at > (state.ingest_driver_at ? Date.parse(state.ingest_driver_at) : -Infinity);
    await trx
      .updateTable('telemetry_state')
      .set({
        max_fix_time: maxFix, last_received_at: now, updated_at: now,
        ...(driverChanged ? { ingest_driver_id: drivers.id, ingest_driver_at: toIso(drivers.at) } : {}),
      })
      .where('subject', '=', state.subject)
      .execute();
    return { results: out, fresh };
  });
}

async function updateLatest(trx: Trx, d: DevicePrincipal, fresh: FreshRow[]) {
  let newest: FreshRow | null = null;
  for (const r of fresh) if (r.type === 'location' && (!newest || r.fix_time > newest.fix_time)) newest = r;
  if (!newest) return;
  const vehicleId = d.vehicleId!;
  const current = await trx.selectFrom('vehicle_locations_latest').select('located_at').where('vehicle_id', '=', vehicleId).executeTakeFirst();
  if (current && current.located_at >= newest.fix_time) return;
  const row = {
    vehicle_id: vehicleId, company_id: d.companyId, id: pointId(newest.id), located_at: newest.fix_time,
    lat: newest.lat!, lon: newest.lon!, bearing: newest.bearing_deg ?? null, speed: convert(newest.speed_kph, kphToMph),
    description: newest.description ?? null, odometer: convert(newest.odometer_km, kmToMi), engine_hours: newest.engine_hours ?? null,
    fuel: convert(newest.fuel_used_l, litersToGallons), type: newest.point_type ?? null, driver_id: newest.driver_id ?? null, updated_at: newest.received_at,
  };
  const { vehicle_id: _v, ...rest } = row;
  await trx
    .insertInto('vehicle_locations_latest')
    .values(row)
    .onConflict((oc) => oc.column('vehicle_id').doUpdateSet(rest))
    .execute();
  await recordEvent(trx, {
    companyId: d.companyId, action: 'vehicle_location_updated',
    subject: { type: 'vehicle', id: vehicleId }, data: locationPayload(row, newest),
  });
}

async function addAssetLocations(trx: Trx, d: DevicePrincipal, fresh: Array<Insertable<TelemetryRecordsTable>>, now: string) {
  const rows = fresh
    .filter((r) => r.type === 'location')
    .map((r) => ({
      id: randomUUID(), company_id: d.companyId, asset_id: d.assetId!, located_at: r.fix_time, lat: r.lat!, lon: r.lon!,
      bearing: r.bearing_deg ?? null, speed: convert(r.speed_kph, kphToMph), description: r.description ?? null,
      battery_v: r.battery_v ?? null, created_at: now,
    }));
  for (let i = 0; i < rows.length; i += CHUNK) {
    const part = rows.slice(i, i + CHUNK).map(({ battery_v, ...r }) => ({ ...r, battery_voltage: battery_v }));
    await trx.insertInto('asset_locations').values(part).execute();
  }
}
