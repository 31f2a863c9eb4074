/**
 * The user form of the console (add and edit). The fields are those of `POST/PUT /v1/users`
 * (docs/reference/wire.md §4.2); what the form sends becomes the API's body (`userBody`) and is checked
 * and stored by the same service, so a refusal carries the API's message, shown above the form that was
 * sent, which keeps what was typed. Fields that belong to one role say so; the body carries a driver's
 * fields only for a driver and a fleet manager's only for a fleet manager.
 */
import { GROUP_VISIBILITY, type Role } from '../../../domain/users/fields.js';
import { TIME_ZONES } from '../../../core/time-zone.js';
import type { UserRow } from '../../../domain/users/service.js';
import { hidden, html, type Html } from '../../plumbing/html.js';
import { control, fieldOfMessage, formErrorBox, groupsFieldset, type Control, type FormError } from './forms.js';
import type { GroupChoice } from '../data/vehicles-data.js';

const TEXT = 255;

export const ROLE_NAMES: Record<string, string> = { driver: 'Driver', fleet_user: 'Fleet manager', admin: 'Admin' };

const roleControl = (roles: readonly Role[]): Control => ({
  name: 'role',
  label: 'Role',
  kind: 'select',
  options: roles,
  required: true,
  hint: roles.length > 1 ? 'driver, fleet_user (a fleet manager) or admin' : 'Fleet managers add drivers',
});

export const COMMON: Control[] = [
  { name: 'first_name', label: 'First name', required: true, maxLength: TEXT },
  { name: 'last_name', label: 'Last name', required: true, maxLength: TEXT },
  {
    name: 'email',
    label: 'Email',
    maxLength: TEXT,
    code: true,
    hint: 'Admins and fleet managers sign in with it; a driver needs an email or a username',
  },
  { name: 'phone', label: 'Phone', maxLength: TEXT },
  { name: 'time_zone', label: 'Time zone', kind: 'select', options: Object.keys(TIME_ZONES) },
];

export const DRIVER_ONLY: Control[] = [
  { name: 'username', label: 'Username', maxLength: TEXT, code: true, hint: 'Drivers only' },
  {
    name: 'driver_company_id',
    label: 'Driver ID',
    maxLength: TEXT,
    code: true,
    hint: "Drivers only: your company's ID",
  },
  { name: 'drivers_license_number', label: 'License number', maxLength: TEXT, code: true, hint: 'Drivers only' },
  { name: 'drivers_license_state', label: 'License state', maxLength: TEXT, code: true, hint: 'Drivers only, e.g. TX' },
];

export const MANAGER_ONLY: Control[] = [
  {
    name: 'group_visibility',
    label: 'Sees',
    kind: 'select',
    options: GROUP_VISIBILITY,
    hint: 'Fleet managers only: all of the fleet, or only their groups (limited)',
  },
];

const ALL = [...COMMON, ...DRIVER_ONLY, ...MANAGER_ONLY];

/** What a form holds, as typed: text by field name (role included), and the chosen group ids. */
export interface UserValues {
  fields: Record<string, string>;
  groupIds: string[];
}

export function valuesOfUser(row: UserRow, groupIds: number[]): UserValues {
  const fields: Record<string, string> = { role: row.role };
  for (const c of ALL) fields[c.name] = String(row[c.name as keyof UserRow] ?? '');
  return { fields, groupIds: groupIds.map(String) };
}

export function valuesOfForm(
  body: unknown,
  read: (body: unknown, name: string) => string | undefined,
  groups: string[],
) {
  const fields: Record<string, string> = {};
  for (const name of ['role', ...ALL.map((c) => c.name)]) fields[name] = read(body, name) ?? '';
  return { fields, groupIds: groups };
}

const orNull = (s: string | undefined) => (s === undefined || s.trim() === '' ? null : s.trim());
const asId = (g: string) => (/^\d{1,10}$/.test(g) ? Number(g) : g);

/**
 * The API body of a details form: every field, an empty one clearing it; the names as typed. A role
 * left empty is left out (the API then says it is required). `group_ids` go in the body for a fleet
 * manager and for any other role with groups chosen but a driver, so that the API's rule refuses them;
 * a driver's groups are memberships, set apart (`groupIds`).
 */
export function userBody(v: UserValues): { body: Record<string, unknown>; groupIds: Array<number | string> } {
  const f = v.fields;
  const role = f.role ?? '';
  const body: Record<string, unknown> = { first_name: f.first_name ?? '', last_name: f.last_name ?? '' };
  if (role !== '') body.role = role;
  for (const c of COMMON.slice(2)) body[c.name] = orNull(f[c.name]);
  if (role === 'driver') for (const c of DRIVER_ONLY) body[c.name] = orNull(f[c.name]);
  const groupIds = v.groupIds.map(asId);
  if (role === 'fleet_user') {
    if (f.group_visibility) body.group_visibility = f.group_visibility;
    body.group_ids = groupIds;
  } else if (role !== 'driver' && groupIds.length) body.group_ids = groupIds;
  return { body, groupIds };
}

export interface DetailsView {
  csrf: string;
  user?: UserRow;
  values: UserValues;
  roles: readonly Role[];
  groups: GroupChoice[];
  groupsRequired: boolean;
  error?: string;
  /** The add form's sign-in choice, as sent. */
  access?: string;
}

const userGroups = (v: DetailsView, error: FormError | undefined) =>
  groupsFieldset(
    {
      groups: v.groups,
      chosen: v.values.groupIds,
      required: v.groupsRequired,
      hint: html`A driver's groups; the groups a fleet manager manages.`,
    },
    error,
  );

/** The add form's sign-in choice: an invite link, a password typed now, or nothing yet. */
function accessFieldset(v: DetailsView, error: FormError | undefined): Html {
  const access = v.access ?? 'invite';
  const invalid = error !== undefined && fieldOfMessage(error.message) === 'password';
  const radio = (value: string, label: string) =>
    html`<label class="check"><input type="radio" name="access" value="${value}"${access === value ? html` checked` : ''}> ${label}</label>`;
  return html`<fieldset class="form-field wide"><legend>Sign-in</legend>
${radio('invite', 'Make a one-time invite link: they choose their own password')}
${radio('password', 'Set a password now')}
${radio('none', 'Not yet')}
<div class="form-field"><label for="new-password">Password</label><input type="password" id="new-password" name="password" autocomplete="new-password" maxlength="200"${
    invalid
      ? html` aria-invalid="true" aria-describedby="password-hint ${error.id}"`
      : html` aria-describedby="password-hint"`
  }><span class="hint" id="password-hint">With "Set a password now": at least 15 characters; a passphrase of a few words works well</span></div></fieldset>`;
}

export function detailsForm(v: DetailsView): Html {
  const error = v.error ? { message: v.error, id: 'details-error' } : undefined;
  const action = v.user ? `/console/users/${v.user.id}` : '/console/users';
  const value = (c: Control) => v.values.fields[c.name] ?? '';
  const section = (title: string, controls: Control[]) =>
    html`<h3 class="form-part">${title}</h3><div class="form-grid">${controls.map((c) => control(c, value(c), error))}</div>`;
  return html`<form method="post" action="${action}" class="record-form" aria-labelledby="details-title">
${hidden('csrf_token', v.csrf)}${formErrorBox(error)}
<div class="form-grid">${control(roleControl(v.roles), value({ name: 'role', label: '' }), error)}${COMMON.map((c) => control(c, value(c), error))}</div>
${section('Driver', DRIVER_ONLY)}${v.roles.length > 1 ? section('Fleet manager', MANAGER_ONLY) : ''}
<div class="form-grid">${userGroups(v, error)}${v.user ? '' : accessFieldset(v, error)}</div>
<div class="actions"><button type="submit">${v.user ? 'Save changes' : 'Add user'}</button>
<a href="/console/users" class="button secondary">Cancel</a></div></form>`;
}

/** A user the viewer may only look at: the main fields, and why. */
export function readOnlyDetails(row: UserRow, why: string): Html {
  const item = (label: string, value: string | null) =>
    html`<dt>${label}</dt><dd>${value || html`<span class="muted">—</span>`}</dd>`;
  return html`<p class="muted">${why}</p><dl class="facts">${item('Role', ROLE_NAMES[row.role] ?? row.role)}${item('Email', row.email)}${item(
    'Phone',
    row.phone,
  )}${item('Status', row.status)}</dl>`;
}
