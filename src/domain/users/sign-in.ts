/**
 * What sign-in reads of a user (src/auth/oauth/accounts.ts, the web pages' sessions and installed apps):
 * the users area owns the queries; the password check and the role rules stay with sign-in.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { companyNames } from '../companies/refs.js';

/** The user with this (normalized) email, with the columns sign-in checks, or undefined. */
export function userForSignIn(db: Kysely<Database>, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'company_id', 'role', 'status', 'email', 'first_name', 'last_name', 'password_hash'])
    .where('email', '=', email)
    .executeTakeFirst();
}

/** The user `id` of a session, with the name of their company, or undefined. */
export function sessionUser(db: Kysely<Database>, id: number) {
  return db
    .selectFrom('users as u')
    .innerJoin(companyNames(db).as('c'), 'c.id', 'u.company_id')
    .select([
      'u.id',
      'u.company_id',
      'u.role',
      'u.status',
      'u.email',
      'u.first_name',
      'u.last_name',
      'c.name as company_name',
    ])
    .where('u.id', '=', id)
    .executeTakeFirst();
}

/** Every user's id, email and name, to join as a derived table (`.as('u')`) on a user id. */
export function userContacts(db: Kysely<Database>) {
  return db.selectFrom('users').select(['users.id', 'users.email', 'users.first_name', 'users.last_name']);
}

/** The first company (by id) with an admin of this email, with that admin's id, or undefined (the demo). */
export function adminCompanyByEmail(db: Kysely<Database>, email: string) {
  return db
    .selectFrom('users')
    .innerJoin(companyNames(db).as('c'), 'c.id', 'users.company_id')
    .select(['users.id as user_id', 'c.id', 'c.company_code', 'c.name'])
    .where('users.email', '=', email)
    .where('users.role', '=', 'admin')
    .orderBy('c.id')
    .limit(1)
    .executeTakeFirst();
}
