/** Use cases on vehicles (wire-format §4.3). */
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { Database, VehiclesTable } from '../../storage/schema.js';
import { bool, nowIso } from '../../storage/values.js';
import { isUniqueViolation } from '../../storage/query.js';
import { duplicate, notFound, validation } from '../../http/plumbing/errors.js';
import type { Tenant } from '../tenant.js';
import { assertGroups, groupIdsOf, setMemberGroups } from '../groups/membership.js';
import { VEHICLE_BOOL_FIELDS, VEHICLE_CAMERA_FIELDS, VEHICLE_TEXT_FIELDS } from './fields.js';
import * as repo from './repository.js';
import { actingUserId } from '../users/acting.js';
import { recordEvent } from '../../events/outbox.js';

export type { VehicleRow, VehicleFilters } from './repository.js';

export interface VehicleInput {
  number?: string;
  status?: string;
  year?: string | number | null;
  fuel_type?: string | null;
  permanent_driver_id?: number | null;
  group_ids?: number[];
  availability_status?: string;
  carb_ctc_test_enabled?: boolean | null;
  [field: string]: unknown;
}

export async function getVehicle(db: Db, t: Tenant, id: number): Promise<repo.VehicleRow> {
  const row = await repo.findVehicle(db.kysely, t.companyId, id);
  if (!row) throw notFound(`vehicle ${id}`);
  return row;
}

export function listVehicles(db: Db, t: Tenant, f: repo.VehicleFilters, limit: number, offset: number) {
  return repo.listVehicles(db.kysely, t.companyId, f, limit, offset);
}

export const vehicleGroupIds = (db: Db, ids: number[]) => groupIdsOf(db.kysely, 'group_vehicles', ids);

async function assertDriver(db: Db, t: Tenant, id: number) {
  const u = await db.kysely
    .selectFrom('users')
    .select(['id', 'role'])
    .where('company_id', '=', t.companyId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!u) throw notFound(`permanent_driver_id: user ${id}`);
  if (u.role !== 'driver') throw validation('permanent_driver_id', `must name a driver; user ${id} is a ${u.role}`);
}

function columns(input: VehicleInput, actingUser: number | null): Updateable<VehiclesTable> {
  const out: Record<string, unknown> = {};
  for (const f of VEHICLE_TEXT_FIELDS) if (input[f] !== undefined) out[f] = input[f] === '' ? null : input[f];
  for (const f of VEHICLE_BOOL_FIELDS) if (input[f] !== undefined) out[f] = bool(input[f] as boolean);
  for (const f of VEHICLE_CAMERA_FIELDS) if (input[f] !== undefined) out[f] = input[f];
  if (input.number !== undefined) out.number = input.number.trim();
  if (input.status !== undefined) out.status = input.status;
  if (input.year !== undefined) out.year = input.year === null ? null : String(input.year);
  if (input.fuel_type !== undefined) out.fuel_type = input.fuel_type;
  if (input.permanent_driver_id !== undefined) out.permanent_driver_id = input.permanent_driver_id;
  if (input.carb_ctc_test_enabled !== undefined) {
    out.carb_ctc_test_enabled = input.carb_ctc_test_enabled === null ? null : bool(input.carb_ctc_test_enabled);
  }
  if (input.availability_status !== undefined) {
    out.availability_status = input.availability_status;
    out.availability_updated_at = nowIso();
    out.availability_updated_by = actingUser;
  }
  return out as Updateable<VehiclesTable>;
}

/** Who changed the availability: looked up only when the change carries one. */
async function changedBy(db: Db, t: Tenant & { actingUserId?: number | null }, input: VehicleInput) {
  return input.availability_status === undefined ? null : actingUserId(db, t);
}

async function checkInput(db: Db, t: Tenant, input: VehicleInput, exceptId = 0) {
  if (input.number !== undefined) {
    if (input.number.trim() === '') throw validation('number', 'must not be empty');
    if (await repo.numberTaken(db.kysely, t.companyId, input.number.trim(), exceptId)) {
      throw duplicate('number', input.number.trim());
    }
  }
  if (input.permanent_driver_id) await assertDriver(db, t, input.permanent_driver_id);
  await assertGroups(db.kysely, t.companyId, input.group_ids ?? []);
}

/** Records `vehicle_upserted` with a snapshot of the vehicle. */
async function announce(trx: Kysely<Database>, t: Tenant, id: number, trigger: 'created' | 'updated') {
  const data = await repo.findVehicle(trx, t.companyId, id);
  if (data) await recordEvent(trx, { companyId: t.companyId, action: 'vehicle_upserted', trigger, subject: { type: 'vehicle', id }, data });
}

function translateUnique(err: unknown, input: VehicleInput): never {
  if (isUniqueViolation(err)) throw duplicate('number', String(input.number));
  throw err;
}

export async function createVehicle(db: Db, t: Tenant & { actingUserId?: number | null }, input: VehicleInput) {
  if (input.number === undefined) throw validation('number', 'is required');
  await checkInput(db, t, input);
  const now = nowIso();
  const values = { ...columns(input, await changedBy(db, t, input)), company_id: t.companyId, created_at: now, updated_at: now };
  try {
    const id = await db.kysely.transaction().execute(async (trx) => {
      const id = await repo.insertVehicle(trx, values as Insertable<VehiclesTable>);
      if (input.group_ids) await setMemberGroups(trx, 'group_vehicles', t.companyId, id, input.group_ids);
      await announce(trx, t, id, 'created');
      return id;
    });
    return getVehicle(db, t, id);
  } catch (err) {
    translateUnique(err, input);
  }
}

export async function updateVehicle(db: Db, t: Tenant & { actingUserId?: number | null }, id: number, input: VehicleInput) {
  await getVehicle(db, t, id);
  await checkInput(db, t, input, id);
  const values = { ...columns(input, await changedBy(db, t, input)), updated_at: nowIso() };
  try {
    await db.kysely.transaction().execute(async (trx) => {
      await repo.updateVehicle(trx, t.companyId, id, values);
      if (input.group_ids) await setMemberGroups(trx, 'group_vehicles', t.companyId, id, input.group_ids);
      await announce(trx, t, id, 'updated');
    });
  } catch (err) {
    translateUnique(err, input);
  }
  return getVehicle(db, t, id);
}
