/** `fleet company …`, `fleet user …`, `fleet api-key …`: create the records an operator needs to start. */
import { createCompany } from '../domain/companies/service.js';
import { createUser } from '../domain/users/service.js';
import { ROLES } from '../domain/users/fields.js';
import { createApiKey, revokeApiKey } from '../auth/api-keys.js';
import { notFound } from '../http/plumbing/errors.js';
import {
  companyRef, findCompany, optionalFlag, positiveInt, requireFlag, UsageError, type Command,
} from './io.js';

export const companyCreate: Command = {
  usage: 'company create --name NAME',
  summary: 'Create a company (a tenant).',
  flags: { name: { type: 'string' } },
  async run(flags, ctx) {
    const name = requireFlag(flags, 'name');
    const { db } = await ctx.database();
    const c = await createCompany(db, { name });
    ctx.print(
      { id: c.id, company_id: c.company_code, name: c.name },
      `Created company ${c.id} (${c.company_code}) "${c.name}"`,
    );
    return 0;
  },
};

const capitalize = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s);

/**
 * Names when --first-name/--last-name are not given, from the email's local part (or the username):
 * `jane.doe@x` → Jane / Doe, `jane_van_dam` → Jane / Van Dam; a one-word name gives last name "User".
 */
export function namesFrom(login: string): { first: string; last: string } {
  const local = login.split('@')[0] ?? '';
  const parts = local.split(/[._+\-\s]+/).filter((p) => p && /[a-z]/i.test(p)).map(capitalize);
  if (parts.length === 0) return { first: capitalize(local) || 'User', last: 'User' };
  return { first: parts[0], last: parts.length > 1 ? parts.slice(1).join(' ') : 'User' };
}

export const userCreate: Command = {
  usage: 'user create --company ID --role ROLE --email EMAIL --password PASSWORD [--first-name F] [--last-name L] [--username U]',
  summary: 'Create a user. ROLE: admin, fleet_user or driver; a driver may have --username instead of --email.',
  flags: {
    company: { type: 'string' },
    role: { type: 'string' },
    email: { type: 'string' },
    password: { type: 'string' },
    username: { type: 'string' },
    'first-name': { type: 'string' },
    'last-name': { type: 'string' },
  },
  async run(flags, ctx) {
    const company = companyRef(requireFlag(flags, 'company'));
    const role = requireFlag(flags, 'role');
    if (!(ROLES as readonly string[]).includes(role)) throw new UsageError(`--role must be one of: ${ROLES.join(', ')}`);
    const email = optionalFlag(flags, 'email');
    const username = optionalFlag(flags, 'username');
    if (!email && !username) throw new UsageError('--email is required (or --username for a driver)');
    const password = requireFlag(flags, 'password');
    const { db } = await ctx.database();
    const { id: companyId } = await findCompany(db, company);
    const guess = namesFrom(email ?? username ?? '');
    const u = await createUser(db, { companyId }, {
      role,
      email,
      username,
      password,
      first_name: optionalFlag(flags, 'first-name') ?? guess.first,
      last_name: optionalFlag(flags, 'last-name') ?? guess.last,
    });
    ctx.print(
      {
        id: u.id,
        company_id: u.company_id,
        role: u.role,
        email: u.email,
        username: u.username,
        first_name: u.first_name,
        last_name: u.last_name,
      },
      `Created ${u.role} ${u.id} ${u.first_name} ${u.last_name} <${u.email ?? u.username}> in company ${u.company_id}`,
    );
    return 0;
  },
};

export const apiKeyCreate: Command = {
  usage: 'api-key create --company ID [--name NAME]',
  summary: 'Create an API key for a company; the key is printed once and stored hashed.',
  flags: { company: { type: 'string' }, name: { type: 'string' } },
  async run(flags, ctx) {
    const ref = companyRef(requireFlag(flags, 'company'));
    const { db } = await ctx.database();
    const company = await findCompany(db, ref);
    const key = await createApiKey(db, company.id, optionalFlag(flags, 'name') ?? 'default');
    ctx.print(
      { id: key.id, company_id: key.company_id, name: key.name, api_key: key.api_key },
      `Created API key ${key.id} "${key.name}" for company ${key.company_id}. It is shown only this once:\n${key.api_key}`,
    );
    return 0;
  },
};

export const apiKeyRevoke: Command = {
  usage: 'api-key revoke --id ID',
  summary: 'Revoke an API key; requests with it get 401 from then on.',
  flags: { id: { type: 'string' } },
  async run(flags, ctx) {
    const id = positiveInt(requireFlag(flags, 'id'), 'id');
    const { db } = await ctx.database();
    const exists = await db.kysely.selectFrom('api_keys').select('id').where('id', '=', id).executeTakeFirst();
    if (!exists) throw notFound(`API key ${id}`);
    // Revoking an already revoked key is not an error: the key is revoked either way.
    await revokeApiKey(db, id);
    ctx.print({ id, revoked: true }, `Revoked API key ${id}`);
    return 0;
  },
};
