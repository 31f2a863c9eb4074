/**
 * What the groups pages read for the signed-in viewer, through the groups, users and vehicles
 * services: the groups they see (a limited fleet manager: their own), a group's members, and who or
 * what could join it.
 */
import type { Db } from '../../../storage/db.js';
import { notFound } from '../../../core/errors.js';
import { getGroup, listGroups, type GroupRow } from '../../../domain/groups/service.js';
import { memberCounts } from '../../../domain/groups/counts.js';
import { listUsers, type UserRow } from '../../../domain/users/service.js';
import { listVehicles, type VehicleRow } from '../../../domain/vehicles/service.js';
import type { Viewer } from './data.js';
import { assignableGroups } from './vehicles-data.js';
import { mayMoveUser } from '../views/groups-access.js';

/** More than a page offers (as with the vehicle form's groups); a larger company uses the API. */
const MAX = 1000;

export interface GroupListRow {
  row: GroupRow;
  parent: string | null;
  vehicles: number;
  users: number;
}

/** The groups the viewer sees, by name. */
export async function visibleGroups(db: Db, v: Viewer): Promise<GroupRow[]> {
  const all = (await listGroups(db, v, MAX, 0)).rows;
  const rows =
    v.vehicleIds === null
      ? all
      : ((own) => all.filter((g) => own.has(g.id)))(new Set((await assignableGroups(db, v)).map((g) => g.id)));
  return rows.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

export async function groupListRows(db: Db, v: Viewer): Promise<GroupListRow[]> {
  const rows = await visibleGroups(db, v);
  const ids = rows.map((g) => g.id);
  const [vehicles, users] = await Promise.all([
    memberCounts(db, v, 'group_vehicles', ids),
    memberCounts(db, v, 'group_users', ids),
  ]);
  const names = new Map((await listGroups(db, v, MAX, 0)).rows.map((g) => [g.id, g.name]));
  return rows.map((row) => ({
    row,
    parent: row.parent_id === null ? null : (names.get(row.parent_id) ?? null),
    vehicles: vehicles.get(row.id) ?? 0,
    users: users.get(row.id) ?? 0,
  }));
}

/** A group the viewer sees, or 404 — the same answer as a group of another company. */
export async function visibleGroup(db: Db, v: Viewer, id: number): Promise<GroupRow> {
  const row = await getGroup(db, v, id);
  if (v.vehicleIds !== null && !(await assignableGroups(db, v)).some((g) => g.id === id)) throw notFound(`group ${id}`);
  return row;
}

export interface GroupMembers {
  vehicles: VehicleRow[];
  users: UserRow[];
  /** What the viewer could add: vehicles and users of the company not in the group. */
  vehicleChoices: VehicleRow[];
  userChoices: UserRow[];
}

export async function groupMembers(db: Db, v: Viewer, groupId: number, withChoices: boolean): Promise<GroupMembers> {
  const [vehicles, users] = await Promise.all([
    listVehicles(db, v, { group_id: groupId }, MAX, 0),
    listUsers(db, v, { group_id: groupId }, MAX, 0),
  ]);
  if (!withChoices) return { vehicles: vehicles.rows, users: users.rows, vehicleChoices: [], userChoices: [] };
  const [allVehicles, allUsers] = await Promise.all([
    listVehicles(db, v, { status: 'active' }, MAX, 0),
    listUsers(db, v, { status: 'active' }, MAX, 0),
  ]);
  const inVehicles = new Set(vehicles.rows.map((x) => x.id));
  const inUsers = new Set(users.rows.map((x) => x.id));
  return {
    vehicles: vehicles.rows,
    users: users.rows,
    vehicleChoices: allVehicles.rows.filter((x) => !inVehicles.has(x.id)),
    userChoices: allUsers.rows.filter((u) => !inUsers.has(u.id) && mayMoveUser(v, u.role)),
  };
}
