/** Value sets and defaults of the user record (docs/reference/wire.md §4.2). */
export const ROLES = ['driver', 'admin', 'fleet_user'] as const;
export type Role = (typeof ROLES)[number];
export const USER_STATUSES = ['active', 'deactivated'] as const;
export const DUTY_STATUSES = ['off_duty', 'on_duty', 'sleeper', 'driving', 'waiting'] as const;
export const ELD_MODES = ['none', 'logs', 'exempt'] as const;
export const VIOLATION_ALERTS = ['never', '1_hour', '45_minutes', '30_minutes', '15_minutes'] as const;
export const GROUP_VISIBILITY = ['all', 'limited'] as const;
export const CYCLES = [
  '70_8',
  '60_7',
  'canada_7day',
  'canada_14day',
  'texas',
  'california_80_8',
  'alaska_80_8',
  'alaska_70_7',
] as const;

/** The driver's boolean settings, stored together in `users.driver_flags` (all false by default). */
export const DRIVER_FLAGS = [
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
] as const;
export type DriverFlag = (typeof DRIVER_FLAGS)[number];

/** Nullable text columns a client may set on any user. */
export const USER_TEXT_FIELDS = [
  'email',
  'phone',
  'phone_ext',
  'phone_country_code',
  'company_reference_id',
  'time_zone',
] as const;

/** Nullable text columns only admins and fleet users carry. */
export const MANAGER_TEXT_FIELDS = ['phone2', 'phone_country_code2', 'expires_at'] as const;

/** Text columns only drivers carry. */
export const DRIVER_TEXT_FIELDS = [
  'username',
  'driver_company_id',
  'drivers_license_number',
  'drivers_license_state',
  'joined_at',
  'cycle',
  'cycle2',
  'carrier_name',
  'carrier_street',
  'carrier_city',
  'carrier_state',
  'carrier_zip',
  'terminal_street',
  'terminal_city',
  'terminal_state',
  'terminal_zip',
] as const;
