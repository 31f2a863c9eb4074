/**
 * What freight visibility reads of a carrier's vehicles (src/domain/freight): the vehicles area owns the
 * queries. The shipper's side (shares, subscriptions) stays with freight, which filters or joins on these.
 */
import type { Kysely } from 'kysely';
import type { DbKind } from '../../storage/db.js';
import type { Database } from '../../storage/schema.js';

/** How a subscription names the carrier's vehicle: by id, by number, or by the user driving it. */
export type CarrierVehicleKey = { id: number } | { number: string } | { currentDriverId: number };

/** The carrier's vehicle named by `key` (the lowest id when several match), or undefined. */
export function carrierVehicle(
  db: Kysely<Database>,
  carrierId: number,
  key: CarrierVehicleKey,
): Promise<{ id: number; number: string; status: string } | undefined> {
  let q = db.selectFrom('vehicles').select(['id', 'number', 'status']).where('company_id', '=', carrierId);
  if ('id' in key) q = q.where('id', '=', key.id);
  else if ('number' in key) q = q.where('number', '=', key.number);
  else q = q.where('current_driver_id', '=', key.currentDriverId);
  return q.orderBy('id').executeTakeFirst();
}

/** Locks the vehicle's row for the rest of the transaction on PostgreSQL (SQLite locks the whole file). */
export async function lockVehicleRow(trx: Kysely<Database>, kind: DbKind, vehicleId: number): Promise<void> {
  if (kind === 'postgres')
    await trx.selectFrom('vehicles').select('id').where('id', '=', vehicleId).forUpdate().execute();
}

/** The id and number of every vehicle, to join as a derived table (`.as('v')`) on a vehicle id. */
export function vehicleNumbers(db: Kysely<Database>) {
  return db.selectFrom('vehicles').select(['vehicles.id', 'vehicles.number']);
}

/** The carrier's active vehicles, for the caller to narrow to those it may see (`where('id', 'in', …)`). */
export function activeCarrierVehicles(db: Kysely<Database>, carrierId: number) {
  return db.selectFrom('vehicles').selectAll().where('company_id', '=', carrierId).where('status', '=', 'active');
}
