/** Use cases on groups: a tree of named groups holding users and vehicles (docs/reference/wire.md §4.18). */
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Static } from 'typebox';
import type { Db } from '../../storage/db.js';
import type { Database, GroupsTable } from '../../storage/schema.js';
import { countOf } from '../../storage/query.js';
import { nowIso } from '../../storage/values.js';
import { notFound, validation } from '../../core/errors.js';
import type { Tenant } from '../tenant.js';
import { addMembers, removeMembers, type MemberTable } from './membership.js';
import type { GroupBody } from './input.js';
import { userRef, userRefs } from '../users/refs.js';
import { vehicleRefs } from '../vehicles/refs.js';

export type GroupRow = Selectable<GroupsTable>;

/** What a client may send to create or change a group: the body `POST` and `PUT /v1/groups` check. */
export type GroupInput = Static<typeof GroupBody>;

export async function getGroup(db: Db, t: Tenant, id: number): Promise<GroupRow> {
  const row = await db.kysely
    .selectFrom('groups')
    .selectAll()
    .where('company_id', '=', t.companyId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound(`group ${id}`);
  return row;
}

export async function listGroups(db: Db, t: Tenant, limit: number, offset: number) {
  const base = db.kysely.selectFrom('groups').where('company_id', '=', t.companyId);
  const [rows, total] = await Promise.all([
    base.selectAll().orderBy('id').limit(limit).offset(offset).execute(),
    countOf(base.select('id')),
  ]);
  return { rows, total };
}

/** The parent must be a group of this company and must not be the group itself or one of its descendants. */
async function checkParent(db: Db, t: Tenant, groupId: number | null, parentId: number | null | undefined) {
  if (parentId === undefined || parentId === null) return;
  let cursor: number | null = parentId;
  for (let depth = 0; cursor !== null; depth++) {
    if (cursor === groupId) throw validation('parent_id', 'would make the group its own ancestor');
    if (depth > 100) throw validation('parent_id', 'makes the group tree too deep');
    const g: GroupRow = await getGroup(db, t, cursor);
    cursor = g.parent_id;
  }
}

async function checkOwner(db: Db, t: Tenant, userId: number | null | undefined) {
  if (userId === undefined || userId === null) return;
  const u = await userRef(db.kysely, t.companyId, userId);
  if (!u) throw notFound(`user ${userId}`);
}

export async function createGroup(
  db: Db,
  t: Tenant & { actingUserId?: number | null },
  input: GroupInput,
  defaultOwner: number | null,
) {
  const name = input.name?.trim();
  if (!name) throw validation('name', 'is required');
  await checkParent(db, t, null, input.parent_id);
  await checkOwner(db, t, input.user_id);
  const now = nowIso();
  const id = await insertGroupRow(db.kysely, {
    company_id: t.companyId,
    name,
    parent_id: input.parent_id ?? null,
    user_id: input.user_id ?? defaultOwner,
    created_at: now,
    updated_at: now,
  });
  return getGroup(db, t, id);
}

/** Inserts a group as given (checked by the caller), on the caller's transaction if any: its id. */
export async function insertGroupRow(db: Kysely<Database>, values: Insertable<GroupsTable>): Promise<number> {
  const row = await db.insertInto('groups').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateGroup(db: Db, t: Tenant, id: number, input: GroupInput) {
  await getGroup(db, t, id);
  if (input.name !== undefined && input.name.trim() === '') throw validation('name', 'must not be empty');
  await checkParent(db, t, id, input.parent_id);
  await checkOwner(db, t, input.user_id);
  const set: Record<string, unknown> = { updated_at: nowIso() };
  if (input.name !== undefined) set.name = input.name.trim();
  if (input.parent_id !== undefined) set.parent_id = input.parent_id;
  if (input.user_id !== undefined) set.user_id = input.user_id;
  await db.kysely.updateTable('groups').set(set).where('company_id', '=', t.companyId).where('id', '=', id).execute();
  return getGroup(db, t, id);
}

/** Deletes the group; its members leave it and its child groups become roots. */
export async function deleteGroup(db: Db, t: Tenant, id: number) {
  await getGroup(db, t, id);
  await db.kysely.transaction().execute(async (trx) => {
    await trx
      .updateTable('groups')
      .set({ parent_id: null })
      .where('company_id', '=', t.companyId)
      .where('parent_id', '=', id)
      .execute();
    await trx.deleteFrom('group_users').where('group_id', '=', id).execute();
    await trx.deleteFrom('group_vehicles').where('group_id', '=', id).execute();
    await trx.deleteFrom('groups').where('company_id', '=', t.companyId).where('id', '=', id).execute();
  });
}

const MEMBER_SOURCE = {
  group_users: [userRefs, 'user'],
  group_vehicles: [vehicleRefs, 'vehicle'],
} as const;

/** Adds or removes users or vehicles; every id must be one of this company's, or nothing changes. */
export async function changeMembers(
  db: Db,
  t: Tenant,
  groupId: number,
  table: MemberTable,
  ids: number[],
  op: 'add' | 'remove',
) {
  await getGroup(db, t, groupId);
  if (ids.length === 0) throw validation('ids', 'must list at least one id');
  const [refs, noun] = MEMBER_SOURCE[table];
  const found = await refs(db.kysely, t.companyId, ids);
  const ok = new Set(found.map((r) => r.id));
  const missing = ids.find((id) => !ok.has(id));
  if (missing !== undefined) throw notFound(`${noun} ${missing}`);
  await db.kysely.transaction().execute(async (trx) => {
    if (op === 'add') await addMembers(trx, table, t.companyId, groupId, ids);
    else await removeMembers(trx, table, groupId, ids);
  });
}
