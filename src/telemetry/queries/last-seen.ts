/**
 * When vehicles last reported and where one was last seen: what the simulator reads before it drives a
 * vehicle (a vehicle another simulator drives now is left alone; a new run goes on from the last fix).
 */
import type { Db } from '../../storage/db.js';

/** When the server last received a record of each of the company's `vehicleIds` (vehicles never heard from left out). */
export async function lastReceived(
  db: Db,
  companyId: number,
  vehicleIds: number[],
): Promise<{ vehicle_id: number | null; last_received_at: string }[]> {
  return db.kysely
    .selectFrom('telemetry_state')
    .select(['vehicle_id', 'last_received_at'])
    .where('company_id', '=', companyId)
    .where('vehicle_id', 'in', vehicleIds)
    .execute();
}

/** The vehicle's latest stored location record (any device's), or undefined. */
export function lastLocationRecord(db: Db, vehicleId: number) {
  return db.kysely
    .selectFrom('telemetry_records')
    .select(['fix_time', 'lat', 'lon', 'description', 'odometer_km', 'engine_hours', 'fuel_used_l', 'fuel_level_pct'])
    .where('vehicle_id', '=', vehicleId)
    .where('type', '=', 'location')
    .orderBy('fix_time', 'desc')
    .limit(1)
    .executeTakeFirst();
}
