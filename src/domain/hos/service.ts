/**
 * Hours of service: the duty-status record store and what follows from it.
 *
 * Entry points for the telemetry pipeline (src/telemetry calls these; nothing here reads telemetry):
 *
 * - A device reports a duty-status record (or login/logout, engine power, intermediate log, …) for the
 *   driver it names:
 *     await recordDutyStatusEvents(db, { companyId }, driverId,
 *       [{ status: 'on_duty', at: '2026-01-05T14:00:00Z', origin: 'driver', eldDeviceId, vehicleId, sequenceId, lat, lon, notes }],
 *       { trx, skipRefused: true })
 *   Pass the pipeline's open transaction as `trx` to write in it (SQLite has one connection), and
 *   `skipRefused` so that a refused record (result.refused) does not fail the batch. A resend with the
 *   same eldDeviceId + sequenceId (0–65535) + instant + kind + origin is ignored. Records of one
 *   instant are all kept, in the order they were stored: the last one stored is in effect from it.
 * - Automatic driving detection (./auto-duty.ts) is a pure step per vehicle over speed samples:
 *     const { state, proposals } = stepAutoDuty(prevState, { t, speedKph, special })
 *   and each proposal is recorded for the logged-in driver with origin 'auto':
 *     await recordDutyStatusEvents(db, { companyId }, driverId, proposals.map((p) => ({ ...p, origin: 'auto', vehicleId, eldDeviceId })), { trx, skipRefused: true })
 *
 * Every call re-evaluates that one driver (incremental): stored violations follow the engine and are
 * announced (hos_violation_upserted), users.duty_status follows the current status
 * (user_duty_status_updated). Automatically recorded driving cannot be shortened afterwards: a later
 * non-driving record inside a finished automatic driving interval is refused; edits (./edits.ts) keep
 * the originals as inactive history.
 */
import type { Kysely } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { Database } from '../../storage/schema.js';
import { nowIso, toIso } from '../../storage/values.js';
import { AppError, validation } from '../../core/errors.js';
import type { Tenant } from '../tenant.js';
import type { Evaluation } from './engine/types.js';
import { normalize, type HosEventInput, type NormalizedEvent } from './records.js';
import { dutyAt, lockDriver, nextSequence, OPEN_END, rechain } from './store.js';
import { hosDrivers, type HosDriver } from './drivers.js';
import { certificationCode, guardCertification } from './certification.js';

export { lockDriver } from './store.js';
import { reevaluateDriver } from './evaluation.js';
import { vehicleRefs } from '../vehicles/refs.js';

export type { HosEventInput } from './records.js';
type Trx = Kysely<Database>;

export interface RecordOptions {
  /** Write inside this open transaction instead of opening one. */
  trx?: Trx;
  /** The current instant (epoch ms); the clock by default. */
  now?: number;
  /**
   * Skip a refused record (invalid, or shortening automatic driving) and report it in `refused`
   * instead of failing the whole call: what a device pipeline wants. An unknown driver still throws.
   */
  skipRefused?: boolean;
}

export interface RecordResult {
  ids: number[];
  /** Records already stored (same device, sequence id and instant) that were skipped. */
  duplicates: number;
  /** With skipRefused: the records not stored, by index in the input, with the reason. */
  refused: Array<{ index: number; error_message: string }>;
  evaluation: Evaluation | null;
}

async function checkVehicles(trx: Trx, companyId: number, events: NormalizedEvent[]): Promise<void> {
  const ids = [...new Set(events.map((e) => e.input.vehicleId).filter((v): v is number => typeof v === 'number'))];
  if (ids.length === 0) return;
  const found = await vehicleRefs(trx, companyId, ids);
  const known = new Set(found.map((r) => r.id));
  for (const id of ids) if (!known.has(id)) throw validation('vehicle_id', `${id} is not a vehicle of this company`);
}

/** Refuses a non-driving record that would cut a finished, automatically recorded driving interval. */
async function guardAutoDriving(trx: Trx, companyId: number, driverId: number, e: NormalizedEvent): Promise<void> {
  if (e.kind !== 'duty_status' || e.origin === 1 || e.status === 'driving') return;
  const at = toIso(e.at);
  const cur = await dutyAt(trx, companyId, driverId, at);
  if (
    cur &&
    cur.status === 'driving' &&
    cur.record_origin === 1 &&
    cur.occurred_at < at &&
    cur.ended_at !== OPEN_END &&
    (cur.ended_at ?? '') > at
  ) {
    throw new AppError(
      'invalid_state',
      `automatically recorded driving (${cur.occurred_at} to ${cur.ended_at}) cannot be shortened`,
    );
  }
}

/**
 * A resend: the same ELD device, sequence id (or the record's former one), instant, kind and origin. The
 * origin keeps a driver's record apart from one the ELD made itself at the same instant.
 */
async function isDuplicate(trx: Trx, companyId: number, driverId: number, e: NormalizedEvent): Promise<boolean> {
  const { eldDeviceId, sequenceId, formerSequenceId } = e.input;
  if (eldDeviceId == null || sequenceId === undefined) return false;
  const ids = formerSequenceId === undefined ? [sequenceId] : [sequenceId, formerSequenceId];
  const row = await trx
    .selectFrom('hos_events')
    .select('id')
    .where('company_id', '=', companyId)
    .where('driver_id', '=', driverId)
    .where('eld_device_id', '=', eldDeviceId)
    .where('sequence_id', 'in', ids)
    .where('occurred_at', '=', toIso(e.at))
    .where('kind', '=', e.kind)
    .where('record_origin', '=', e.origin)
    .executeTakeFirst();
  return !!row;
}

/**
 * Refuses an exception claim the driver's rules cannot honour, rather than storing one the clocks
 * would ignore: adverse driving needs the driver's `exception_adverse_driving`; the 16-hour exception
 * (395.1(o)) exists under the US property-carrying rules only.
 */
function guardClaim(driver: HosDriver | undefined, e: NormalizedEvent): void {
  if (e.kind !== 'exception' || !driver) return;
  const rs = driver.ruleset;
  if (e.code === 'adverse_driving' && !rs.adverseDriving) {
    throw new AppError(
      'invalid_state',
      `driver ${driver.id} may not claim adverse_driving: the driver's exception_adverse_driving is off`,
    );
  }
  if (e.code === 'sixteen_hour' && !rs.sixteenHour) {
    throw new AppError(
      'invalid_state',
      `driver ${driver.id} may not claim sixteen_hour: the 16-hour exception (395.1(o)) applies to US property-carrying drivers, not cycle ${rs.cycleCode}`,
    );
  }
}

export function eventRow(
  companyId: number,
  driverId: number,
  e: NormalizedEvent,
  sequenceId: number,
  extra: { edit_id?: number | null } = {},
) {
  const i = e.input;
  const at = toIso(e.at);
  return {
    company_id: companyId,
    driver_id: driverId,
    vehicle_id: i.vehicleId ?? null,
    eld_device_id: i.eldDeviceId ?? null,
    sequence_id: sequenceId,
    kind: e.kind,
    event_type: e.eventType,
    event_code: e.eventCode,
    status: e.status,
    special: e.special,
    code: e.code,
    record_status: 1,
    record_origin: e.origin,
    occurred_at: at,
    // Duty records are chained by rechain(); an exception claim is found by the window query at its instant.
    ended_at: e.kind === 'duty_status' ? OPEN_END : e.kind === 'exception' ? at : null,
    lat: i.lat ?? null,
    lon: i.lon ?? null,
    location: i.location ?? null,
    odometer_km: i.odometerKm ?? null,
    engine_hours: i.engineHours ?? null,
    notes: i.notes ?? null,
    edit_id: extra.edit_id ?? null,
    superseded_by_edit_id: null,
    created_at: nowIso(),
  };
}

/** Records a driver's ELD-style events (see the top of this file) and re-evaluates the driver. */
export async function recordDutyStatusEvents(
  db: Db,
  t: Tenant,
  driverId: number,
  events: HosEventInput[],
  opts: RecordOptions = {},
): Promise<RecordResult> {
  const now = opts.now ?? Date.now();
  if (!Array.isArray(events) || events.length === 0) throw validation('events', 'must have at least 1 item');
  if (events.length > 5000) throw validation('events', 'must have at most 5000 items');
  const refused: RecordResult['refused'] = [];
  const refuse = (index: number, err: unknown) => {
    if (!opts.skipRefused || !(err instanceof AppError) || err.status >= 500) throw err;
    refused.push({ index, error_message: err.message });
  };
  const norm: Array<NormalizedEvent & { index: number }> = [];
  events.forEach((e, i) => {
    try {
      norm.push({ ...normalize(e, i, now), index: i });
    } catch (err) {
      refuse(i, err);
    }
  });
  norm.sort((a, b) => a.at - b.at);
  const run = async (trx: Trx): Promise<RecordResult> => {
    await lockDriver(trx, db.kind, t.companyId, driverId);
    await checkVehicles(trx, t.companyId, norm);
    let seq = await nextSequence(trx, t.companyId, driverId);
    // A claim and a certification are checked against the driver's rules and zone.
    const driver = norm.some((e) => e.kind === 'exception' || e.kind === 'certification')
      ? (await hosDrivers(trx, t.companyId, [driverId])).get(driverId)
      : undefined;
    const ids: number[] = [];
    let duplicates = 0;
    let changedFrom = Infinity;
    let dutyFrom: number | null = null;
    for (const e of norm) {
      if (await isDuplicate(trx, t.companyId, driverId, e)) {
        duplicates++;
        continue;
      }
      try {
        guardClaim(driver, e);
        guardCertification(driver, e);
        await guardAutoDriving(trx, t.companyId, driverId, e);
      } catch (err) {
        refuse(e.index, err);
        continue;
      }
      const sequenceId = e.input.sequenceId ?? seq;
      seq = (sequenceId + 1) % 0x10000;
      const row =
        e.kind === 'certification'
          ? { ...e, eventCode: await certificationCode(trx, t.companyId, driverId, e.code!) }
          : e;
      const { id } = await trx
        .insertInto('hos_events')
        .values(eventRow(t.companyId, driverId, row, sequenceId))
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(id);
      if (e.kind === 'duty_status' || e.kind === 'exception') changedFrom = Math.min(changedFrom, e.at);
      if (e.kind === 'duty_status' && (dutyFrom === null || e.at < dutyFrom)) dutyFrom = e.at;
    }
    if (dutyFrom !== null) await rechain(trx, t.companyId, driverId, toIso(dutyFrom));
    const evaluation = Number.isFinite(changedFrom) ? await reevaluateDriver(trx, t, driverId, changedFrom, now) : null;
    return { ids, duplicates, refused, evaluation };
  };
  return opts.trx ? run(opts.trx) : db.kysely.transaction().execute(run);
}
