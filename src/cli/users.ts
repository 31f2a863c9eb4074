/**
 * `fleet user …`: create, list, show, update, set a password, deactivate. Every change goes through the
 * users service (src/domain/users/service.ts), as PUT /v1/users/:id does: the same checks, the same
 * password policy (src/auth/password-policy.ts) and the same `user_upserted` event for webhooks.
 */
import {
  companyListing,
  choiceFlag,
  companyRef,
  findCompany,
  optionalFlag,
  pageOf,
  PAGE_DETAILS,
  PAGE_FLAGS,
  PAGE_USAGE,
  RECORD_FLAGS,
  recordOf,
  requireFlag,
  textFlags,
  UsageError,
  type Command,
  type Ctx,
} from './io.js';
import { printListing, printRecord } from './format.js';
import { passwordFrom } from './secret.js';
import type { Db } from '../storage/db.js';
import type { UserRow } from '../domain/users/service.js';
import { ROLES, USER_STATUSES } from '../domain/users/fields.js';

/** The name fields as flags, each at most 255 characters (as the API's). */
const NAME_FLAGS = { email: 255, username: 255, 'first-name': 255, 'last-name': 255, phone: 255, 'time-zone': 255 };
const PASSWORD_DETAILS =
  'The password: 15 to 200 characters, not a common one, not the email or user name (docs/oauth.md, Secrets and tokens).';

const capitalize = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s);

/**
 * Names when --first-name/--last-name are not given, from the email's local part (or the username):
 * `jane.doe@x` → Jane / Doe, `jane_van_dam` → Jane / Van Dam; a one-word name gives last name "User".
 */
export function namesFrom(login: string): { first: string; last: string } {
  const local = login.split('@')[0] ?? '';
  const parts = local
    .split(/[._+\-\s]+/)
    .filter((p) => p && /[a-z]/i.test(p))
    .map(capitalize);
  if (parts.length === 0) return { first: capitalize(local) || 'User', last: 'User' };
  return { first: parts[0], last: parts.length > 1 ? parts.slice(1).join(' ') : 'User' };
}

/** The user as GET /v1/users/:id shows it. */
async function userJson(db: Db, u: UserRow) {
  const [{ userWire }, { groupIdsOf }] = await Promise.all([
    import('../wire/user.js'),
    import('../domain/users/service.js'),
  ]);
  return userWire(u, (await groupIdsOf(db, [u.id])).get(u.id) ?? []);
}

const brief = (u: UserRow) => ({
  id: u.id,
  company_id: u.company_id,
  role: u.role,
  status: u.status,
  email: u.email,
  username: u.username,
  first_name: u.first_name,
  last_name: u.last_name,
});
const who = (u: UserRow) => `${u.role} ${u.id} ${u.first_name} ${u.last_name} <${u.email ?? u.username}>`;

export const userCreate: Command = {
  usage:
    'user create --company ID --role ROLE --email EMAIL --password PASSWORD [--first-name F] [--last-name L] [--username U]',
  summary: 'Create a user. ROLE: admin, fleet_user or driver; a driver may have --username instead of --email.',
  details: [
    'Without --first-name/--last-name the names come from the email (jane.doe@… → Jane Doe).',
    PASSWORD_DETAILS,
  ],
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
    if (!(ROLES as readonly string[]).includes(role))
      throw new UsageError(`--role must be one of: ${ROLES.join(', ')}`);
    const email = optionalFlag(flags, 'email');
    const username = optionalFlag(flags, 'username');
    if (!email && !username) throw new UsageError('--email is required (or --username for a driver)');
    const password = requireFlag(flags, 'password');
    const { db } = await ctx.database();
    const { createUser } = await import('../domain/users/service.js');
    const { id: companyId } = await findCompany(db, company);
    const guess = namesFrom(email ?? username ?? '');
    const u = await createUser(
      db,
      { companyId },
      {
        role,
        email,
        username,
        password,
        first_name: optionalFlag(flags, 'first-name') ?? guess.first,
        last_name: optionalFlag(flags, 'last-name') ?? guess.last,
      },
    );
    const { status: _status, ...created } = brief(u);
    ctx.print(created, `Created ${who(u)} in company ${u.company_id}`);
    return 0;
  },
};

export const userList: Command = {
  usage: `user list --company ID [--role ROLE] [--status STATUS] ${PAGE_USAGE}`,
  summary: "List a company's users.",
  details: [
    `ROLE: ${ROLES.join(', ')}; STATUS: ${USER_STATUSES.join(', ')}.`,
    PAGE_DETAILS,
    'With --json: {"users": [...], "total": N}, each user as GET /v1/users shows it.',
  ],
  flags: { company: { type: 'string' }, role: { type: 'string' }, status: { type: 'string' }, ...PAGE_FLAGS },
  async run(flags, ctx) {
    const { db, company, page, own } = await companyListing(flags, ctx, () => ({
      role: choiceFlag(flags, 'role', ROLES),
      status: choiceFlag(flags, 'status', USER_STATUSES),
    }));
    const { role, status } = own;
    const users = await import('../domain/users/service.js');
    const { rows, total } = await users.listUsers(
      db,
      { companyId: company.id },
      { role, status },
      page.limit,
      page.offset,
    );
    const { userWire } = await import('../wire/user.js');
    const groups = await users.groupIdsOf(
      db,
      rows.map((u) => u.id),
    );
    printListing(ctx, {
      name: 'users',
      rows,
      total,
      page,
      json: (u) => userWire(u, groups.get(u.id) ?? []),
      none: `No user in company ${company.id}${role || status ? ' with those filters' : ''}.`,
      header: ['ID', 'ROLE', 'STATUS', 'NAME', 'LOGIN'],
      cells: (u) => [u.id, u.role, u.status, `${u.first_name} ${u.last_name}`, u.email ?? u.username],
    });
    return 0;
  },
};

/** Finds the user of `--company ID --id ID`. */
async function theUser(flags: Parameters<Command['run']>[0], ctx: Ctx) {
  const record = recordOf(flags);
  const { db, companyId } = await record.open(ctx);
  const users = await import('../domain/users/service.js');
  return { db, t: { companyId }, id: record.id, users, user: await users.getUser(db, { companyId }, record.id) };
}

export const userShow: Command = {
  usage: 'user show --company ID --id ID',
  summary: 'Show one user.',
  details: ['With --json: the user as GET /v1/users/:id shows it (never a password).'],
  flags: RECORD_FLAGS,
  async run(flags, ctx) {
    const { db, user } = await theUser(flags, ctx);
    printRecord(ctx, await userJson(db, user));
    return 0;
  },
};

export const userUpdate: Command = {
  usage:
    'user update --company ID --id ID [--email E] [--username U] [--first-name F] [--last-name L] [--phone P] [--time-zone TZ] [--role ROLE] [--status STATUS]',
  summary: "Change a user's names, contact, role or status (what is not given stays as it is).",
  details: [
    `ROLE: ${ROLES.join(', ')}; STATUS: ${USER_STATUSES.join(', ')}; TZ: a time zone as the API takes it, e.g. "Central Time (US & Canada)".`,
    'An empty value (--phone "") is refused; the password has its own command, user set-password.',
  ],
  flags: {
    ...RECORD_FLAGS,
    ...Object.fromEntries(Object.keys(NAME_FLAGS).map((f) => [f, { type: 'string' as const }])),
    role: { type: 'string' },
    status: { type: 'string' },
  },
  async run(flags, ctx) {
    recordOf(flags);
    const given = textFlags(flags, NAME_FLAGS);
    const role = choiceFlag(flags, 'role', ROLES);
    const status = choiceFlag(flags, 'status', USER_STATUSES);
    const input: Record<string, string> = Object.fromEntries(
      Object.entries(given).map(([f, v]) => [f.replace(/-/g, '_'), v]),
    );
    if (role) input.role = role;
    if (status) input.status = status;
    if (Object.keys(input).length === 0)
      throw new UsageError(
        `nothing to change: give at least one of --${[...Object.keys(NAME_FLAGS), 'role', 'status'].join(', --')}`,
      );
    const { db, t, id, users } = await theUser(flags, ctx);
    const u = await users.updateUser(db, t, id, input);
    ctx.print(brief(u), `Updated ${who(u)} (${u.status})`);
    return 0;
  },
};

export const userSetPassword: Command = {
  usage: 'user set-password --company ID --id ID [--password PASSWORD]',
  summary: "Set a user's password (typed twice when asked, or piped on standard input, or --password).",
  details: [PASSWORD_DETAILS, 'Sessions already signed in stay signed in; deactivate the user to shut them out.'],
  flags: { ...RECORD_FLAGS, password: { type: 'string' } },
  async run(flags, ctx) {
    recordOf(flags);
    const password = await passwordFrom(flags);
    const { db, t, id, users } = await theUser(flags, ctx);
    const u = await users.updateUser(db, t, id, { password });
    ctx.print({ id: u.id, company_id: u.company_id, password_set: true }, `Set a new password for ${who(u)}`);
    return 0;
  },
};

export const userDeactivate: Command = {
  usage: 'user deactivate --company ID --id ID',
  summary: 'Deactivate a user: they can no longer sign in; their records stay (user update --status active undoes it).',
  flags: RECORD_FLAGS,
  async run(flags, ctx) {
    recordOf(flags);
    const { db, t, id, users } = await theUser(flags, ctx);
    const u = await users.updateUser(db, t, id, { status: 'deactivated' });
    ctx.print(brief(u), `Deactivated ${who(u)}`);
    return 0;
  },
};

export const USER_COMMANDS: Record<string, Command> = {
  'user create': userCreate,
  'user list': userList,
  'user show': userShow,
  'user update': userUpdate,
  'user set-password': userSetPassword,
  'user deactivate': userDeactivate,
};
