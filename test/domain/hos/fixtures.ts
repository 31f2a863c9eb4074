/** Shared pieces of the HOS HTTP and service tests: drivers made through the API, records through the service. */
import type { TestApp, TestCompany } from '../../helper.js';
import { createUser } from '../../http/fixtures.js';
import { recordDutyStatusEvents, type HosEventInput } from '../../../src/domain/hos/service.js';

export const H = 3_600_000;
export const MINUTE = 60_000;

export const AVAILABLE_TIME_KEYS = [
  'id',
  'first_name',
  'last_name',
  'driver_company_id',
  'status',
  'duty_status',
  'available_time',
  'recap',
  'last_hos_status',
  'last_cycle_reset',
];
export const HOS_KEYS = [
  'id',
  'date',
  'off_duty_duration',
  'on_duty_duration',
  'sleeper_duration',
  'driving_duration',
  'waiting_duration',
  'driver',
];
export const VIOLATION_KEYS = ['id', 'type', 'name', 'start_time', 'end_time', 'user'];
export const LOG_KEYS = [
  'id',
  'date',
  'total_miles',
  'metric_units',
  'driver_signed_at',
  'driver_signature_url',
  'time_zone',
  'cycle',
  'driver_first_name',
  'driver_last_name',
  'driver_company_id',
  'carrier_name',
  'carrier_street',
  'carrier_city',
  'carrier_state',
  'carrier_zip',
  'terminal_street',
  'terminal_city',
  'terminal_state',
  'terminal_zip',
  'notes',
  'origin',
  'destination',
  'exception_24_hour_restart',
  'exception_8_hour_break',
  'exception_wait_time',
  'exception_short_haul',
  'exception_adverse_driving',
  'exception_ca_farm_school_bus',
  'short_haul',
  'eld_mode',
  'co_driver_full_names',
  'odometers',
  'trailer_numbers',
  'vehicle_numbers',
  'off_duty_duration',
  'on_duty_duration',
  'sleeper_duration',
  'driving_duration',
  'waiting_duration',
  'driver',
  'vehicles',
  'remarks',
  'cycle_restarts',
  'shipping_docs',
  'form_and_manner_errors',
  'hos_violations',
  'events',
];

export async function driver(t: TestApp, fields: Record<string, unknown> = {}, as?: TestCompany): Promise<any> {
  return createUser(t, { role: 'driver', time_zone: 'UTC', cycle: '70_8', ...fields }, as);
}

/** Records `[ISO instant or ms, status]` pairs (or full inputs) for a driver through the service. */
export function log(
  t: TestApp,
  driverId: number,
  events: Array<[number | string, string] | HosEventInput>,
  as?: TestCompany,
) {
  const inputs = events.map((e) =>
    Array.isArray(e)
      ? ({ at: typeof e[0] === 'number' ? new Date(e[0]).toISOString() : e[0], status: e[1] } as HosEventInput)
      : e,
  );
  return recordDutyStatusEvents(t.db, { companyId: (as ?? t.company).id }, driverId, inputs);
}

/** The UTC date `n` days before today. */
export function daysAgo(n: number): string {
  return new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
}

export const at = (date: string, hm: string) => Date.parse(`${date}T${hm}:00Z`);
