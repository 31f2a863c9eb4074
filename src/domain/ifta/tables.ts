/**
 * Kysely table types of IFTA (migration 0010_ifta). Values follow storage/values.ts: instants are
 * ISO-8601 UTC text with milliseconds, days `YYYY-MM-DD`. Units are in the column names.
 */
import type { Generated } from 'kysely';

/**
 * Distance of one vehicle in one jurisdiction during one 15-minute bucket, computed from the segments
 * whose end point falls on `owner_day` (UTC): the unit that is deleted and rewritten together.
 * `jurisdiction` is a two-letter code, or `--` for distance no jurisdiction could be found for.
 */
export interface IftaFragmentsTable {
  company_id: number;
  vehicle_id: number;
  owner_day: string;
  bucket_start: string;
  jurisdiction: string;
  distance_km: number;
  /** The part of distance_km that crossed a data gap (placed by the gap rule), for review. */
  gap_km: number;
  start_time: string;
  end_time: string;
  start_lat: number;
  start_lon: number;
  end_lat: number;
  end_lon: number;
  /** The ECM odometer (as the device reports it) and the calibrated odometer; null when unknown or uncalibrated. */
  start_odometer_km: number | null;
  end_odometer_km: number | null;
  start_calibrated_km: number | null;
  end_calibrated_km: number | null;
}

/** A vehicle's UTC day whose fragments must be recomputed before they are read; `token` changes on every marking. */
export interface IftaStaleDaysTable {
  company_id: number;
  vehicle_id: number;
  day: string;
  token: string;
}

/** The highest telemetry_records id of the company already turned into stale-day marks. */
export interface IftaProgressTable {
  company_id: number;
  last_record_id: number;
  updated_at: string;
}

/** A stable id per trip row (vehicle, local date, jurisdiction), whatever the time zone that formed the day. */
export interface IftaTripIdsTable {
  id: Generated<number>;
  company_id: number;
  vehicle_id: number;
  jurisdiction: string;
  date: string;
}

/** From `effective_from` on (until the vehicle's next calibration), calibrated odometer = ECM odometer + offset_km. */
export interface IftaOdometerCalibrationsTable {
  id: Generated<number>;
  company_id: number;
  vehicle_id: number;
  effective_from: string;
  offset_km: number;
  note: string | null;
  created_at: string;
  updated_at: string;
}

export interface IftaTables {
  ifta_fragments: IftaFragmentsTable;
  ifta_stale_days: IftaStaleDaysTable;
  ifta_progress: IftaProgressTable;
  ifta_trip_ids: IftaTripIdsTable;
  ifta_odometer_calibrations: IftaOdometerCalibrationsTable;
}
