/**
 * The driver of each stored point when records arrive out of order around a login or logout. A batch
 * stamps its points with the driver logged in by what had arrived (ingest.ts); a login older than
 * points already stored, or a fix older than the last stored login or logout, leaves stamps that the
 * fix times contradict. Then, from the earliest such record on, the stamps are redone: each stretch
 * between two driver records gets the driver the first of them left logged in; the vehicle's current
 * location gets the driver logged in now. Rare (a device sends in order), and bounded by how late the
 * record is. Processing needs none of this: it orders driver records and fixes by fix time itself.
 */
import type { DevicePrincipal } from '../../domain/devices/service.js';
import type { Accepted } from './ingest.js';
import type { Trx } from './tx.js';

const driverOf = (data: string | null): number | null => {
  try {
    const d = JSON.parse(data ?? '{}') as { action?: string; driver_id?: number };
    return d.action === 'login' ? (d.driver_id ?? null) : null;
  } catch {
    return null;
  }
};

/**
 * Where stamps must be redone, if anywhere: from the earliest record of the batch that is a driver
 * record older than a stored point, or any record older than the last stored driver record (a late
 * fix, stamped by ingest.ts with the driver logged in now rather than at its time).
 */
export function restampFrom(
  fresh: Array<{ type: string; fix_time: string }>,
  storedMaxFix: string | null,
  storedDriverAt: string | null,
): string | null {
  let from: string | null = null;
  for (const r of fresh) {
    const late =
      (r.type === 'driver' && storedMaxFix !== null && r.fix_time < storedMaxFix) ||
      (storedDriverAt !== null && r.fix_time < storedDriverAt);
    if (late && (from === null || r.fix_time < from)) from = r.fix_time;
  }
  return from;
}

export async function restampDrivers(trx: Trx, vehicleId: number, from: string): Promise<void> {
  const drivers = () =>
    trx
      .selectFrom('telemetry_records')
      .select(['fix_time', 'data'])
      .where('vehicle_id', '=', vehicleId)
      .where('type', '=', 'driver');
  const [before, changes] = await Promise.all([
    drivers()
      .where('fix_time', '<', from)
      .orderBy('fix_time', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst(),
    drivers().where('fix_time', '>=', from).orderBy('fix_time').orderBy('id').execute(),
  ]);
  // Stretches [start, end): from `from` with the driver the last earlier record left, then one per record.
  const stretches = [
    { start: from, driverId: before ? driverOf(before.data) : null },
    ...changes.map((c) => ({ start: c.fix_time, driverId: driverOf(c.data) })),
  ];
  for (let i = 0; i < stretches.length; i++) {
    const { start, driverId } = stretches[i];
    const end = stretches[i + 1]?.start ?? null;
    if (end === start) continue; // a record at the same instant holds from there
    let q = trx
      .updateTable('telemetry_records')
      .set({ driver_id: driverId })
      .where('vehicle_id', '=', vehicleId)
      .where('fix_time', '>=', start);
    if (end !== null) q = q.where('fix_time', '<', end);
    await q.execute();
  }
  // The current location names whoever the newest driver record left logged in: the driver of the
  // fix's time, or a later login or logout (a parked truck sends no further fix), as ingestion does.
  const now = stretches[stretches.length - 1].driverId;
  await trx
    .updateTable('vehicle_locations_latest')
    .set({ driver_id: now })
    .where('vehicle_id', '=', vehicleId)
    .where('located_at', '>=', from)
    .execute();
}

/**
 * The records that are not duplicates of stored ones, as far as who was driving is concerned: a
 * re-sent login or logout changes nothing (the first version won). Only driver records are looked up,
 * so a batch without any costs no query. The subject's state row is locked, so the answer holds until
 * the insert.
 */
export async function notStored(
  trx: Trx,
  d: DevicePrincipal,
  channel: number,
  accepted: Accepted[],
): Promise<Accepted[]> {
  const seqs = accepted.filter((a) => a.rec.type === 'driver').map((a) => a.rec.seq);
  if (seqs.length === 0) return accepted;
  const rows = await trx
    .selectFrom('telemetry_records')
    .select('seq')
    .where('device_id', '=', d.deviceId)
    .where('channel', '=', channel)
    .where('seq', 'in', seqs)
    .execute();
  if (rows.length === 0) return accepted;
  const stored = new Set(rows.map((r) => Number(r.seq)));
  return accepted.filter((a) => a.rec.type !== 'driver' || !stored.has(a.rec.seq));
}

/** Who was driving at each record, walking the batch in time order from the driver known so far. */
export function driversOf(
  accepted: Accepted[],
  startId: number | null,
  startAt: number,
): { byIndex: Map<number, number | null>; id: number | null; at: number } {
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
