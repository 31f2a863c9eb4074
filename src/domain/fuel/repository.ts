/** Tenant-scoped queries on fuel purchases. */
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { countOf } from '../../storage/query.js';
import { toIso } from '../../storage/values.js';
import { iftaVehicleIds } from '../vehicles/ifta.js';
import type { FuelPurchasesTable } from './tables.js';

export type FuelPurchaseRow = Selectable<FuelPurchasesTable>;

export interface FuelFilters {
  window?: { start: Date; end: Date };
  vehicle_ids?: number[];
  fuel_type?: string;
  jurisdictions?: string[];
  vehicle_type?: string;
  source?: string;
}

function filtered(db: Kysely<Database>, companyId: number, f: FuelFilters) {
  let q = db.selectFrom('fuel_purchases').where('fuel_purchases.company_id', '=', companyId);
  if (f.window) {
    q = q
      .where('fuel_purchases.purchased_at', '>=', toIso(f.window.start))
      .where('fuel_purchases.purchased_at', '<', toIso(f.window.end));
  }
  if (f.vehicle_ids?.length) q = q.where('fuel_purchases.vehicle_id', 'in', f.vehicle_ids);
  if (f.fuel_type) q = q.where('fuel_purchases.fuel_type', '=', f.fuel_type);
  if (f.jurisdictions?.length) q = q.where('fuel_purchases.jurisdiction', 'in', f.jurisdictions);
  if (f.source) q = q.where('fuel_purchases.source', '=', f.source);
  if (f.vehicle_type === 'ifta') {
    q = q.where('fuel_purchases.vehicle_id', 'in', iftaVehicleIds(db, companyId));
  }
  return q;
}

export async function listFuelPurchases(
  db: Kysely<Database>,
  companyId: number,
  f: FuelFilters,
  limit: number,
  offset: number,
) {
  const base = filtered(db, companyId, f);
  const [rows, total] = await Promise.all([
    base.selectAll('fuel_purchases').orderBy('fuel_purchases.id').limit(limit).offset(offset).execute(),
    countOf(base.select('fuel_purchases.id')),
  ]);
  return { rows, total };
}

export function findFuelPurchase(
  db: Kysely<Database>,
  companyId: number,
  id: number,
): Promise<FuelPurchaseRow | undefined> {
  return db
    .selectFrom('fuel_purchases')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function offlineIdTaken(
  db: Kysely<Database>,
  companyId: number,
  offlineId: string,
  exceptId = 0,
): Promise<boolean> {
  const row = await db
    .selectFrom('fuel_purchases')
    .select('id')
    .where('company_id', '=', companyId)
    .where('offline_id', '=', offlineId)
    .where('id', '!=', exceptId)
    .executeTakeFirst();
  return !!row;
}

export async function insertFuelPurchase(
  db: Kysely<Database>,
  values: Insertable<FuelPurchasesTable>,
): Promise<number> {
  return (await db.insertInto('fuel_purchases').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

export async function updateFuelPurchase(
  db: Kysely<Database>,
  companyId: number,
  id: number,
  values: Updateable<FuelPurchasesTable>,
) {
  await db.updateTable('fuel_purchases').set(values).where('company_id', '=', companyId).where('id', '=', id).execute();
}

export async function deleteFuelPurchase(db: Kysely<Database>, companyId: number, id: number) {
  await db.deleteFrom('fuel_purchases').where('company_id', '=', companyId).where('id', '=', id).execute();
}

/** A deleted document's receipts: the purchases that named it keep no receipt (src/domain/documents). */
export function dropReceipt(db: Kysely<Database>, companyId: number, documentId: number) {
  return db
    .updateTable('fuel_purchases')
    .set({ receipt_document_id: null })
    .where('company_id', '=', companyId)
    .where('receipt_document_id', '=', documentId)
    .execute();
}

/** The fuel bought by these vehicles in [fromIso, toIso), for the IFTA report (src/domain/ifta/quarterly.ts). */
export function fuelBought(
  db: Kysely<Database>,
  companyId: number,
  vehicleIds: number[],
  fromIso: string,
  toIso: string,
) {
  return db
    .selectFrom('fuel_purchases')
    .select(['vehicle_id', 'jurisdiction', 'fuel_type', 'fuel', 'fuel_unit'])
    .where('company_id', '=', companyId)
    .where('vehicle_id', 'in', vehicleIds)
    .where('purchased_at', '>=', fromIso)
    .where('purchased_at', '<', toIso)
    .execute();
}
