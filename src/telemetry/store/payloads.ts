/**
 * Data of the domain events telemetry records (wire-format §7.6): flat snapshots in wire units with
 * ids, which webhook delivery sends as the payload (plus `action`).
 */
import type { Insertable } from 'kysely';
import { wireTime } from '../../storage/values.js';
import type { TelemetryRecordsTable } from './tables.js';

export interface LatestRow {
  vehicle_id: number;
  id: string;
  located_at: string;
  lat: number;
  lon: number;
  bearing: number | null;
  speed: number | null;
  description: string | null;
  odometer: number | null;
  engine_hours: number | null;
  fuel: number | null;
  type: string | null;
  driver_id: number | null;
}

/** `vehicle_location_updated`: {id, vehicle_id, located_at, lat, lon, bearing, engine_hours, speed, odometer, fuel, type, description}. */
export function locationPayload(row: LatestRow, rec: Insertable<TelemetryRecordsTable>) {
  return {
    id: row.id, vehicle_id: row.vehicle_id, located_at: wireTime(row.located_at), lat: row.lat, lon: row.lon,
    bearing: row.bearing, engine_hours: row.engine_hours, speed: row.speed, odometer: row.odometer, fuel: row.fuel,
    type: row.type, description: row.description, driver_id: row.driver_id, eld_device_id: rec.device_id,
  };
}
