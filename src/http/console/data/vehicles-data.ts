/**
 * What the vehicles pages read and decide for the signed-in viewer, through the vehicles and groups
 * services: a fleet manager whose group visibility is "limited" sees, edits and files vehicles only in
 * their own groups, and never takes a vehicle out of their view by editing it.
 */
import type { Db } from '../../../storage/db.js';
import { notFound, validation } from '../../../core/errors.js';
import { getVehicle, listVehicles, vehicleGroupIds, type VehicleRow } from '../../../domain/vehicles/service.js';
import { listGroups } from '../../../domain/groups/service.js';
import { groupIdsOf } from '../../../domain/groups/membership.js';
import type { Viewer } from './data.js';

export const VEHICLES_PER_PAGE = 100;
/** More groups than a form can offer as checkboxes; a company with more manages them through the API. */
const GROUPS_MAX = 1000;

export interface GroupChoice {
  id: number;
  name: string;
}

export interface VehicleListRow {
  row: VehicleRow;
  /** Names of the vehicle's groups the viewer may see. */
  groups: string[];
}

/** The groups the viewer may put vehicles in: all of the company's, or a limited manager's own. */
export async function assignableGroups(db: Db, v: Viewer): Promise<GroupChoice[]> {
  const all = (await listGroups(db, v, GROUPS_MAX, 0)).rows.map((g) => ({ id: g.id, name: g.name }));
  if (v.vehicleIds === null) return all;
  const own = new Set((await groupIdsOf(db.kysely, 'group_users', [v.userId])).get(v.userId) ?? []);
  return all.filter((g) => own.has(g.id));
}

/** A vehicle the viewer may see, or 404 — the same answer as a vehicle of another company. */
export async function visibleVehicle(db: Db, v: Viewer, id: number): Promise<VehicleRow> {
  if (v.vehicleIds !== null && !v.vehicleIds.has(id)) throw notFound(`vehicle ${id}`);
  return getVehicle(db, v, id);
}

/** The group ids of one vehicle. */
export async function groupsOfVehicle(db: Db, id: number): Promise<number[]> {
  return (await vehicleGroupIds(db, [id])).get(id) ?? [];
}

/** One page of the viewer's vehicles in id order, with a status filter, and their group names. */
export async function vehicleListPage(
  db: Db,
  v: Viewer,
  status: string | undefined,
  page: number,
): Promise<{ rows: VehicleListRow[]; total: number }> {
  const filters = { ...(status ? { status } : {}), ...(v.vehicleIds === null ? {} : { ids: [...v.vehicleIds] }) };
  return withGroupNames(db, v, listVehicles(db, v, filters, VEHICLES_PER_PAGE, (page - 1) * VEHICLES_PER_PAGE), (ids) =>
    vehicleGroupIds(db, ids),
  );
}

/**
 * A page of rows (users or vehicles), each with the names of its groups among those the viewer may
 * see; `groupIdsOf` gives the group ids of the rows' ids.
 */
export async function withGroupNames<R extends { id: number }>(
  db: Db,
  v: Viewer,
  page: Promise<{ rows: R[]; total: number }>,
  groupIdsOf: (ids: number[]) => Promise<Map<number, number[]>>,
): Promise<{ rows: { row: R; groups: string[] }[]; total: number }> {
  const [{ rows, total }, groups] = await Promise.all([page, assignableGroups(db, v)]);
  const names = new Map(groups.map((g) => [g.id, g.name]));
  const memberships = await groupIdsOf(rows.map((r) => r.id));
  return {
    rows: rows.map((row) => ({
      row,
      groups: (memberships.get(row.id) ?? []).flatMap((g) => (names.has(g) ? [names.get(g)!] : [])),
    })),
    total,
  };
}

/**
 * The group_ids to store for the groups chosen on the form. For a limited manager: only their own
 * groups may be chosen (another is "not found", as the API says of another company's group), at least
 * one of them, and the vehicle keeps the groups they cannot see.
 */
export function groupIdsToStore(db: Db, v: Viewer, chosen: number[], vehicleId?: number): Promise<number[]> {
  return groupsToStore(db, v, chosen, 'vehicle', vehicleId === undefined ? null : () => groupsOfVehicle(db, vehicleId));
}

/**
 * The groups a vehicle or a driver (`what`) will be in after its form, by the rules above; `current`
 * gives the groups it is in now (null for a new one).
 */
export async function groupsToStore(
  db: Db,
  v: Viewer,
  chosen: number[],
  what: 'vehicle' | 'driver',
  current: (() => Promise<number[]>) | null,
): Promise<number[]> {
  if (v.vehicleIds === null) return chosen;
  const own = new Set((await assignableGroups(db, v)).map((g) => g.id));
  const foreign = chosen.find((g) => !own.has(g));
  if (foreign !== undefined) throw notFound(`group ${foreign}`);
  if (chosen.length === 0)
    throw validation('group_ids', `must name at least one of your groups: outside them the ${what} would leave your view`);
  const kept = current === null ? [] : (await current()).filter((g) => !own.has(g));
  return [...kept, ...chosen];
}
