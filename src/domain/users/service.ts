/** Use cases on users. Rules of docs/reference/wire.md §4.2: who may carry which fields, required sign-in names. */
import type { Kysely } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { Database, UsersTable } from '../../storage/schema.js';
import { bool, fromJson, json, nowIso } from '../../storage/values.js';
import { isUniqueViolation } from '../../storage/query.js';
import { hashPassword } from '../../auth/secrets.js';
import { passwordProblem } from '../../auth/password-policy.js';
import { AppError, badRequest, duplicate, notFound, validation } from '../../core/errors.js';
import type { Tenant } from '../tenant.js';
import { DRIVER_FLAGS, DRIVER_TEXT_FIELDS, MANAGER_TEXT_FIELDS, USER_TEXT_FIELDS } from './fields.js';
import { TIME_ZONES } from '../../core/time-zone.js';
import * as repo from './repository.js';
import { recordEvent } from '../../events/outbox.js';
import { assertGroups, groupIdsOf as memberGroups, setMemberGroups } from '../groups/membership.js';
import type { Insertable, Updateable } from 'kysely';
import type { Static } from 'typebox';
import type { UserBody } from './input.js';

export type { UserRow, UserFilters } from './repository.js';

/** What a client may send to create or change a user: the body `POST` and `PUT /v1/users` check. */
export type UserInput = Static<typeof UserBody>;

export async function getUser(db: Db, t: Tenant, id: number): Promise<repo.UserRow> {
  const row = await repo.findUser(db.kysely, t.companyId, id);
  if (!row) throw notFound(`user ${id}`);
  return row;
}

export function listUsers(db: Db, t: Tenant, f: repo.UserFilters, limit: number, offset: number) {
  return repo.listUsers(db.kysely, t.companyId, f, limit, offset);
}

export const groupIdsOf = (db: Db, ids: number[]) => memberGroups(db.kysely, 'group_users', ids);

export async function lookupUser(
  db: Db,
  t: Tenant,
  by: { username?: string; email?: string; driver_company_id?: string },
) {
  if (by.username === undefined && by.email === undefined && by.driver_company_id === undefined) {
    throw badRequest('one of username, email or driver_company_id is required');
  }
  const row = await repo.findUserBy(db.kysely, t.companyId, by);
  if (!row) throw new AppError('not_found', 'user not found');
  return row;
}

function normEmail(v: unknown): string | null | undefined {
  if (v === undefined) return undefined;
  if (v === null || v === '') return null;
  return String(v).trim().toLowerCase();
}

function validateTimeZone(tz: unknown) {
  if (tz !== undefined && tz !== null && !(String(tz) in TIME_ZONES)) {
    throw validation('time_zone', `must be one of: ${Object.keys(TIME_ZONES).join(', ')}`);
  }
}

/** Fields stored as given. */
const PLAIN_FIELDS = [
  'first_name',
  'last_name',
  'role',
  'status',
  'duty_status',
  'eld_mode',
  'violation_alerts',
  'group_visibility',
] as const;

/** Column values for the fields present in the input (absent fields are left alone). */
function columns(input: UserInput): Updateable<UsersTable> {
  const out: Record<string, unknown> = {};
  for (const f of [...USER_TEXT_FIELDS, ...MANAGER_TEXT_FIELDS, ...DRIVER_TEXT_FIELDS]) {
    if (input[f] !== undefined) out[f] = input[f] === '' && f !== 'carrier_name' ? null : input[f];
  }
  for (const f of PLAIN_FIELDS) {
    if (input[f] !== undefined) out[f] = input[f];
  }
  if (input.email !== undefined) out.email = normEmail(input.email);
  if (input.metric_units !== undefined) out.metric_units = bool(input.metric_units);
  if (input.external_ids_attributes !== undefined) out.external_ids = json(input.external_ids_attributes);
  for (const f of ['carrier_name', 'carrier_street', 'carrier_city', 'carrier_state', 'carrier_zip']) {
    if (out[f] === null) out[f] = '';
  }
  return out as Updateable<UsersTable>;
}

function mergeFlags(current: string, input: UserInput): string | undefined {
  const given = DRIVER_FLAGS.filter((f) => input[f] !== undefined);
  if (given.length === 0) return undefined;
  const flags = fromJson<Record<string, boolean>>(current, {});
  for (const f of given) flags[f] = Boolean(input[f]);
  return json(flags);
}

async function checkNames(
  db: Kysely<Database>,
  email: string | null | undefined,
  username: unknown,
  exceptId?: number,
) {
  const taken = await repo.takenNames(db, email, username ? String(username) : null, exceptId);
  if (taken.email) throw duplicate('email', String(email));
  if (taken.username) throw duplicate('username', String(username));
}

async function checkGroups(db: Kysely<Database>, t: Tenant, role: string, input: UserInput) {
  if ((input.group_ids !== undefined || input.group_visibility !== undefined) && role !== 'fleet_user') {
    throw badRequest('group_ids and group_visibility apply only to users with role fleet_user');
  }
  await assertGroups(db, t.companyId, input.group_ids ?? []);
}

async function setGroups(trx: Kysely<Database>, t: Tenant, userId: number, groupIds: number[] | undefined) {
  if (groupIds !== undefined) await setMemberGroups(trx, 'group_users', t.companyId, userId, groupIds);
}

/** Records `user_upserted` with a snapshot of the user (never the password hash). */
async function announce(trx: Kysely<Database>, t: Tenant, id: number, trigger: 'created' | 'updated') {
  const row = await repo.findUser(trx, t.companyId, id);
  if (!row) return;
  const { password_hash: _secret, ...data } = row;
  await recordEvent(trx, {
    companyId: t.companyId,
    action: 'user_upserted',
    trigger,
    subject: { type: 'user', id },
    data,
  });
}

function translateUnique(err: unknown, input: UserInput): never {
  if (isUniqueViolation(err)) {
    const msg = String((err as Error).message);
    if (msg.includes('username')) throw duplicate('username', String(input.username));
    throw duplicate('email', String(normEmail(input.email)));
  }
  throw err;
}

/** The password, if the one policy (auth/password-policy.ts) allows it for this account. */
function checkedPassword(password: string, email: string | null | undefined, username: unknown): string {
  const problem = passwordProblem(password, { email, username: typeof username === 'string' ? username : null });
  if (problem) throw validation('password', problem);
  return password;
}

export async function createUser(db: Db, t: Tenant, input: UserInput): Promise<repo.UserRow> {
  for (const f of ['first_name', 'last_name', 'role'] as const) {
    if (input[f] === undefined || input[f] === '') throw validation(f, 'is required');
  }
  const email = normEmail(input.email);
  if (!email && !input.username) throw badRequest('email or username is required');
  validateTimeZone(input.time_zone);
  await checkGroups(db.kysely, t, String(input.role), input);
  await checkNames(db.kysely, email, input.username);
  const now = nowIso();
  const values = {
    ...columns(input),
    company_id: t.companyId,
    driver_flags: mergeFlags('{}', input) ?? '{}',
    password_hash: input.password ? await hashPassword(checkedPassword(input.password, email, input.username)) : null,
    created_at: now,
    updated_at: now,
  } as Insertable<UsersTable>;
  try {
    const id = await db.kysely.transaction().execute(async (trx) => {
      const id = await repo.insertUser(trx, values);
      await setGroups(trx, t, id, input.group_ids);
      await announce(trx, t, id, 'created');
      return id;
    });
    return getUser(db, t, id);
  } catch (err) {
    translateUnique(err, input);
  }
}

export async function updateUser(db: Db, t: Tenant, id: number, input: UserInput): Promise<repo.UserRow> {
  const current = await getUser(db, t, id);
  const role = String(input.role ?? current.role);
  for (const f of ['first_name', 'last_name'] as const) {
    if (input[f] === '') throw validation(f, 'must not be empty');
  }
  validateTimeZone(input.time_zone);
  await checkGroups(db.kysely, t, role, input);
  const email = input.email === undefined ? current.email : normEmail(input.email);
  const username = input.username === undefined ? current.username : input.username || null;
  if (!email && !username) throw badRequest('email or username is required');
  await checkNames(db.kysely, input.email === undefined ? null : email, input.username ?? null, id);
  const values: Updateable<UsersTable> = { ...columns(input), updated_at: nowIso() };
  const flags = mergeFlags(current.driver_flags, input);
  if (flags !== undefined) values.driver_flags = flags;
  if (input.password) values.password_hash = await hashPassword(checkedPassword(input.password, email, username));
  try {
    await db.kysely.transaction().execute(async (trx) => {
      await repo.updateUser(trx, t.companyId, id, values);
      await setGroups(trx, t, id, input.group_ids);
      await announce(trx, t, id, 'updated');
    });
  } catch (err) {
    translateUnique(err, input);
  }
  return getUser(db, t, id);
}
