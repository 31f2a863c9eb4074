/** Kysely table types of driver vehicle inspection reports (migration 0005_assets_devices). */
import type { Generated } from 'kysely';

export interface InspectionReportsTable {
  id: Generated<number>;
  company_id: number;
  driver_id: number;
  vehicle_id: number;
  mechanic_id: number | null;
  /** The HOS log the report belongs to; set by the hours-of-service area, null until then. */
  log_id: number | null;
  inspection_type: string | null;
  /** The inspection's day in the company's time zone (YYYY-MM-DD). */
  date: string;
  time: string;
  odometer: number | null;
  carrier_name: string | null;
  vehicle_number: string | null;
  trailer_nums: Generated<string>; // JSON array of strings
  location: string | null;
  city: string | null;
  state: string | null;
  /** satisfactory | unknown | harmless | corrected (inspections/status.ts). */
  status: string;
  defect_count: Generated<number>;
  mechanic_signed_at: string | null;
  mechanic_signature_url: string | null;
  mechanic_note: string | null;
  driver_signed_at: string | null;
  driver_signature_url: string | null;
  created_at: string;
  updated_at: string;
}

export interface InspectionDefectsTable {
  id: Generated<number>;
  company_id: number;
  report_id: number;
  position: number;
  area: string;
  category: string;
  notes: string | null;
  /** open | repaired | no_repair_needed */
  status: Generated<string>;
  resolved_by: number | null;
  resolved_at: string | null;
  resolution_note: string | null;
  created_at: string;
}

export interface InspectionTables {
  inspection_reports: InspectionReportsTable;
  inspection_defects: InspectionDefectsTable;
}
