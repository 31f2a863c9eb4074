/**
 * Shared pieces of the HTTP tests: the exact wire key sets of docs/reference/wire.md §4.1–4.3, and helpers that
 * create users and vehicles through the API (never behind its back) and read list totals.
 */
import assert from 'node:assert/strict';
import type { TestApp, TestCompany } from '../helper.js';

/** Wire datetime: ISO-8601 UTC, whole seconds, `Z`. */
export const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

export const USER_SHARED_KEYS = [
  'id',
  'first_name',
  'last_name',
  'email',
  'phone',
  'phone_ext',
  'phone_country_code',
  'company_reference_id',
  'role',
  'status',
  'group_ids',
  'metric_units',
  'time_zone',
  'created_at',
  'updated_at',
  'mobile_current_sign_in_at',
  'mobile_last_active_at',
  'mobile_last_sign_in_at',
  'web_current_sign_in_at',
  'web_last_active_at',
  'web_last_sign_in_at',
  'external_ids',
];
export const MANAGER_ONLY_KEYS = ['expires_at', 'phone2', 'phone_country_code2'];
export const DRIVER_ONLY_KEYS = [
  'username',
  'driver_company_id',
  'drivers_license_number',
  'drivers_license_state',
  'joined_at',
  'duty_status',
  'eld_mode',
  'cycle',
  'cycle2',
  'violation_alerts',
  'carrier_name',
  'carrier_street',
  'carrier_city',
  'carrier_state',
  'carrier_zip',
  'terminal_street',
  'terminal_city',
  'terminal_state',
  'terminal_zip',
  'exception_24_hour_restart',
  'exception_8_hour_break',
  'exception_adverse_driving',
  'exception_ca_farm_school_bus',
  'exception_short_haul',
  'exception_wait_time',
  'exception_24_hour_restart2',
  'exception_8_hour_break2',
  'exception_adverse_driving2',
  'exception_ca_farm_school_bus2',
  'exception_short_haul2',
  'exception_wait_time2',
  'export_combined',
  'export_odometers',
  'export_recap',
  'manual_driving_enabled',
  'minute_logs',
  'personal_conveyance_enabled',
  'yard_moves_enabled',
  'associated_dispatcher_id',
];
export const DRIVER_KEYS = [...USER_SHARED_KEYS, ...DRIVER_ONLY_KEYS];
export const MANAGER_KEYS = [...USER_SHARED_KEYS, ...MANAGER_ONLY_KEYS];

export const USER_SUMMARY_KEYS = [
  'id',
  'first_name',
  'last_name',
  'username',
  'email',
  'driver_company_id',
  'status',
  'role',
];

export const VEHICLE_KEYS = [
  'id',
  'company_id',
  'number',
  'status',
  'ifta',
  'vin',
  'make',
  'model',
  'year',
  'license_plate_state',
  'license_plate_number',
  'license_plate_country_code',
  'metric_units',
  'fuel_type',
  'prevent_auto_odometer_entry',
  'notes',
  'incab_alert_live_stream_enable',
  'driver_facing_camera',
  'incab_audio_recording',
  'group_ids',
  'created_at',
  'updated_at',
  'permanent_driver',
  'availability_details',
  'eld_device',
  'current_driver',
  'carb_ctc_test_enabled',
  'carb_ctc_emission_status',
  'registration_expiry_date',
  'external_ids',
];

/** The same key set, order aside (key order inside an object is not something clients depend on). */
export function assertKeySet(obj: Record<string, unknown>, expected: string[], what = 'object'): void {
  assert.ok(obj && typeof obj === 'object', `${what} is not an object`);
  assert.deepEqual([...Object.keys(obj)].sort(), [...expected].sort(), `${what} keys`);
}

/** `{"error_message": "..."}` with error_message the only key, and the message matching. */
export function assertError(res: { status: number; body: any }, status: number, message?: string | RegExp): void {
  assert.equal(res.status, status, `status (body: ${JSON.stringify(res.body)})`);
  assert.deepEqual(Object.keys(res.body ?? {}), ['error_message'], `error body keys: ${JSON.stringify(res.body)}`);
  assert.equal(typeof res.body.error_message, 'string');
  if (typeof message === 'string') assert.equal(res.body.error_message, message);
  else if (message) assert.match(res.body.error_message, message);
}

/** A list response: data key first, pagination last, single-key wrappers; returns the unwrapped items. */
export function assertList(res: { status: number; body: any }, plural: string, singular: string): any[] {
  assert.equal(res.status, 200, `status (body: ${JSON.stringify(res.body)})`);
  assert.deepEqual(Object.keys(res.body), [plural, 'pagination']);
  assert.deepEqual(Object.keys(res.body.pagination), ['per_page', 'page_no', 'total']);
  for (const k of ['per_page', 'page_no', 'total'])
    assert.ok(Number.isInteger(res.body.pagination[k]), `pagination.${k} is an integer`);
  assert.ok(Array.isArray(res.body[plural]));
  return res.body[plural].map((w: any) => {
    assert.deepEqual(Object.keys(w), [singular]);
    return w[singular];
  });
}

let seq = 0;
/** A unique suffix so emails, usernames and numbers never collide, even across companies. */
export const uniq = () => `${process.pid.toString(36)}${(++seq).toString(36)}`;

export async function createUser(t: TestApp, fields: Record<string, unknown> = {}, as?: TestCompany): Promise<any> {
  const u = uniq();
  const role = fields.role ?? 'driver';
  const payload: Record<string, unknown> = {
    first_name: 'Test',
    last_name: `User${u}`,
    role,
    email: `user${u}@example.com`,
    ...(role === 'driver' ? { username: `user${u}` } : {}),
    ...fields,
  };
  const res = await t.call({ method: 'POST', url: '/v1/users', payload, as });
  assert.equal(res.status, 201, `create user: ${JSON.stringify(res.body)}`);
  return res.body.user;
}

export async function createVehicle(t: TestApp, fields: Record<string, unknown> = {}, as?: TestCompany): Promise<any> {
  const res = await t.call({ method: 'POST', url: '/v1/vehicles', payload: { number: `T${uniq()}`, ...fields }, as });
  assert.equal(res.status, 201, `create vehicle: ${JSON.stringify(res.body)}`);
  return res.body.vehicle;
}

/** pagination.total of a list (with optional query), as this company or `as`. */
export async function totalOf(t: TestApp, path: string, as?: TestCompany): Promise<number> {
  const res = await t.call({ method: 'GET', url: path, as });
  assert.equal(res.status, 200, `GET ${path}: ${JSON.stringify(res.body)}`);
  return res.body.pagination.total;
}

/** Ids of a list response's items, unwrapped. */
export function idsOf(body: any, plural: string, singular: string): number[] {
  return body[plural].map((w: any) => w[singular].id);
}
