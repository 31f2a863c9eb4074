/**
 * Kysely table types. Each area declares its tables in its own module and adds them here,
 * so that one `Database` type covers every query. Value representation: ./values.ts.
 */
import type { Generated } from 'kysely';

export interface CompaniesTable {
  id: Generated<number>;
  company_code: string;
  name: string;
  street: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  dot_ids: string; // JSON array
  cycle: string;
  time_zone: string;
  exception_24_hour_restart: number;
  exception_8_hour_break: number;
  exception_wait_time: number;
  exception_short_haul: number;
  exception_ca_farm_school_bus: number;
  exception_adverse_driving: number;
  metric_units: number;
  created_at: string;
  updated_at: string;
}

export interface UsersTable {
  id: Generated<number>;
  company_id: number;
  role: string;
  status: string;
  first_name: string;
  last_name: string;
  email: string | null;
  username: string | null;
  password_hash: string | null;
  phone: string | null;
  phone_ext: string | null;
  phone_country_code: string | null;
  phone2: string | null;
  phone_country_code2: string | null;
  company_reference_id: string | null;
  metric_units: number;
  time_zone: string | null;
  external_ids: string; // JSON array of {external_id, integration_name}
  expires_at: string | null;
  group_visibility: string;
  driver_company_id: string | null;
  drivers_license_number: string | null;
  drivers_license_state: string | null;
  joined_at: string | null;
  duty_status: string;
  eld_mode: string;
  cycle: string | null;
  cycle2: string | null;
  violation_alerts: string;
  carrier_name: string;
  carrier_street: string;
  carrier_city: string;
  carrier_state: string;
  carrier_zip: string;
  terminal_street: string | null;
  terminal_city: string | null;
  terminal_state: string | null;
  terminal_zip: string | null;
  /** JSON object of the driver's boolean HOS exception and export flags (users/fields.ts). */
  driver_flags: string;
  associated_dispatcher_id: number | null;
  mobile_current_sign_in_at: string | null;
  mobile_last_active_at: string | null;
  mobile_last_sign_in_at: string | null;
  web_current_sign_in_at: string | null;
  web_last_active_at: string | null;
  web_last_sign_in_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface VehiclesTable {
  id: Generated<number>;
  company_id: number;
  number: string;
  status: string;
  ifta: number;
  vin: string | null;
  make: string | null;
  model: string | null;
  year: string | null;
  license_plate_state: string | null;
  license_plate_number: string | null;
  license_plate_country_code: string | null;
  metric_units: number;
  fuel_type: string | null;
  prevent_auto_odometer_entry: number;
  notes: string | null;
  incab_alert_live_stream_enable: number;
  driver_facing_camera: number;
  incab_audio_recording: number;
  permanent_driver_id: number | null;
  current_driver_id: number | null;
  availability_status: string | null;
  availability_updated_at: string | null;
  availability_updated_by: number | null;
  carb_ctc_test_enabled: number | null;
  carb_ctc_emission_status: string | null;
  registration_expiry_date: string | null;
  created_at: string;
  updated_at: string;
}

export interface GroupsTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  parent_id: number | null;
  user_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface GroupMembersTable {
  company_id: number;
  group_id: number;
  member_id: number;
  created_at: string;
}

export interface ApiKeysTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  key_hash: string;
  key_prefix: string;
  created_at: string;
  revoked_at: string | null;
}

export interface CoreTables {
  companies: CompaniesTable;
  users: UsersTable;
  vehicles: VehiclesTable;
  groups: GroupsTable;
  group_users: GroupMembersTable;
  group_vehicles: GroupMembersTable;
  api_keys: ApiKeysTable;
}

export interface Database extends CoreTables {}
