/**
 * Data of the domain events telemetry records (docs/reference/wire.md §7.6): flat snapshots in wire units with
 * ids, which webhook delivery sends as the payload (plus `action`).
 */
import type { Insertable } from 'kysely';
import { wireTime } from '../../storage/values.js';
import type { TelemetryRecordsTable } from './tables.js';
import type { VehicleLocationsLatestTable } from '../../domain/freight/tables.js';

/** A row of vehicle_locations_latest, as telemetry writes it (the table belongs to the freight area). */
export type LatestRow = Omit<VehicleLocationsLatestTable, 'company_id' | 'updated_at'>;

/** `vehicle_location_updated`: {id, vehicle_id, located_at, lat, lon, bearing, engine_hours, speed, odometer, fuel, type, description}. */
export function locationPayload(row: LatestRow, rec: Insertable<TelemetryRecordsTable>) {
  return {
    id: row.id,
    vehicle_id: row.vehicle_id,
    located_at: wireTime(row.located_at),
    lat: row.lat,
    lon: row.lon,
    bearing: row.bearing,
    engine_hours: row.engine_hours,
    speed: row.speed,
    odometer: row.odometer,
    fuel: row.fuel,
    type: row.type,
    description: row.description,
    driver_id: row.driver_id,
    eld_device_id: rec.device_id,
  };
}
