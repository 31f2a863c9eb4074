/** Tenant-scoped queries on vehicles. */
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database, VehiclesTable } from '../../storage/schema.js';
import { countOf } from '../../storage/query.js';

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
    const gid = f.group_id;
    q = q.where('vehicles.id', 'in', (s) =>
      s.selectFrom('group_vehicles').select('member_id').where('group_id', '=', gid),
    );
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
