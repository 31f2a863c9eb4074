/** The devices area's read of a company's live devices bound to a vehicle (the simulator picks its ELDs from them). */
import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';

export interface LiveVehicleDevice {
  id: number;
  vehicle_id: number | null;
  identifier: string;
}

/** The company's devices that are not revoked and are bound to a vehicle (in no particular order). */
export function liveVehicleDevices(db: Kysely<Database>, companyId: number): Promise<LiveVehicleDevice[]> {
  return db
    .selectFrom('devices')
    .select(['id', 'vehicle_id', 'identifier'])
    .where('company_id', '=', companyId)
    .where('revoked_at', 'is', null)
    .where('vehicle_id', 'is not', null)
    .execute();
}

/** The ids of vehicles with a live device, as a subquery to filter on (`where vehicles.id in …`). */
export function vehiclesWithLiveDevice(db: Kysely<Database>) {
  return db
    .selectFrom('devices')
    .select('devices.vehicle_id')
    .where('devices.revoked_at', 'is', null)
    .where('devices.vehicle_id', 'is not', null);
}
