/** Embedded user and vehicle summaries of a page of records, loaded with one query each. */
import type { Db } from '../storage/db.js';
import { userSummaryRows } from '../domain/users/summaries.js';
import { VEHICLE_SUMMARY_COLUMNS, userSummary, vehicleSummary, type VehicleSummaryRow } from './summaries.js';

type MaybeId = number | null | undefined;

export interface Summaries {
  user(id: MaybeId): ReturnType<typeof userSummary> | null;
  vehicle(id: MaybeId): ReturnType<typeof vehicleSummary> | null;
}

export async function loadSummaries(db: Db, companyId: number, userIds: MaybeId[], vehicleIds: MaybeId[] = []): Promise<Summaries> {
  const wantedVehicles = [...new Set(vehicleIds.filter((x): x is number => typeof x === 'number'))];
  const [users, vehicles] = await Promise.all([
    userSummaryRows(db, companyId, userIds),
    wantedVehicles.length
      ? db.kysely.selectFrom('vehicles').select([...VEHICLE_SUMMARY_COLUMNS]).where('company_id', '=', companyId).where('id', 'in', wantedVehicles).execute()
      : Promise.resolve([] as VehicleSummaryRow[]),
  ]);
  const byVehicle = new Map(vehicles.map((v) => [v.id, v]));
  return {
    user(id) {
      const u = typeof id === 'number' ? users.get(id) : undefined;
      return u ? userSummary(u) : null;
    },
    vehicle(id) {
      const v = typeof id === 'number' ? byVehicle.get(id) : undefined;
      return v ? vehicleSummary(v) : null;
    },
  };
}
