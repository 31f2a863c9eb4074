/**
 * Who may change groups in the console (docs/console-people.md, "Roles"). An admin: everything. A fleet
 * manager who sees the whole fleet: create and rename groups and put vehicles and drivers in them;
 * deleting a group, and putting admins or fleet managers in one (which decides what a limited fleet
 * manager sees), is an admin's. A fleet manager limited to their groups sees those groups and who is
 * in them, and changes nothing. Pure.
 */
import type { Viewer } from '../data/data.js';

type Who = Pick<Viewer, 'role' | 'vehicleIds'>;

export const mayEditGroups = (v: Who) => v.role === 'admin' || (v.role === 'fleet_user' && v.vehicleIds === null);
export const mayDeleteGroups = (v: Who) => v.role === 'admin';

/** Whether the viewer may add a user of this role to a group, or take them out. */
export const mayMoveUser = (v: Who, role: string) => v.role === 'admin' || (mayEditGroups(v) && role === 'driver');

export const GROUPS_READ_ONLY = 'You see the groups you are in. An admin creates and changes groups.';
export const GROUPS_DELETE_ADMIN = 'Only admins delete groups.';
export const GROUPS_MANAGERS_ADMIN = 'Only admins put admins and fleet managers in groups or take them out.';
