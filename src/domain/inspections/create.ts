/**
 * Creating an inspection report: what a driver's device submits after a pre- or post-trip inspection
 * (the telemetry ingestion calls this), and what the demo seed uses. All checks run before anything is
 * written; the report, its defects, its external ids and the `inspection_report_upserted` event are
 * written in one transaction.
 */
import type { Kysely } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { Database } from '../../storage/schema.js';
import { json, nowIso } from '../../storage/values.js';
import { notFound, validation } from '../../core/errors.js';
import { localDate, TIME_ZONES } from '../../core/time-zone.js';
import type { Tenant } from '../tenant.js';
import {
  assertExternalIdsFree,
  normalizeExternalIds,
  setExternalIds,
  type ExternalId,
} from '../assets/external-ids.js';
import { parseInstant } from './instant.js';
import { reportStatus } from './status.js';
import { announceReport, getReport } from './service.js';
import { userRef } from '../users/refs.js';
import { vehicleRef } from '../vehicles/refs.js';
import { companyProfile } from '../companies/refs.js';
import { driverLogId, isDriversLog } from '../hos/log-rows.js';

export const INSPECTION_TYPES = ['pre_trip', 'post_trip', 'other'] as const;

export interface DefectInput {
  area: string;
  category: string;
  notes?: string | null;
}

export interface NewInspectionReport {
  driver_id: number;
  vehicle_id: number;
  /** When the inspection was done, ISO-8601 with a zone. */
  time: string;
  inspection_type?: (typeof INSPECTION_TYPES)[number];
  odometer?: number | null;
  carrier_name?: string | null;
  trailer_nums?: string[];
  location?: string | null;
  city?: string | null;
  state?: string | null;
  defects?: DefectInput[];
  driver_signed_at?: string | null;
  driver_signature_url?: string | null;
  log_id?: number | null;
  external_ids?: ExternalId[];
}

/** Instants more than this far in the future are refused (device clocks drift a little). */
const FUTURE_SLACK_MS = 5 * 60_000;

function text(field: string, v: string | null | undefined, max = 255): string | null {
  if (v === undefined || v === null) return null;
  const s = v.trim();
  if (s.length > max) throw validation(field, `must be at most ${max} characters long`);
  return s === '' ? null : s;
}

function notFuture(field: string, d: Date): void {
  if (d.getTime() > Date.now() + FUTURE_SLACK_MS) throw validation(field, 'must not be in the future');
}

/**
 * With `joined` (the caller's transaction: a device record is stored with the report it creates), the
 * report is read and written there, and rolled back with it; otherwise in a transaction of its own.
 */
export async function createInspectionReport(db: Db, t: Tenant, input: NewInspectionReport, joined?: Kysely<Database>) {
  const time = parseInstant('time', input.time);
  notFuture('time', time);
  const signed = input.driver_signed_at ? parseInstant('driver_signed_at', input.driver_signed_at) : null;
  if (signed) notFuture('driver_signed_at', signed);
  if (input.inspection_type !== undefined && !INSPECTION_TYPES.includes(input.inspection_type)) {
    throw validation('inspection_type', `must be one of: ${INSPECTION_TYPES.join(', ')}`);
  }
  if (
    input.odometer !== undefined &&
    input.odometer !== null &&
    !(Number.isFinite(input.odometer) && input.odometer >= 0)
  ) {
    throw validation('odometer', 'must be a number of at least 0');
  }
  const defects = (input.defects ?? []).map((d, i) => {
    const area = text(`defects[${i}].area`, d.area, 64);
    const category = text(`defects[${i}].category`, d.category, 128);
    if (!area) throw validation(`defects[${i}].area`, 'must not be empty');
    if (!category) throw validation(`defects[${i}].category`, 'must not be empty');
    return { area, category, notes: text(`defects[${i}].notes`, d.notes, 2000) };
  });
  const trailers = (input.trailer_nums ?? [])
    .map((n, i) => text(`trailer_nums[${i}]`, n, 64))
    .filter((n): n is string => n !== null);
  const externalIds = normalizeExternalIds('external_ids', input.external_ids ?? []);
  const place = {
    location: text('location', input.location),
    city: text('city', input.city, 128),
    state: text('state', input.state, 64),
    driver_signature_url: text('driver_signature_url', input.driver_signature_url, 2000),
  };
  const carrierName = text('carrier_name', input.carrier_name);

  const k = joined ?? db.kysely;
  const [driver, vehicle, company] = await Promise.all([
    userRef(k, t.companyId, input.driver_id),
    vehicleRef(k, t.companyId, input.vehicle_id),
    companyProfile(k, t.companyId),
  ]);
  if (!company) throw notFound(`company ${t.companyId}`);
  if (!driver) throw notFound(`driver_id: user ${input.driver_id}`);
  if (driver.role !== 'driver')
    throw validation('driver_id', `must name a driver; user ${input.driver_id} is a ${driver.role}`);
  if (!vehicle) throw notFound(`vehicle_id: vehicle ${input.vehicle_id}`);
  await assertExternalIdsFree(k, t.companyId, 'inspection_report', 0, externalIds);
  if (input.log_id !== undefined && input.log_id !== null) {
    if (!(await isDriversLog(k, t.companyId, driver.id, input.log_id)))
      throw validation('log_id', `names no log of driver ${driver.id} (${input.log_id})`);
  }

  const now = nowIso();
  const zone = TIME_ZONES[company.time_zone] ?? 'UTC';
  // The report belongs to the driver's log of that day, in the driver's home-terminal zone.
  const logDate = localDate(time.getTime(), TIME_ZONES[driver.time_zone ?? company.time_zone] ?? zone);
  const write = async (trx: Kysely<Database>) => {
    const logId = input.log_id ?? (await driverLogId(trx, t.companyId, driver.id, logDate, now));
    const row = await trx
      .insertInto('inspection_reports')
      .values({
        company_id: t.companyId,
        driver_id: driver.id,
        vehicle_id: vehicle.id,
        mechanic_id: null,
        log_id: logId,
        inspection_type: input.inspection_type ?? null,
        date: localDate(time.getTime(), zone),
        time: time.toISOString(),
        odometer: input.odometer ?? null,
        carrier_name: carrierName ?? (driver.carrier_name || company.name),
        vehicle_number: vehicle.number,
        trailer_nums: json(trailers),
        ...place,
        status: reportStatus(defects.map(() => ({ status: 'open' }))),
        defect_count: defects.length,
        mechanic_signed_at: null,
        mechanic_signature_url: null,
        mechanic_note: null,
        driver_signed_at: signed ? signed.toISOString() : null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (defects.length) {
      await trx
        .insertInto('inspection_defects')
        .values(
          defects.map((d, i) => ({
            company_id: t.companyId,
            report_id: row.id,
            position: i + 1,
            ...d,
            created_at: now,
          })),
        )
        .execute();
    }
    await setExternalIds(trx, t.companyId, 'inspection_report', row.id, externalIds);
    await announceReport(trx, t.companyId, row.id, 'created');
    return row.id;
  };
  const id = await (joined ? write(joined) : k.transaction().execute(write));
  return getReport(joined ? { ...db, kysely: joined } : db, t, id);
}
