/**
 * Hours of service from a vehicle's device records.
 *
 * Records of a driver's log — `duty_status` (which may carry an exception claim), `exception`, the
 * `driver` login/logout, `remark`, `certification` and `malfunction` (./hos-records.ts: which records,
 * what each makes, whose log) — reach the hours-of-service store when they are stored, in the transaction
 * that stores them, whatever their age: the reorder window and the processing horizon concern derived
 * telemetry only, so a record that arrives late (after newer fixes were processed, a day later, after
 * a restart) still goes into the log, and the HOS service re-evaluates the driver from its instant on
 * (clocks, violations, duty status, each change announced). A record the HOS rules refuse (one that
 * would shorten automatically recorded driving, a claim the driver's rules cannot honour, the
 * certification of a day not yet begun) is refused whole: the caller rejects it with the reason. Replay links a vehicle's stored records again, which
 * brings back those an earlier version of the server left out of the log.
 *
 * Idempotency: the log's sequence id of a device record is its `seq` modulo 65,536, and the HOS store
 * ignores a record with the same ELD device, sequence id, instant, kind and origin; linking a record
 * again (replay) changes nothing. Two records of one instant with different `seq`s are both kept, the
 * later stored in effect from that instant (docs/hos.md, Late records). Records the server once linked
 * under a sequence id derived from their instant (`hosSequenceId`) are recognised under it too.
 *
 * Automatic driving detection runs in processing (./process.ts): location fixes of a vehicle with a
 * logged-in driver go through the pure detector of the HOS area (driving above the ELD speed
 * threshold, on duty proposed after the stationary timeout); its small state is kept with the
 * vehicle's processor state.
 */
import type { Db } from '../../storage/db.js';
import { recordDutyStatusEvents } from '../../domain/hos/service.js';
import type { HosEventInput } from '../../domain/hos/records.js';
import { AppError } from '../../core/errors.js';
import type { Input, RecordIn } from '../processors/types.js';
import { initialAutoDuty, stepAutoDuty, type AutoDutyState } from '../../domain/hos/auto-duty.js';
import { underSavepoint, type Trx } from './tx.js';
import type { DevicePrincipal } from '../../domain/devices/service.js';
import type { Accepted, FreshRow, RecordResult } from './ingest.js';
import { driverOf, eventsOf, HOS_RECORD_TYPES, hosSequenceId, type HosSource } from './hos-records.js';

export { HOS_RECORD_TYPES, hosSequenceId, type HosSource } from './hos-records.js';

export interface AutoProposal {
  driverId: number;
  deviceId: number;
  status: 'driving' | 'on_duty';
  at: number;
}

/** The detector's state as saved with the vehicle's processor state (key `hos_auto`). */
export function savedAutoDuty(stateJson: string | null): AutoDutyState {
  try {
    return autoDutyOf(stateJson ? (JSON.parse(stateJson) as object) : null);
  } catch {
    return initialAutoDuty();
  }
}

/** The same from the saved state already parsed (the processors' state as loaded keeps the key). */
export const autoDutyOf = (saved: object | null): AutoDutyState =>
  (saved as { hos_auto?: AutoDutyState } | null)?.hos_auto ?? initialAutoDuty();

/**
 * Steps the detector over records that went through the pipeline (each carries its context: the
 * logged-in driver, personal conveyance or yard move). Without a logged-in driver nothing is proposed.
 */
export function detectDriving(
  prev: AutoDutyState,
  records: RecordIn[],
): { state: AutoDutyState; proposals: AutoProposal[] } {
  let state = prev;
  const proposals: AutoProposal[] = [];
  for (const r of records as Input[]) {
    if (r.type !== 'location' || r.speedKph === null || !r.ctx) continue;
    const special = r.ctx.special === 'personal_conveyance' || r.ctx.special === 'yard_move' ? r.ctx.special : null;
    const out = stepAutoDuty(state, { t: r.t, speedKph: r.speedKph, special });
    state = out.state;
    if (r.ctx.driverId === null) continue;
    for (const p of out.proposals)
      proposals.push({ driverId: r.ctx.driverId, deviceId: r.deviceId, status: p.status, at: p.at });
  }
  return { state, proposals };
}

export async function recordAutoDuty(
  db: Db,
  trx: Trx,
  companyId: number,
  vehicleId: number,
  proposals: AutoProposal[],
): Promise<void> {
  for (const p of proposals) {
    await recordDutyStatusEvents(
      db,
      { companyId },
      p.driverId,
      [
        {
          status: p.status,
          at: p.at,
          origin: 'auto',
          eldDeviceId: p.deviceId,
          vehicleId,
          sequenceId: hosSequenceId(p.at),
        },
      ],
      { trx, skipRefused: true },
    );
  }
}

export interface Linked {
  /** Log records written (not already there). */
  logged: number;
  /** Records the HOS service refused, by HosSource.id, with the reason. */
  refused: Map<number, string>;
}

class Refused extends Error {
  constructor(readonly refused: Array<{ index: number; error_message: string }>) {
    super('refused');
  }
}

/**
 * Writes one driver's records into the log under a savepoint. When the service refuses one of its log
 * records, nothing of that device record is kept (a duty status and the claim it carries land
 * together): the savepoint is rolled back and the others are written again without it.
 */
async function linkDriver(
  db: Db,
  trx: Trx,
  companyId: number,
  vehicleId: number,
  driverId: number,
  sources: HosSource[],
  out: Linked,
): Promise<void> {
  let left = sources;
  while (left.length > 0) {
    const events: HosEventInput[] = [];
    const owner: HosSource[] = [];
    for (const s of left) for (const e of eventsOf(s, vehicleId)) (events.push(e), owner.push(s));
    const run = await underSavepoint(
      trx,
      async () => {
        const res = await recordDutyStatusEvents(db, { companyId }, driverId, events, { trx, skipRefused: true });
        if (res.refused.length > 0) throw new Refused(res.refused);
        return res.ids.length;
      },
      'hos_link',
    );
    if (run.ok) {
      out.logged += run.value;
      return;
    }
    const err = run.error;
    if (err instanceof Refused) {
      for (const r of err.refused) out.refused.set(owner[r.index]!.id, r.error_message);
    } else if (err instanceof AppError && err.status < 500) {
      for (const s of left) out.refused.set(s.id, err.message);
    } else {
      throw err;
    }
    left = left.filter((s) => !out.refused.has(s.id));
  }
}

/**
 * Links a vehicle's device records into their drivers' logs (see the top of this file), in time order,
 * one call of the HOS service per driver (drivers in id order, so two writers lock them alike). A
 * record naming no driver (a logout with nobody logged in) has no log to go to.
 */
export async function linkHosRecords(
  db: Db,
  trx: Trx,
  companyId: number,
  vehicleId: number,
  sources: HosSource[],
): Promise<Linked> {
  const out: Linked = { logged: 0, refused: new Map() };
  const byDriver = new Map<number, HosSource[]>();
  for (const s of [...sources].sort((a, b) => a.t - b.t || a.id - b.id)) {
    const driverId = await driverOf(trx, vehicleId, s);
    if (driverId === null) continue;
    const list = byDriver.get(driverId);
    if (list) list.push(s);
    else byDriver.set(driverId, [s]);
  }
  for (const driverId of [...byDriver.keys()].sort((a, b) => a - b)) {
    const list = byDriver.get(driverId)!;
    // The service takes at most 5,000 records a call.
    for (let i = 0; i < list.length; i += 5000)
      await linkDriver(db, trx, companyId, vehicleId, driverId, list.slice(i, i + 5000), out);
  }
  return out;
}

/** Replay: links the vehicle's stored log records from `fromIso` on again (those already in a log are skipped). */
export async function relinkHos(
  db: Db,
  trx: Trx,
  companyId: number,
  vehicleId: number,
  fromIso: string,
): Promise<Linked> {
  const rows = await trx
    .selectFrom('telemetry_records')
    .select(['id', 'seq', 'type', 'fix_time', 'device_id', 'lat', 'lon', 'description', 'odometer_km', 'data'])
    .where('vehicle_id', '=', vehicleId)
    .where('type', 'in', [...HOS_RECORD_TYPES])
    .where('fix_time', '>=', fromIso)
    .orderBy('fix_time')
    .orderBy('id')
    .execute();
  const sources = rows.map((r): HosSource => ({
    id: Number(r.id),
    seq: Number(r.seq),
    type: r.type,
    t: Date.parse(r.fix_time),
    deviceId: r.device_id,
    lat: r.lat,
    lon: r.lon,
    description: r.description,
    odometerKm: r.odometer_km,
    data: r.data ? (JSON.parse(r.data) as Record<string, unknown>) : null,
  }));
  return linkHosRecords(db, trx, companyId, vehicleId, sources);
}

/**
 * The batch's new records of drivers' logs go into the logs now, whatever their age (./hos-link.ts). A
 * duty status or exception claim the hours-of-service rules refuse is rejected with the reason and
 * removed again: it lands whole or not at all. (A login or logout stays: it still says who drives.)
 * Returns the fresh rows that remain.
 */
export async function toLogs(
  db: Db,
  trx: Trx,
  d: DevicePrincipal,
  accepted: Accepted[],
  fresh: FreshRow[],
  out: Map<number, RecordResult>,
): Promise<FreshRow[]> {
  const hos = fresh.filter((r) => HOS_RECORD_TYPES.has(r.type));
  if (hos.length === 0) return fresh;
  const sources = hos.map((r): HosSource => ({
    id: r.id,
    seq: r.seq,
    type: r.type,
    t: r.t,
    deviceId: r.device_id,
    lat: r.lat ?? null,
    lon: r.lon ?? null,
    description: r.description ?? null,
    odometerKm: r.odometer_km ?? null,
    data: r.parsed,
  }));
  const { refused } = await linkHosRecords(db, trx, d.companyId, d.vehicleId!, sources);
  const gone = hos.filter((r) => r.type !== 'driver' && refused.has(r.id));
  if (gone.length === 0) return fresh;
  await trx
    .deleteFrom('telemetry_records')
    .where(
      'id',
      'in',
      gone.map((r) => r.id),
    )
    .execute();
  const why = new Map(gone.map((r) => [r.seq, refused.get(r.id)!]));
  for (const a of accepted) {
    const reason = why.get(a.rec.seq);
    if (reason !== undefined && out.get(a.index)?.status === 'accepted')
      out.set(a.index, { index: a.index, seq: a.rec.seq, status: 'rejected', error_message: reason });
  }
  return fresh.filter((r) => !why.has(r.seq));
}
