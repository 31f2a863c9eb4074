/**
 * Who may manage whom in the console (docs/console-people.md, "Roles"). Motive's own roles are the
 * model: a company **admin** manages every user of the company; a **fleet manager** (`fleet_user`)
 * manages drivers, and one whose group visibility is "limited" only the drivers of their groups. The
 * people who manage the fleet (admins and fleet managers, who can sign in here and approve apps) are
 * added, changed and given access by admins only. Nobody deactivates, demotes or limits their own
 * account, so a company always keeps the admin who is acting.
 * Pure: the viewer and the user in question in, a decision out.
 */
import { ROLES, type Role } from '../../../domain/users/fields.js';
import type { Viewer } from '../data/data.js';

export interface Target {
  id: number;
  role: string;
}

export const isAdmin = (v: Pick<Viewer, 'role'>) => v.role === 'admin';

/** The roles the viewer may give a user they add or edit. */
export function assignableRoles(v: Pick<Viewer, 'role'>): readonly Role[] {
  return isAdmin(v) ? ROLES : ['driver'];
}

/** Whether the viewer sees the user in the console (a limited manager: the drivers of their groups). */
export function maySee(v: Pick<Viewer, 'userId' | 'driverIds'>, u: Target): boolean {
  if (v.driverIds === null) return true;
  return u.role === 'driver' && v.driverIds.has(u.id);
}

/** Why the viewer may not change this user at all, or null when they may. */
export function manageProblem(v: Pick<Viewer, 'userId' | 'role' | 'driverIds'>, u: Target): string | null {
  if (!maySee(v, u)) return null; // not found, rather than refused: the caller answers 404
  if (isAdmin(v)) return null;
  if (u.id === v.userId) return 'Your own account is changed by a company admin.';
  if (u.role !== 'driver') return 'Fleet managers manage drivers: admins and fleet managers are managed by an admin.';
  return null;
}

/** Why the viewer may not give the user this role (or keep them in it), or null. */
export function roleProblem(v: Pick<Viewer, 'userId' | 'role'>, u: Target | null, role: string): string | null {
  if (u !== null && u.id === v.userId && role !== u.role) return 'role of your own account cannot be changed here';
  if (!(assignableRoles(v) as readonly string[]).includes(role) && (ROLES as readonly string[]).includes(role))
    return `role must be driver: only admins add or change admins and fleet managers`;
  return null;
}

/** Why the viewer may not deactivate the user, or null (nobody shuts themselves out). */
export function deactivateProblem(v: Pick<Viewer, 'userId'>, u: Target): string | null {
  return u.id === v.userId ? 'You cannot deactivate your own account: another admin can.' : null;
}
