/** Group membership of users and vehicles: one implementation for both member kinds. */
import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { nowIso } from '../../storage/values.js';
import { notFound } from '../../core/errors.js';

export type MemberTable = 'group_users' | 'group_vehicles';

/** Throws "group N not found" for the first id that is not a group of this company. */
export async function assertGroups(db: Kysely<Database>, companyId: number, groupIds: number[]): Promise<void> {
  if (groupIds.length === 0) return;
  const found = await db
    .selectFrom('groups')
    .select('id')
    .where('company_id', '=', companyId)
    .where('id', 'in', groupIds)
    .execute();
  const ok = new Set(found.map((g) => g.id));
  const missing = groupIds.find((g) => !ok.has(g));
  if (missing !== undefined) throw notFound(`group ${missing}`);
}

/** Replaces the groups of one member. */
export async function setMemberGroups(
  trx: Kysely<Database>,
  table: MemberTable,
  companyId: number,
  memberId: number,
  groupIds: number[],
): Promise<void> {
  await trx.deleteFrom(table).where('member_id', '=', memberId).execute();
  const now = nowIso();
  const unique = [...new Set(groupIds)];
  if (unique.length) {
    await trx
      .insertInto(table)
      .values(unique.map((g) => ({ company_id: companyId, group_id: g, member_id: memberId, created_at: now })))
      .execute();
  }
}

/** Adds members to one group; members already in it are left as they are. */
export async function addMembers(
  trx: Kysely<Database>,
  table: MemberTable,
  companyId: number,
  groupId: number,
  memberIds: number[],
): Promise<void> {
  const unique = [...new Set(memberIds)];
  if (unique.length === 0) return;
  const now = nowIso();
  await trx
    .insertInto(table)
    .values(unique.map((m) => ({ company_id: companyId, group_id: groupId, member_id: m, created_at: now })))
    .onConflict((oc) => oc.columns(['group_id', 'member_id']).doNothing())
    .execute();
}

export async function removeMembers(trx: Kysely<Database>, table: MemberTable, groupId: number, memberIds: number[]) {
  if (memberIds.length === 0) return;
  await trx.deleteFrom(table).where('group_id', '=', groupId).where('member_id', 'in', memberIds).execute();
}

/** Group ids of each member, in one query for a whole page. */
export async function groupIdsOf(
  db: Kysely<Database>,
  table: MemberTable,
  memberIds: number[],
): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(memberIds.map((id) => [id, []]));
  if (memberIds.length === 0) return out;
  const rows = await db
    .selectFrom(table)
    .select(['member_id', 'group_id'])
    .where('member_id', 'in', memberIds)
    .orderBy('group_id')
    .execute();
  for (const r of rows) out.get(r.member_id)?.push(r.group_id);
  return out;
}

/**
 * The vehicles and users of every group `userId` belongs to (a fleet manager whose group visibility is
 * limited sees only those): null when the user is in no group.
 */
export async function groupMatesOf(
  db: Kysely<Database>,
  companyId: number,
  userId: number,
): Promise<{ vehicleIds: Set<number>; userIds: Set<number> } | null> {
  const groups = (
    await db
      .selectFrom('group_users')
      .select('group_id')
      .where('company_id', '=', companyId)
      .where('member_id', '=', userId)
      .execute()
  ).map((g) => g.group_id);
  if (groups.length === 0) return null;
  const members = (table: MemberTable) =>
    db
      .selectFrom(table)
      .select('member_id')
      .where('company_id', '=', companyId)
      .where('group_id', 'in', groups)
      .execute()
      .then((rows) => new Set(rows.map((r) => r.member_id)));
  const [vehicleIds, userIds] = await Promise.all([members('group_vehicles'), members('group_users')]);
  return { vehicleIds, userIds };
}

/** The member ids of one group, as a subquery for a member area's filter (`where id in …`). */
export function membersOf(db: Kysely<Database>, table: MemberTable, groupId: number) {
  return db.selectFrom(table).select('member_id').where('group_id', '=', groupId);
}
