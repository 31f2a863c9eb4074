/**
 * Who may sign in to the web pages: fleet users (company admins and fleet managers, `users` table) for
 * authorization and installed apps, and developers (`developers` table) for the portal. Passwords are
 * checked with scrypt (secrets.ts); an unknown email costs the same scrypt as a wrong password.
 */
import type { Db } from '../../storage/db.js';
import { isUniqueViolation } from '../../storage/query.js';
import { sessionUser, userForSignIn } from '../../domain/users/sign-in.js';
import { AppError, duplicate } from '../../core/errors.js';
import { hashPassword, verifyPassword } from '../secrets.js';
import { passwordProblem } from '../password-policy.js';

let dummyHash: Promise<string> | null = null;
/** A real scrypt hash of a random string, so that unknown accounts take as long as known ones. */
const dummy = () => (dummyHash ??= hashPassword(`no-such-account-${Math.random()}`));

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export interface FleetUser {
  id: number;
  company_id: number;
  role: string;
  email: string;
  name: string;
}

export type FleetSignIn = { ok: true; user: FleetUser } | { ok: false; reason: 'credentials' | 'role' };

/** A company admin or fleet manager (fleet_user), active, whose password matches. */
export async function verifyFleetUser(db: Db, email: string, password: string): Promise<FleetSignIn> {
  const row = await userForSignIn(db.kysely, normalizeEmail(email));
  const ok = await verifyPassword(password, row?.password_hash ?? (await dummy()));
  if (!row || !ok || row.status !== 'active') return { ok: false, reason: 'credentials' };
  if (row.role !== 'admin' && row.role !== 'fleet_user') return { ok: false, reason: 'role' };
  return {
    ok: true,
    user: {
      id: row.id,
      company_id: row.company_id,
      role: row.role,
      email: row.email ?? '',
      name: `${row.first_name} ${row.last_name}`,
    },
  };
}

export async function fleetUser(db: Db, id: number): Promise<(FleetUser & { company_name: string }) | null> {
  const row = await sessionUser(db.kysely, id);
  if (!row || row.status !== 'active' || (row.role !== 'admin' && row.role !== 'fleet_user')) return null;
  return {
    id: row.id,
    company_id: row.company_id,
    role: row.role,
    email: row.email ?? '',
    name: `${row.first_name} ${row.last_name}`,
    company_name: row.company_name,
  };
}

export interface Developer {
  id: number;
  email: string;
  name: string;
}

export async function signUpDeveloper(
  db: Db,
  input: { email: string; name: string; password: string },
  nowIso: string,
): Promise<Developer> {
  const email = normalizeEmail(input.email);
  const name = input.name.trim();
  if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 254)
    throw new AppError('validation_failed', 'email must be an email address');
  if (!name) throw new AppError('validation_failed', 'name is required');
  if (name.length > 100) throw new AppError('validation_failed', 'name must be at most 100 characters long');
  const weak = passwordProblem(input.password, { email });
  if (weak) throw new AppError('validation_failed', `password ${weak}`);
  try {
    const row = await db.kysely
      .insertInto('developers')
      .values({
        email,
        name,
        password_hash: await hashPassword(input.password),
        created_at: nowIso,
        updated_at: nowIso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, email, name };
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicate('email', email);
    throw err;
  }
}

export async function verifyDeveloper(db: Db, email: string, password: string): Promise<Developer | null> {
  const row = await db.kysely
    .selectFrom('developers')
    .selectAll()
    .where('email', '=', normalizeEmail(email))
    .executeTakeFirst();
  const ok = await verifyPassword(password, row?.password_hash ?? (await dummy()));
  return row && ok ? { id: row.id, email: row.email, name: row.name } : null;
}

export async function findDeveloper(db: Db, id: number): Promise<Developer | null> {
  const row = await db.kysely
    .selectFrom('developers')
    .select(['id', 'email', 'name'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row ?? null;
}
