/**
 * Who is told of an alert: the company's active admins and fleet managers who may see its vehicle or
 * its driver — a manager whose group visibility is `limited` only when the vehicle or the driver is in
 * one of their groups (either is enough: a manager of a driver's group hears of that driver's speeding
 * in another group's truck) — and who chose that kind (preferences.ts). Drivers get no alerts.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { listUsers } from '../users/repository.js';
import { groupIdsOf } from '../groups/membership.js';
import { preferencesOf, type Preferences } from './preferences.js';
import type { AlertDraft } from './kinds.js';

export interface Member {
  id: number;
  email: string | null;
  /** Their groups when their visibility is limited; null when they see the whole company. */
  groups: Set<number> | null;
  prefs: Preferences;
}

/** Most managers one company's alerts go to. */
const MAX_MEMBERS = 10_000;

export async function companyAudience(db: Kysely<Database>, companyId: number): Promise<Member[]> {
  const { rows } = await listUsers(db, companyId, { roles: ['admin', 'fleet_user'], status: 'active' }, MAX_MEMBERS, 0);
  const limited = rows.filter((u) => u.role === 'fleet_user' && u.group_visibility === 'limited').map((u) => u.id);
  const [groups, prefs] = await Promise.all([
    groupIdsOf(db, 'group_users', limited),
    preferencesOf(
      db,
      rows.map((u) => u.id),
    ),
  ]);
  return rows.map((u) => ({
    id: u.id,
    email: u.email,
    groups: groups.has(u.id) ? new Set(groups.get(u.id)) : null,
    prefs: prefs.get(u.id)!,
  }));
}

/** The groups of the vehicles and drivers of some alerts, to decide who of a limited audience sees them. */
export async function subjectGroups(db: Kysely<Database>, drafts: AlertDraft[]) {
  const ids = (f: (d: AlertDraft) => number | null) => [
    ...new Set(drafts.map(f).filter((x): x is number => x !== null)),
  ];
  const [vehicles, drivers] = await Promise.all([
    groupIdsOf(
      db,
      'group_vehicles',
      ids((d) => d.vehicleId),
    ),
    groupIdsOf(
      db,
      'group_users',
      ids((d) => d.driverId),
    ),
  ]);
  return (d: AlertDraft) => [
    ...(d.vehicleId === null ? [] : (vehicles.get(d.vehicleId) ?? [])),
    ...(d.driverId === null ? [] : (drivers.get(d.driverId) ?? [])),
  ];
}

export function maySee(m: Member, groupsOfSubject: number[]): boolean {
  return m.groups === null || groupsOfSubject.some((g) => m.groups!.has(g));
}
