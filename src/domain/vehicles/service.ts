/** Use cases on vehicles (docs/reference/wire.md §4.3; docs/vehicles.md). */
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { Database, VehiclesTable } from '../../storage/schema.js';
import { bool, nowIso } from '../../storage/values.js';
import { isUniqueViolation } from '../../storage/query.js';
import { duplicate, notFound, validation } from '../../core/errors.js';
import type { Tenant } from '../tenant.js';
import { assertGroups, groupIdsOf, setMemberGroups } from '../groups/membership.js';
import { VEHICLE_BOOL_FIELDS, VEHICLE_CAMERA_FIELDS, VEHICLE_TEXT_FIELDS } from './fields.js';
import * as repo from './repository.js';
import type { VehicleInput } from './input.js';
import { actingUserId } from '../users/acting.js';
import { recordEvent } from '../../events/outbox.js';
import { availabilityChange, availabilityInput } from './availability.js';
import {
  assertExternalIdsFree,
  externalIdsOf,
  normalizeExternalIds,
  setExternalIds,
  type ExternalId,
} from '../assets/external-ids.js';
import { userRef } from '../users/refs.js';

export type { VehicleRow, VehicleFilters } from './repository.js';
export type { VehicleInput } from './input.js';

export async function getVehicle(db: Db, t: Tenant, id: number): Promise<repo.VehicleRow> {
  const row = await repo.findVehicle(db.kysely, t.companyId, id);
  if (!row) throw notFound(`vehicle ${id}`);
  return row;
}

export function listVehicles(db: Db, t: Tenant, f: repo.VehicleFilters, limit: number, offset: number) {
  return repo.listVehicles(db.kysely, t.companyId, f, limit, offset);
}

export const vehicleGroupIds = (db: Db, ids: number[]) => groupIdsOf(db.kysely, 'group_vehicles', ids);
export const vehicleExternalIds = (db: Pick<Db, 'kysely'>, ids: number[]) => externalIdsOf(db.kysely, 'vehicle', ids);

async function assertDriver(db: Db, t: Tenant, id: number) {
  const u = await userRef(db.kysely, t.companyId, id);
  if (!u) throw notFound(`permanent_driver_id: user ${id}`);
  if (u.role !== 'driver') throw validation('permanent_driver_id', `must name a driver; user ${id} is a ${u.role}`);
}

function columns(input: VehicleInput): Updateable<VehiclesTable> {
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
  return out as Updateable<VehiclesTable>;
}

/**
 * The availability columns a create or an update sets, stamped with who made the change (a vehicle
 * is created in service unless the request says otherwise); none when the availability is unchanged.
 */
async function availability(
  db: Db,
  t: Tenant & { actingUserId?: number | null },
  input: VehicleInput,
  current?: repo.VehicleRow,
) {
  const wanted = availabilityInput(input.availability_status, input.availability_details);
  const next = wanted || !current ? availabilityChange(current, wanted ?? {}) : undefined;
  if (!next) return {};
  return { ...next, availability_updated_at: nowIso(), availability_updated_by: await actingUserId(db, t) };
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

/** Records `vehicle_upserted` with a snapshot of the vehicle and its external ids. */
async function announce(trx: Kysely<Database>, t: Tenant, id: number, trigger: 'created' | 'updated') {
  const row = await repo.findVehicle(trx, t.companyId, id);
  if (!row) return;
  const data = { ...row, external_ids: (await externalIdsOf(trx, 'vehicle', [id])).get(id) ?? [] };
  await recordEvent(trx, {
    companyId: t.companyId,
    action: 'vehicle_upserted',
    trigger,
    subject: { type: 'vehicle', id },
    data,
  });
}

/** Two writes racing for one number or external id: the unique index decides, the loser gets a 400. */
async function translateUnique(
  db: Db,
  t: Tenant,
  err: unknown,
  input: VehicleInput,
  id: number,
  externalIds: ExternalId[],
): Promise<never> {
  if (isUniqueViolation(err)) {
    await assertExternalIdsFree(db.kysely, t.companyId, 'vehicle', id, externalIds);
    throw duplicate('number', String(input.number));
  }
  throw err;
}

const externalIdsOfInput = (input: VehicleInput) =>
  input.external_ids_attributes === undefined
    ? undefined
    : normalizeExternalIds('external_ids_attributes', input.external_ids_attributes);

export async function createVehicle(db: Db, t: Tenant & { actingUserId?: number | null }, input: VehicleInput) {
  if (input.number === undefined) throw validation('number', 'is required');
  const externalIds = externalIdsOfInput(input) ?? [];
  await checkInput(db, t, input);
  await assertExternalIdsFree(db.kysely, t.companyId, 'vehicle', 0, externalIds);
  const now = nowIso();
  const values = {
    ...columns(input),
    ...(await availability(db, t, input)),
    company_id: t.companyId,
    created_at: now,
    updated_at: now,
  };
  try {
    const id = await db.kysely.transaction().execute(async (trx) => {
      const id = await repo.insertVehicle(trx, values as Insertable<VehiclesTable>);
      if (input.group_ids) await setMemberGroups(trx, 'group_vehicles', t.companyId, id, input.group_ids);
      await setExternalIds(trx, t.companyId, 'vehicle', id, externalIds);
      await announce(trx, t, id, 'created');
      return id;
    });
    return getVehicle(db, t, id);
  } catch (err) {
    return translateUnique(db, t, err, input, 0, externalIds);
  }
}

export async function updateVehicle(
  db: Db,
  t: Tenant & { actingUserId?: number | null },
  id: number,
  input: VehicleInput,
) {
  const current = await getVehicle(db, t, id);
  const externalIds = externalIdsOfInput(input);
  await checkInput(db, t, input, id);
  if (externalIds) await assertExternalIdsFree(db.kysely, t.companyId, 'vehicle', id, externalIds);
  const values = { ...columns(input), ...(await availability(db, t, input, current)), updated_at: nowIso() };
  try {
    await db.kysely.transaction().execute(async (trx) => {
      await repo.updateVehicle(trx, t.companyId, id, values);
      if (input.group_ids) await setMemberGroups(trx, 'group_vehicles', t.companyId, id, input.group_ids);
      if (externalIds) await setExternalIds(trx, t.companyId, 'vehicle', id, externalIds);
      await announce(trx, t, id, 'updated');
    });
  } catch (err) {
    await translateUnique(db, t, err, input, id, externalIds ?? []);
  }
  return getVehicle(db, t, id);
}
