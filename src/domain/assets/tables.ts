/**
 * Kysely table types of assets, ELD devices, inspection reports and freight visibility (migration
 * 0005_assets_devices). Values follow storage/values.ts: timestamps ISO text, booleans 0/1, JSON as text.
 * `RecordTables` gathers every table of these areas for storage/schema.ts.
 */
import type { Generated } from 'kysely';
import type { DeviceTables } from '../devices/tables.js';
import type { InspectionTables } from '../inspections/tables.js';
import type { FreightTables } from '../freight/tables.js';

export interface AssetsTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  status: Generated<string>;
  type: Generated<string>;
  custom_type: string | null;
  vin: string | null;
  make: string | null;
  model: string | null;
  year: string | null;
  license_plate_state: string | null;
  license_plate_number: string | null;
  gvwr: number | null;
  gawr: number | null;
  length: number | null;
  length_metric_units: Generated<number>;
  weight_metric_units: Generated<number>;
  axle: number | null;
  leased: Generated<number>;
  notes: string | null;
  availability_status: Generated<string>;
  availability_updated_at: string;
  availability_updated_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface GroupAssetsTable {
  company_id: number;
  group_id: number;
  member_id: number;
  created_at: string;
}

/** External ids of assets and inspection reports: one row per (object, integration). */
export interface RecordExternalIdsTable {
  company_id: number;
  subject_type: string; // 'asset' | 'inspection_report'
  subject_id: number;
  integration_name: string;
  external_id: string;
  created_at: string;
}

/** Asset positions, written by the telemetry pipeline (one row per fix); read by /v1/asset_locations. */
export interface AssetLocationsTable {
  id: string; // uuid
  company_id: number;
  asset_id: number;
  located_at: string;
  lat: number;
  lon: number;
  bearing: number | null;
  speed: number | null;
  description: string | null;
  battery_voltage: number | null;
  created_at: string;
}

export interface AssetTables {
  assets: AssetsTable;
  group_assets: GroupAssetsTable;
  record_external_ids: RecordExternalIdsTable;
  asset_locations: AssetLocationsTable;
}

export interface RecordTables extends AssetTables, DeviceTables, InspectionTables, FreightTables {}
