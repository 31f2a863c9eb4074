/**
 * Kysely table types. Each area declares its tables in its own module and adds them here,
 * so that one `Database` type covers every query. Value representation: ./values.ts.
 */
import type { Generated } from 'kysely';
import type { DispatchTables } from '../domain/dispatch/tables.js';
import type { OAuthTables } from '../auth/oauth/tables.js';
import type { MessageTables } from '../domain/messages/tables.js';
import type { FuelTables } from '../domain/fuel/tables.js';
import type { DocumentTables } from '../domain/documents/tables.js';
import type { GeofenceTables } from '../domain/geofences/tables.js';
import type { RecordTables } from '../domain/assets/tables.js';
import type { WebhookTables } from '../events/webhooks/tables.js';
import type { TelemetryTables } from '../telemetry/store/tables.js';
import type { HorizonTables } from './partitions/horizon.js';
import type { HosTables } from '../domain/hos/tables.js';
import type { IftaTables } from '../domain/ifta/tables.js';
import type { UserTables } from '../domain/users/tables.js';
import type { AlertTables } from '../domain/alerts/tables.js';

export interface CompaniesTable {
  id: Generated<number>;
  company_code: string;
  name: string;
  street: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  dot_ids: Generated<string>; // JSON array
  cycle: Generated<string>;
  time_zone: Generated<string>;
  exception_24_hour_restart: Generated<number>;
  exception_8_hour_break: Generated<number>;
  exception_wait_time: Generated<number>;
  exception_short_haul: Generated<number>;
  exception_ca_farm_school_bus: Generated<number>;
  exception_adverse_driving: Generated<number>;
  metric_units: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface UsersTable {
  id: Generated<number>;
  company_id: number;
  role: string;
  status: Generated<string>;
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
  metric_units: Generated<number>;
  time_zone: string | null;
  external_ids: Generated<string>; // JSON array of {external_id, integration_name}
  expires_at: string | null;
  group_visibility: Generated<string>;
  driver_company_id: string | null;
  drivers_license_number: string | null;
  drivers_license_state: string | null;
  joined_at: string | null;
  duty_status: Generated<string>;
  eld_mode: Generated<string>;
  cycle: string | null;
  cycle2: string | null;
  violation_alerts: Generated<string>;
  carrier_name: Generated<string>;
  carrier_street: Generated<string>;
  carrier_city: Generated<string>;
  carrier_state: Generated<string>;
  carrier_zip: Generated<string>;
  terminal_street: string | null;
  terminal_city: string | null;
  terminal_state: string | null;
  terminal_zip: string | null;
  /** JSON object of the driver's boolean HOS exception and export flags (users/fields.ts). */
  driver_flags: Generated<string>;
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
  status: Generated<string>;
  ifta: Generated<number>;
  vin: string | null;
  make: string | null;
  model: string | null;
  year: string | null;
  license_plate_state: string | null;
  license_plate_number: string | null;
  license_plate_country_code: string | null;
  metric_units: Generated<number>;
  fuel_type: string | null;
  prevent_auto_odometer_entry: Generated<number>;
  notes: string | null;
  incab_alert_live_stream_enable: Generated<number>;
  driver_facing_camera: Generated<number>;
  incab_audio_recording: Generated<number>;
  permanent_driver_id: number | null;
  current_driver_id: number | null;
  availability_status: string | null;
  availability_updated_at: string | null;
  availability_updated_by: number | null;
  /** Out of service only: why (`out_of_service_reason`), and what the driver app warns with. */
  out_of_service_reason: string | null;
  availability_prompt: string | null;
  /** `additional_note` of the availability. */
  availability_note: string | null;
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

export interface DomainEventsTable {
  id: Generated<number>;
  company_id: number;
  action: string;
  trigger: string | null;
  subject_type: string;
  subject_id: string;
  data: string; // JSON
  occurred_at: string;
  /** When the alerts worker turned it into alerts (migration 0027; only for the alerting actions). */
  alerted_at?: string | null;
}

export interface CoreTables {
  companies: CompaniesTable;
  users: UsersTable;
  vehicles: VehiclesTable;
  groups: GroupsTable;
  group_users: GroupMembersTable;
  group_vehicles: GroupMembersTable;
  api_keys: ApiKeysTable;
  domain_events: DomainEventsTable;
}

export interface Database
  extends
    CoreTables,
    DispatchTables,
    OAuthTables,
    MessageTables,
    FuelTables,
    DocumentTables,
    GeofenceTables,
    RecordTables,
    TelemetryTables,
    WebhookTables,
    HosTables,
    IftaTables,
    UserTables,
    AlertTables,
    HorizonTables {}
