/**
 * The company's vehicles marked `ifta`, as the IFTA reports and the fuel purchase filters read them: the
 * vehicles area owns the query, as rows or as a subquery of ids to filter on in SQL.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';

/** The ids of the company's IFTA vehicles, a subquery for `where(column, 'in', …)`. */
export function iftaVehicleIds(db: Kysely<Database>, companyId: number) {
  return db
    .selectFrom('vehicles')
    .select('vehicles.id')
    .where('vehicles.company_id', '=', companyId)
    .where('vehicles.ifta', '=', 1);
}

/** The company's IFTA vehicles among `vehicleIds` (all when empty) with `fuelType`, by id. */
export function iftaVehicleFuelTypes(
  db: Kysely<Database>,
  companyId: number,
  q: { vehicleIds?: number[]; fuelType?: string },
): Promise<{ id: number; fuel_type: string | null }[]> {
  let s = db
    .selectFrom('vehicles')
    .select(['id', 'fuel_type'])
    .where('company_id', '=', companyId)
    .where('ifta', '=', 1);
  if (q.vehicleIds?.length) s = s.where('id', 'in', q.vehicleIds);
  if (q.fuelType) s = s.where('fuel_type', '=', q.fuelType);
  return s.orderBy('id').execute();
}
