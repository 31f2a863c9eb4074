/**
 * Ids a record's body refers to (its driver, vehicle or receipt document). Each must belong to the
 * caller's company; one that does not is a 404 naming the field, as for a vehicle's permanent driver.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { notFound, validation } from '../../core/errors.js';
import { vehicleRef } from '../vehicles/refs.js';
import { userRef } from '../users/refs.js';

export async function assertVehicle(
  db: Kysely<Database>,
  companyId: number,
  id: number,
  field = 'vehicle_id',
): Promise<void> {
  const v = await vehicleRef(db, companyId, id);
  if (!v) throw notFound(`${field}: vehicle ${id}`);
}

export async function assertDriver(
  db: Kysely<Database>,
  companyId: number,
  id: number,
  field = 'driver_id',
): Promise<void> {
  const u = await userRef(db, companyId, id);
  if (!u) throw notFound(`${field}: user ${id}`);
  if (u.role !== 'driver') throw validation(field, `must name a driver; user ${id} is a ${u.role}`);
}

export async function assertDocument(
  db: Kysely<Database>,
  companyId: number,
  id: number,
  field = 'receipt_document_id',
): Promise<void> {
  const d = await db
    .selectFrom('documents')
    .select('id')
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!d) throw notFound(`${field}: document ${id}`);
}

/** Checks every reference that is set (null and undefined are not references). */
export async function assertReferences(
  db: Kysely<Database>,
  companyId: number,
  refs: { vehicle_id?: number | null; driver_id?: number | null; receipt_document_id?: number | null },
): Promise<void> {
  if (refs.vehicle_id) await assertVehicle(db, companyId, refs.vehicle_id);
  if (refs.driver_id) await assertDriver(db, companyId, refs.driver_id);
  if (refs.receipt_document_id) await assertDocument(db, companyId, refs.receipt_document_id);
}
