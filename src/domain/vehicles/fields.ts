/** Value sets of the vehicle record (docs/reference/wire.md §4.3). */
export const VEHICLE_STATUSES = ['active', 'inactive', 'deactivated'] as const;
export const FUEL_TYPES = [
  'diesel',
  'gasoline',
  'propane',
  'lng',
  'cng',
  'ethanol',
  'methanol',
  'e85',
  'm85',
  'a55',
  'biodiesel',
  'other',
] as const;
export const AVAILABILITY = ['in_service', 'out_of_service'] as const;
/** Nullable text fields a client may set. */
export const VEHICLE_TEXT_FIELDS = [
  'vin',
  'make',
  'model',
  'license_plate_state',
  'license_plate_number',
  'license_plate_country_code',
  'notes',
  'carb_ctc_emission_status',
  'registration_expiry_date',
] as const;
/** Longest accepted values, characters: `number`, `year` (as text) and each of VEHICLE_TEXT_FIELDS. */
export const VEHICLE_MAX_LENGTH = { number: 64, year: 8, text: 255 } as const;
/** Boolean fields, stored as 0/1. */
export const VEHICLE_BOOL_FIELDS = ['ifta', 'metric_units', 'prevent_auto_odometer_entry'] as const;
/** Camera settings: -1 means not configured. */
export const VEHICLE_CAMERA_FIELDS = [
  'incab_alert_live_stream_enable',
  'driver_facing_camera',
  'incab_audio_recording',
] as const;
