/**
 * Kysely table types of telemetry (migration 0007_telemetry). Values follow storage/values.ts:
 * timestamps ISO text with milliseconds, booleans 0/1, JSON as text. Units are in the column names.
 */
import type { Generated } from 'kysely';
import type { Position } from '../records.js';

/** Every record a device sent, stored before anything is derived from it (one row per device, channel and seq), with its measurements as parsed. */
export interface TelemetryRecordsTable extends Position {
  id: Generated<number>;
  company_id: number;
  device_id: number;
  /** 0 = the device protocol (docs/device-protocol.md), 1 = OsmAnd. */
  channel: number;
  seq: number;
  vehicle_id: number | null;
  asset_id: number | null;
  /** location, engine, driver, fault, acceleration, power, duty_status, inspection, form_entry. */
  type: string;
  fix_time: string;
  received_at: string;
  /** The driver logged in on the device when the record was taken, as known at ingestion. */
  driver_id: number | null;
  /** "3.2 mi SE of Springfield, IL" for records with a position. */
  description: string | null;
  /** The v1/v3 location point type (vehicle_moving, vehicle_stopped, breadcrumb, ignition_on, ignition_off). */
  point_type: string | null;
  /** JSON of the record's other fields (type-specific), or null. */
  data: string | null;
  /** The v1 history point's keys from located_at to fuel as JSON text (records with a position), migration 0011. */
  point_json: string | null;
}

/** Processor state of one vehicle or asset, and how far its records have been processed. */
export interface TelemetryStateTable {
  /** `v:<vehicle id>` or `a:<asset id>`. */
  subject: string;
  company_id: number;
  vehicle_id: number | null;
  asset_id: number | null;
  /** JSON of the processors' state (src/telemetry/processors/pipeline.ts). */
  state: string;
  /** Fix time of the last processed record; records at or before it arriving later are late. */
  horizon: string | null;
  max_fix_time: string | null;
  last_received_at: string;
  /** Driver logged in as known at ingestion, and the fix time of that login or logout. */
  ingest_driver_id: number | null;
  ingest_driver_at: string | null;
  updated_at: string;
  /** The token of the batch that wrote the row last, when it kept the pending records in memory; else null. */
  writer: string | null;
}

export interface DrivingPeriodsTable {
  id: Generated<number>;
  company_id: number;
  vehicle_id: number;
  driver_id: number | null;
  start_time: string;
  end_time: string | null;
  /** complete | in_progress */
  status: string;
  /** driving | personal_conveyance | yard_move */
  type: string;
  source: string | null;
  start_km: number | null;
  end_km: number | null;
  distance_km: number | null;
  origin: string | null;
  origin_lat: number | null;
  origin_lon: number | null;
  destination: string | null;
  destination_lat: number | null;
  destination_lon: number | null;
  created_at: string;
  updated_at: string;
}

export interface IdleEventsTable {
  id: Generated<number>;
  company_id: number;
  vehicle_id: number;
  device_id: number | null;
  driver_id: number | null;
  start_time: string;
  end_time: string;
  end_type: string;
  lat: number;
  lon: number;
  city: string | null;
  state: string | null;
  rg_brg: number | null;
  rg_km: number | null;
  rg_match: number;
  location: string | null;
  fuel_start_l: number | null;
  fuel_end_l: number | null;
  /** 1 when the power take-off was engaged during the event (migration 0017). */
  pto: Generated<number>;
  created_at: string;
}

export interface FaultCodesTable {
  id: Generated<number>;
  company_id: number;
  vehicle_id: number;
  device_id: number | null;
  /** j1939:SA:SPN:FMI, obd2:CODE or j1708:MID:P|S:ID:FMI — one open record per key and vehicle. */
  fault_key: string;
  protocol: string;
  code: string;
  spn: number | null;
  fmi: number | null;
  source_address: number | null;
  is_sid: number;
  status: string;
  first_observed_at: string;
  last_observed_at: string;
  closed_at: string | null;
  cleared: number;
  occurrence_count: number;
  num_observations: number;
  /** JSON {mil, red_stop, amber_warning, protect} booleans, or null. */
  lamps: string | null;
  created_at: string;
  updated_at: string;
}

export interface DriverPerformanceEventsTable {
  id: Generated<number>;
  company_id: number;
  vehicle_id: number;
  device_id: number | null;
  driver_id: number | null;
  /** hard_brake | hard_accel | hard_corner | speeding */
  type: string;
  start_time: string;
  end_time: string;
  start_speed_kph: number | null;
  end_speed_kph: number | null;
  max_speed_kph: number | null;
  start_bearing: number | null;
  end_bearing: number | null;
  /** Signed peak acceleration, g (negative for braking). */
  peak_g: number | null;
  lat: number | null;
  lon: number | null;
  location: string | null;
  odometer_km: number | null;
  /** JSON {lat: [], lon: [], heading: [], speed_kph: []} of the samples around the event. */
  samples: string;
  coaching_status: string;
  created_at: string;
  updated_at: string;
}

export interface GeofenceEventsTable {
  id: Generated<number>;
  company_id: number;
  geofence_id: number;
  vehicle_id: number;
  start_time: string;
  end_time: string | null;
  start_driver_id: number | null;
  end_driver_id: number | null;
  created_at: string;
  updated_at: string;
}

/** An asset's visit of a geofence (migration 0013): entry, and exit once seen. */
export interface AssetGeofenceEventsTable {
  id: Generated<number>;
  company_id: number;
  geofence_id: number;
  asset_id: number;
  start_time: string;
  end_time: string | null;
  created_at: string;
  updated_at: string;
}

/** Engine-on time, fuel and distance per vehicle, driver and 15-minute bucket (driver_id 0 = no driver). */
export interface UtilizationBucketsTable {
  company_id: number;
  vehicle_id: number;
  driver_id: number;
  bucket_start: string;
  driving_s: number;
  idle_s: number;
  driving_fuel_l: number;
  idle_fuel_l: number;
  distance_km: number;
  /** The part of idle_s and idle_fuel_l with the power take-off engaged (migration 0017). */
  pto_idle_s: Generated<number>;
  pto_idle_fuel_l: Generated<number>;
}

export interface TelemetryTables {
  telemetry_records: TelemetryRecordsTable;
  telemetry_state: TelemetryStateTable;
  driving_periods: DrivingPeriodsTable;
  idle_events: IdleEventsTable;
  fault_codes: FaultCodesTable;
  driver_performance_events: DriverPerformanceEventsTable;
  geofence_events: GeofenceEventsTable;
  asset_geofence_events: AssetGeofenceEventsTable;
  utilization_buckets: UtilizationBucketsTable;
}
