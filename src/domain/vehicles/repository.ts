/** Tenant-scoped queries on vehicles. */
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database, VehiclesTable } from '../../storage/schema.js';
import { countOf } from '../../storage/query.js';
import { membersOf } from '../groups/membership.js';

export type VehicleRow = Selectable<VehiclesTable>;

export interface VehicleFilters {
  driver_ids?: number[];
  fuel_type?: string;
  status?: string;
  ids?: number[];
  group_id?: number;
}

function filtered(db: Kysely<Database>, companyId: number, f: VehicleFilters) {
  let q = db.selectFrom('vehicles').where('vehicles.company_id', '=', companyId);
  if (f.status) q = q.where('vehicles.status', '=', f.status);
  if (f.fuel_type) q = q.where('vehicles.fuel_type', '=', f.fuel_type);
  if (f.ids) q = q.where('vehicles.id', 'in', f.ids.length ? f.ids : [0]);
  if (f.driver_ids?.length) {
    const ids = f.driver_ids;
    q = q.where((eb) =>
      eb.or([eb('vehicles.current_driver_id', 'in', ids), eb('vehicles.permanent_driver_id', 'in', ids)]),
    );
  }
  if (f.group_id !== undefined) {
    q = q.where('vehicles.id', 'in', membersOf(db, 'group_vehicles', f.group_id));
  }
  return q;
}

export async function listVehicles(
  db: Kysely<Database>,
  companyId: number,
  f: VehicleFilters,
  limit: number,
  offset: number,
) {
  const base = filtered(db, companyId, f);
  const [rows, total] = await Promise.all([
    base.selectAll('vehicles').orderBy('vehicles.id').limit(limit).offset(offset).execute(),
    countOf(base.select('vehicles.id')),
  ]);
  return { rows, total };
}

export function findVehicle(db: Kysely<Database>, companyId: number, id: number): Promise<VehicleRow | undefined> {
  return db
    .selectFrom('vehicles')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function numberTaken(db: Kysely<Database>, companyId: number, number: string, exceptId = 0) {
  const row = await db
    .selectFrom('vehicles')
    .select('id')
    .where('company_id', '=', companyId)
    .where('number', '=', number)
    .where('id', '!=', exceptId)
    .executeTakeFirst();
  return !!row;
}

export async function insertVehicle(db: Kysely<Database>, values: Insertable<VehiclesTable>): Promise<number> {
  return (await db.insertInto('vehicles').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

export async function updateVehicle(
  db: Kysely<Database>,
  companyId: number,
  id: number,
  values: Updateable<VehiclesTable>,
) {
  await db.updateTable('vehicles').set(values).where('company_id', '=', companyId).where('id', '=', id).execute();
}

/**
 * The company's vehicles (those among `ids` when given), for the caller to select, page and count, and to
 * narrow further in SQL (the location lists keep the vehicles with a live device or a known position).
 */
export function vehiclesQuery(
  db: Kysely<Database>,
  companyId: number,
  f: { ids?: readonly number[]; status?: string } = {},
) {
  let q = db.selectFrom('vehicles').where('vehicles.company_id', '=', companyId);
  if (f.ids?.length) q = q.where('vehicles.id', 'in', [...f.ids]);
  if (f.status) q = q.where('vehicles.status', '=', f.status);
  return q;
}

/** The vehicles among `ids`, whatever their company (the caller's ids come from its own rows). */
export function vehiclesByIds(db: Kysely<Database>, ids: number[]): Promise<VehicleRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('vehicles').selectAll().where('id', 'in', ids).execute();
}

/** The company's vehicles whose current driver is among `driverIds`, by id. */
export function vehiclesDrivenBy(db: Kysely<Database>, companyId: number, driverIds: number[]): Promise<VehicleRow[]> {
  if (driverIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('vehicles')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('current_driver_id', 'in', driverIds)
    .orderBy('id')
    .execute();
}

/** The company's vehicles with their drivers, by id (only the active ones when told): the simulator and the demo. */
export function vehicleDrivers(db: Kysely<Database>, companyId: number, opts: { activeOnly?: boolean } = {}) {
  let q = db
    .selectFrom('vehicles')
    .select(['id', 'permanent_driver_id', 'current_driver_id'])
    .where('company_id', '=', companyId);
  if (opts.activeOnly) q = q.where('status', '=', 'active');
  return q.orderBy('id').execute();
}

/** Ids of the company's vehicles in id order, the first `limit` when given (the demo). */
export async function vehicleIdsOf(db: Kysely<Database>, companyId: number, limit?: number): Promise<number[]> {
  let q = db.selectFrom('vehicles').select('id').where('company_id', '=', companyId).orderBy('id');
  if (limit !== undefined) q = q.limit(limit);
  return (await q.execute()).map((r) => r.id);
}

/** Inserts many vehicles of one company at once (the demo fleet) and returns their ids by number. */
export async function insertVehicleRows(
  db: Kysely<Database>,
  companyId: number,
  rows: Insertable<VehiclesTable>[],
): Promise<Map<string, number>> {
  await db.insertInto('vehicles').values(rows).execute();
  const saved = await db.selectFrom('vehicles').select(['id', 'number']).where('company_id', '=', companyId).execute();
  return new Map(saved.map((v) => [v.number, v.id]));
}
