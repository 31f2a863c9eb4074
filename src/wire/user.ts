/**
 * The user object (docs/reference/wire.md §4.2). Shared keys are on every record; admin/fleet_user records add
 * `expires_at`, `phone2`, `phone_country_code2`; the driver-only block is absent (not null) on
 * non-drivers.
 */
import { Type } from 'typebox';
import { NDateTime, NInt, NStr, DateTime } from './types.js';
import { fromBool, fromJson, wireTime } from '../storage/values.js';
import { DRIVER_FLAGS } from '../domain/users/fields.js';
import type { UserRow } from '../domain/users/service.js';

const ExternalId = Type.Object({ external_id: Type.String(), integration_name: Type.String() });

const opt = Type.Optional;
const driverFlagSchemas = Object.fromEntries(DRIVER_FLAGS.map((f) => [f, opt(Type.Boolean())]));

export const User = Type.Object({
  id: Type.Integer(),
  email: NStr(),
  first_name: Type.String(),
  last_name: Type.String(),
  phone: NStr(),
  phone_ext: NStr(),
  phone_country_code: NStr(),
  company_reference_id: NStr(),
  role: Type.String({ enum: ['driver', 'admin', 'fleet_user'] }),
  status: Type.String({ enum: ['active', 'deactivated'] }),
  group_ids: Type.Array(Type.Integer()),
  metric_units: Type.Boolean(),
  time_zone: NStr(),
  created_at: DateTime(),
  updated_at: DateTime(),
  mobile_current_sign_in_at: NDateTime(),
  mobile_last_active_at: NDateTime(),
  mobile_last_sign_in_at: NDateTime(),
  web_current_sign_in_at: NDateTime(),
  web_last_active_at: NDateTime(),
  web_last_sign_in_at: NDateTime(),
  external_ids: Type.Array(ExternalId),
  expires_at: opt(NDateTime()),
  phone2: opt(NStr()),
  phone_country_code2: opt(NStr()),
  username: opt(NStr()),
  driver_company_id: opt(NStr()),
  drivers_license_number: opt(NStr()),
  drivers_license_state: opt(NStr()),
  joined_at: opt(NStr()),
  duty_status: opt(Type.String()),
  eld_mode: opt(Type.String()),
  cycle: opt(NStr()),
  cycle2: opt(NStr()),
  violation_alerts: opt(Type.String()),
  carrier_name: opt(Type.String()),
  carrier_street: opt(Type.String()),
  carrier_city: opt(Type.String()),
  carrier_state: opt(Type.String()),
  carrier_zip: opt(Type.String()),
  terminal_street: opt(NStr()),
  terminal_city: opt(NStr()),
  terminal_state: opt(NStr()),
  terminal_zip: opt(NStr()),
  ...driverFlagSchemas,
  associated_dispatcher_id: opt(NInt()),
});

export function userWire(u: UserRow, groupIds: number[]) {
  const base: Record<string, unknown> = {
    id: u.id,
    email: u.email,
    first_name: u.first_name,
    last_name: u.last_name,
    phone: u.phone,
    phone_ext: u.phone_ext,
    phone_country_code: u.phone_country_code,
    company_reference_id: u.company_reference_id,
    role: u.role,
    status: u.status,
    group_ids: groupIds,
    metric_units: fromBool(u.metric_units),
    time_zone: u.time_zone,
    created_at: wireTime(u.created_at),
    updated_at: wireTime(u.updated_at),
    mobile_current_sign_in_at: wireTime(u.mobile_current_sign_in_at),
    mobile_last_active_at: wireTime(u.mobile_last_active_at),
    mobile_last_sign_in_at: wireTime(u.mobile_last_sign_in_at),
    web_current_sign_in_at: wireTime(u.web_current_sign_in_at),
    web_last_active_at: wireTime(u.web_last_active_at),
    web_last_sign_in_at: wireTime(u.web_last_sign_in_at),
    external_ids: fromJson(u.external_ids, []),
  };
  if (u.role !== 'driver') {
    base.expires_at = wireTime(u.expires_at);
    base.phone2 = u.phone2;
    base.phone_country_code2 = u.phone_country_code2;
    return base;
  }
  const flags = fromJson<Record<string, boolean>>(u.driver_flags, {});
  Object.assign(base, {
    username: u.username,
    driver_company_id: u.driver_company_id,
    drivers_license_number: u.drivers_license_number,
    drivers_license_state: u.drivers_license_state,
    joined_at: u.joined_at,
    duty_status: u.duty_status,
    eld_mode: u.eld_mode,
    cycle: u.cycle,
    cycle2: u.cycle2,
    violation_alerts: u.violation_alerts,
    carrier_name: u.carrier_name,
    carrier_street: u.carrier_street,
    carrier_city: u.carrier_city,
    carrier_state: u.carrier_state,
    carrier_zip: u.carrier_zip,
    terminal_street: u.terminal_street,
    terminal_city: u.terminal_city,
    terminal_state: u.terminal_state,
    terminal_zip: u.terminal_zip,
  });
  for (const f of DRIVER_FLAGS) base[f] = flags[f] ?? false;
  base.associated_dispatcher_id = u.associated_dispatcher_id;
  return base;
}
