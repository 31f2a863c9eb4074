/**
 * What another area reads of a vehicle it refers to (the vehicle of a dispatch, document or inspection
 * report): the vehicles area owns the query. It takes the caller's transaction when there is one.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';

export interface VehicleRef {
  id: number;
  number: string;
}

/** The company's vehicle `id`, or undefined. */
export function vehicleRef(db: Kysely<Database>, companyId: number, id: number): Promise<VehicleRef | undefined> {
  return db
    .selectFrom('vehicles')
    .select(['id', 'number'])
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The company's vehicles among `ids` (in no particular order; missing ones left out). */
export function vehicleRefs(db: Kysely<Database>, companyId: number, ids: number[]): Promise<VehicleRef[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('vehicles')
    .select(['id', 'number'])
    .where('company_id', '=', companyId)
    .where('id', 'in', ids)
    .execute();
}
