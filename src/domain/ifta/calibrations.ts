/**
 * Odometer calibrations. The model: a fleet records, per vehicle, offsets that take effect at an
 * instant and hold until the vehicle's next calibration. From then on
 *
 *     calibrated odometer = ECM odometer (as the device reports it) + offset in force
 *
 * A calibration is given either as the offset itself or as the dashboard odometer read at that
 * instant (the offset is then the reading minus the ECM odometer of the vehicle's last record with an
 * odometer at or before it, within an hour). Distances come from the calibrated odometer, so an offset
 * entered when an ECM is replaced keeps the distance across the replacement right. Before a vehicle's
 * first calibration the calibrated odometer is unknown (null on the wire) and the ECM odometer is used.
 * A change marks the affected days stale; they are recomputed on the next read.
 */
import type { Kysely } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { Database } from '../../storage/schema.js';
import { isUniqueViolation } from '../../storage/query.js';
import { nowIso } from '../../storage/values.js';
import { duplicate, notFound, validation } from '../../core/errors.js';
import { writeTx } from '../../telemetry/store/tx.js';
import { odometerAtOrBefore } from '../../telemetry/queries/located.js';
import { KM_PER_MI } from '../../telemetry/units.js';
import { markCalibrationChange } from './staleness.js';
import type { IftaOdometerCalibrationsTable } from './tables.js';
import type { Selectable } from 'kysely';
import { vehicleRef } from '../vehicles/refs.js';
import type { CalibrationInput } from './input.js';

export type CalibrationRow = Selectable<IftaOdometerCalibrationsTable>;

export interface Calibration {
  fromMs: number;
  offsetKm: number;
}

/** The start of time, for a calibration that applies to the whole history. */
export const FROM_THE_START = '1970-01-01T00:00:00.000Z';
const READING_WINDOW_MS = 3_600_000;

/** A vehicle's calibrations, oldest first. */
export async function calibrationsOf(k: Kysely<Database>, vehicleId: number): Promise<Calibration[]> {
  const rows = await k
    .selectFrom('ifta_odometer_calibrations')
    .select(['effective_from', 'offset_km'])
    .where('vehicle_id', '=', vehicleId)
    .orderBy('effective_from')
    .execute();
  return rows.map((r) => ({ fromMs: Date.parse(r.effective_from), offsetKm: r.offset_km }));
}

/** The offset in force at `t` (epoch ms), or null before the first calibration. */
export function offsetAt(cals: Calibration[], t: number): number | null {
  let lo = 0;
  let hi = cals.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cals[mid].fromMs <= t) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found < 0 ? null : cals[found].offsetKm;
}

export async function listCalibrations(
  db: Db,
  companyId: number,
  vehicleIds: number[] | undefined,
  limit: number,
  offset: number,
) {
  let q = db.kysely.selectFrom('ifta_odometer_calibrations').where('company_id', '=', companyId);
  if (vehicleIds?.length) q = q.where('vehicle_id', 'in', vehicleIds);
  const [rows, count] = await Promise.all([
    q.selectAll().orderBy('id').limit(limit).offset(offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ]);
  return { rows, total: Number(count?.n ?? 0) };
}

async function ecmReading(k: Kysely<Database>, companyId: number, vehicleId: number, atIso: string): Promise<number> {
  const row = await odometerAtOrBefore(k, companyId, vehicleId, atIso);
  if (!row || Date.parse(atIso) - Date.parse(row.fix_time) > READING_WINDOW_MS) {
    throw validation(
      'dashboard_odometer',
      'needs an ECM odometer reading of the vehicle in the hour before effective_from; send offset instead',
    );
  }
  return row.odometer_km!;
}

export async function createCalibration(db: Db, companyId: number, input: CalibrationInput): Promise<CalibrationRow> {
  const vehicle = await vehicleRef(db.kysely, companyId, input.vehicle_id);
  if (!vehicle) throw notFound('vehicle');
  if ((input.offset === undefined) === (input.dashboard_odometer === undefined)) {
    throw validation('offset', 'or dashboard_odometer is required (exactly one of them)');
  }
  let from = FROM_THE_START;
  if (input.effective_from !== undefined) {
    const t = Date.parse(input.effective_from);
    if (Number.isNaN(t)) throw validation('effective_from', `is not a valid datetime (${input.effective_from})`);
    from = new Date(t).toISOString();
  }
  const perUnit = input.unit === 'km' ? 1 : KM_PER_MI;
  let offsetKm: number;
  if (input.offset !== undefined) offsetKm = input.offset * perUnit;
  else {
    if (input.effective_from === undefined) throw validation('effective_from', 'is required with dashboard_odometer');
    offsetKm = input.dashboard_odometer! * perUnit - (await ecmReading(db.kysely, companyId, input.vehicle_id, from));
  }
  const now = nowIso();
  try {
    return await writeTx(db, async (trx) => {
      const row = await trx
        .insertInto('ifta_odometer_calibrations')
        .values({
          company_id: companyId,
          vehicle_id: input.vehicle_id,
          effective_from: from,
          offset_km: offsetKm,
          note: input.note ?? null,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await markCalibrationChange(trx, companyId, input.vehicle_id, from);
      return row;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicate('effective_from', from);
    throw err;
  }
}

export async function deleteCalibration(db: Db, companyId: number, id: number): Promise<void> {
  await writeTx(db, async (trx) => {
    const row = await trx
      .selectFrom('ifta_odometer_calibrations')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound('odometer calibration');
    await trx.deleteFrom('ifta_odometer_calibrations').where('id', '=', id).execute();
    await markCalibrationChange(trx, companyId, row.vehicle_id, row.effective_from);
  });
}
