/**
 * What another area reads of a user it refers to (the driver of a dispatch, document or inspection
 * report, a mechanic, a message's recipient): the users area owns the query. Each takes the caller's
 * transaction when there is one.
 */
import type { Kysely, Selectable } from 'kysely';
import type { DbKind } from '../../storage/db.js';
import type { Database, UsersTable } from '../../storage/schema.js';

const REF_COLUMNS = ['id', 'role', 'status', 'carrier_name', 'time_zone'] as const;

export type UserRef = Pick<Selectable<UsersTable>, (typeof REF_COLUMNS)[number]>;

/** The company's user `id`, or undefined. */
export function userRef(db: Kysely<Database>, companyId: number, id: number): Promise<UserRef | undefined> {
  return db
    .selectFrom('users')
    .select([...REF_COLUMNS])
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The company's users among `ids` (in no particular order; missing ones left out). */
export function userRefs(db: Kysely<Database>, companyId: number, ids: number[]): Promise<UserRef[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('users')
    .select([...REF_COLUMNS])
    .where('company_id', '=', companyId)
    .where('id', 'in', ids)
    .execute();
}

/**
 * Whether the company's user `id` is a driver, read in the caller's transaction with a row lock on
 * PostgreSQL, so that the writers of one driver's hours-of-service log run one at a time.
 */
export async function lockDriverForHos(
  trx: Kysely<Database>,
  kind: DbKind,
  companyId: number,
  id: number,
): Promise<boolean> {
  let q = trx.selectFrom('users').select(['id', 'role']).where('company_id', '=', companyId).where('id', '=', id);
  if (kind === 'postgres') q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row?.role === 'driver';
}

/** The user's group visibility (`limited` confines a fleet manager to their groups), or undefined. */
export async function groupVisibility(db: Kysely<Database>, id: number): Promise<string | null | undefined> {
  const row = await db.selectFrom('users').select('group_visibility').where('id', '=', id).executeTakeFirst();
  return row?.group_visibility;
}
