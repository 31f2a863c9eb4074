/** Tenant-scoped queries on users. Every function takes the company id first. */
import type { Kysely, Selectable, Insertable, Updateable } from 'kysely';
import type { Database, UsersTable } from '../../storage/schema.js';
import { containsCi, countOf } from '../../storage/query.js';
import { sql } from 'kysely';
import { membersOf } from '../groups/membership.js';

export type UserRow = Selectable<UsersTable>;

export interface UserFilters {
  role?: string;
  status?: string;
  duty_status?: string;
  name?: string;
  ids?: number[];
  group_id?: number;
  roles?: string[];
  /** Part of the name or the email address (the console's search), any case. */
  search?: string;
}

function filtered(db: Kysely<Database>, companyId: number, f: UserFilters) {
  let q = db.selectFrom('users').where('users.company_id', '=', companyId);
  if (f.role) q = q.where('users.role', '=', f.role);
  if (f.roles) q = q.where('users.role', 'in', f.roles);
  if (f.status) q = q.where('users.status', '=', f.status);
  if (f.duty_status) q = q.where('users.role', '=', 'driver').where('users.duty_status', '=', f.duty_status);
  if (f.name) q = q.where(containsCi(sql`users.first_name || ' ' || users.last_name`, f.name));
  if (f.search) {
    const term = f.search;
    q = q.where((eb) =>
      eb.or([
        containsCi(sql`users.first_name || ' ' || users.last_name`, term),
        containsCi(sql`coalesce(users.email, '')`, term),
      ]),
    );
  }
  if (f.ids) q = q.where('users.id', 'in', f.ids.length ? f.ids : [0]);
  if (f.group_id !== undefined) {
    q = q.where('users.id', 'in', membersOf(db, 'group_users', f.group_id));
  }
  return q;
}

export async function listUsers(
  db: Kysely<Database>,
  companyId: number,
  f: UserFilters,
  limit: number,
  offset: number,
): Promise<{ rows: UserRow[]; total: number }> {
  const base = filtered(db, companyId, f);
  const [rows, total] = await Promise.all([
    base.selectAll('users').orderBy('users.id').limit(limit).offset(offset).execute(),
    countOf(base.select('users.id')),
  ]);
  return { rows, total };
}

export async function findUser(db: Kysely<Database>, companyId: number, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
}

export async function findUserBy(
  db: Kysely<Database>,
  companyId: number,
  by: { username?: string; email?: string; driver_company_id?: string },
): Promise<UserRow | undefined> {
  let q = db.selectFrom('users').selectAll().where('company_id', '=', companyId);
  if (by.username !== undefined) q = q.where('username', '=', by.username);
  if (by.email !== undefined) q = q.where('email', '=', by.email.trim().toLowerCase());
  if (by.driver_company_id !== undefined) q = q.where('driver_company_id', '=', by.driver_company_id);
  return q.orderBy('id').executeTakeFirst();
}

/** Which of these sign-in names are taken by a user other than `exceptId` (in any company). */
export async function takenNames(
  db: Kysely<Database>,
  email: string | null | undefined,
  username: string | null | undefined,
  exceptId = 0,
): Promise<{ email: boolean; username: boolean }> {
  const out = { email: false, username: false };
  if (email) {
    out.email = !!(await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .where('id', '!=', exceptId)
      .executeTakeFirst());
  }
  if (username) {
    out.username = !!(await db
      .selectFrom('users')
      .select('id')
      .where('username', '=', username)
      .where('id', '!=', exceptId)
      .executeTakeFirst());
  }
  return out;
}

export async function insertUser(db: Kysely<Database>, values: Insertable<UsersTable>): Promise<number> {
  const row = await db.insertInto('users').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateUser(
  db: Kysely<Database>,
  companyId: number,
  id: number,
  values: Updateable<UsersTable>,
): Promise<void> {
  await db.updateTable('users').set(values).where('company_id', '=', companyId).where('id', '=', id).execute();
}

/**
 * The company's drivers (role driver) as a query to select from, narrowed to `ids` when there are any
 * (an empty list narrows nothing). The one place the "drivers of this company" filter is written.
 */
export function driversQuery(db: Kysely<Database>, companyId: number, ids?: readonly number[]) {
  const q = db.selectFrom('users').where('company_id', '=', companyId).where('role', '=', 'driver');
  return ids?.length ? q.where('id', 'in', [...ids]) : q;
}

/** Ids of the company's active drivers in id order, the first `limit` when given (the demo and the simulator). */
export async function activeDriverIds(db: Kysely<Database>, companyId: number, limit?: number): Promise<number[]> {
  let q = driversQuery(db, companyId).select('id').where('status', '=', 'active').orderBy('id');
  if (limit !== undefined) q = q.limit(limit);
  return (await q.execute()).map((r) => r.id);
}

/**
 * Inserts many users of one company at once (the demo fleet) and returns the company's users with their
 * sign-in names, to read the new ids by name rather than trust RETURNING's row order.
 */
export async function insertUserRows(db: Kysely<Database>, companyId: number, rows: Insertable<UsersTable>[]) {
  await db.insertInto('users').values(rows).execute();
  return db.selectFrom('users').select(['id', 'email', 'username']).where('company_id', '=', companyId).execute();
}
