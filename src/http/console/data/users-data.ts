/**
 * What the users pages read and decide for the signed-in viewer, through the users and groups
 * services: the list (filters by role and status, a search by name or email), one visible user, and
 * the groups of a user. A driver's groups are memberships (`POST /v1/groups/:id/users`); a fleet
 * manager's are the `group_ids` of the API's user body (docs/reference/wire.md §4.2).
 */
import type { Db } from '../../../storage/db.js';
import { notFound, validation } from '../../../core/errors.js';
import { getUser, groupIdsOf, listUsers, type UserFilters, type UserRow } from '../../../domain/users/service.js';
import { changeMembers } from '../../../domain/groups/service.js';
import type { Viewer } from './data.js';
import { maySee } from '../views/users-access.js';
import { groupsToStore, withGroupNames } from './vehicles-data.js';

export const USERS_PER_PAGE = 100;

export interface UserListQuery {
  role?: string;
  status?: string;
  q?: string;
}

export interface UserListRow {
  row: UserRow;
  /** Names of the user's groups the viewer may see. */
  groups: string[];
}

/** A limited manager's filters: the drivers of their groups. */
function scope(v: Viewer): UserFilters {
  return v.driverIds === null ? {} : { role: 'driver', ids: [...v.driverIds] };
}

export async function userListPage(
  db: Db,
  v: Viewer,
  f: UserListQuery,
  page: number,
): Promise<{ rows: UserListRow[]; total: number }> {
  const filters: UserFilters = {
    ...(f.role ? { role: f.role } : {}),
    ...(f.status ? { status: f.status } : {}),
    ...(f.q ? { search: f.q } : {}),
    ...scope(v),
  };
  // A limited manager filtering by another role sees nobody (rather than the filter being ignored).
  if (v.driverIds !== null && f.role && f.role !== 'driver') return { rows: [], total: 0 };
  return withGroupNames(db, v, listUsers(db, v, filters, USERS_PER_PAGE, (page - 1) * USERS_PER_PAGE), (ids) =>
    groupIdsOf(db, ids),
  );
}

/** A user the viewer may see, or 404 — the same answer as a user of another company. */
export async function visibleUser(db: Db, v: Viewer, id: number): Promise<UserRow> {
  if (v.driverIds !== null && !v.driverIds.has(id)) throw notFound(`user ${id}`);
  const row = await getUser(db, v, id);
  if (!maySee(v, row)) throw notFound(`user ${id}`);
  return row;
}

export async function groupsOfUser(db: Db, id: number): Promise<number[]> {
  return (await groupIdsOf(db, [id])).get(id) ?? [];
}

/**
 * The groups a user will be in after the form, checked as the vehicles' are: a limited manager may
 * choose only their own groups (another is "not found"), at least one of them (a driver outside them
 * would leave their view), and the user keeps the groups the manager cannot see.
 */
export function userGroupsToStore(db: Db, v: Viewer, chosen: number[], userId?: number): Promise<number[]> {
  return groupsToStore(db, v, chosen, 'driver', userId === undefined ? null : () => groupsOfUser(db, userId));
}

/** Puts a driver in exactly these groups, through the groups service (as the API's member routes). */
export async function setDriverGroups(db: Db, v: Viewer, userId: number, wanted: number[]): Promise<void> {
  const current = new Set(await groupsOfUser(db, userId));
  const target = new Set(wanted);
  for (const g of target) if (!current.has(g)) await changeMembers(db, v, g, 'group_users', [userId], 'add');
  for (const g of current) if (!target.has(g)) await changeMembers(db, v, g, 'group_users', [userId], 'remove');
}
