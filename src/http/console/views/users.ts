/**
 * The drivers and users page: the viewer's users in a table (name, role, email or username, phone,
 * status, groups) with filters by role and status, a search by name or email, pages of
 * USERS_PER_PAGE, a link to add one and one to open each. On a narrow screen each row becomes a card
 * whose cells carry their column's name.
 */
import { ROLES, USER_STATUSES } from '../../../domain/users/fields.js';
import { html, type Html } from '../../plumbing/html.js';
import { consolePage } from './layout.js';
import { notice, type PageBase } from './forms.js';
import { ROLE_NAMES } from './users-form.js';
import { USERS_PER_PAGE, type UserListQuery, type UserListRow } from '../data/users-data.js';

export interface UsersView extends PageBase {
  rows: UserListRow[];
  total: number;
  page: number;
  query: UserListQuery;
  /** A limited manager sees only drivers: no role filter. */
  roleFilter: boolean;
  notice?: string;
}

const dash = html`<span class="muted">—</span>`;

function row({ row: u, groups }: UserListRow): Html {
  const name = `${u.first_name} ${u.last_name}`;
  return html`<tr data-id="${u.id}">
<th scope="row" data-label="Name"><a href="/console/users/${u.id}">${name}</a></th>
<td data-label="Role">${ROLE_NAMES[u.role] ?? u.role}</td>
<td data-label="Email or username" class="code">${u.email ?? u.username ?? dash}</td>
<td data-label="Phone">${u.phone ?? dash}</td>
<td data-label="Status"><span class="badge ${u.status}">${u.status}</span></td>
<td data-label="Groups">${groups.length ? groups.join(', ') : dash}</td></tr>`;
}

const queryOf = (q: UserListQuery, page?: number) =>
  new URLSearchParams({
    ...(q.role ? { role: q.role } : {}),
    ...(q.status ? { status: q.status } : {}),
    ...(q.q ? { q: q.q } : {}),
    ...(page ? { page: String(page) } : {}),
  }).toString();

function pager(v: UsersView): Html {
  const pages = Math.max(1, Math.ceil(v.total / USERS_PER_PAGE));
  if (pages === 1) return html``;
  const href = (p: number) => `/console/users?${queryOf(v.query, p)}`;
  return html`<nav class="pager" aria-label="Pages of users">${
    v.page > 1 ? html`<a href="${href(v.page - 1)}" rel="prev">Previous</a>` : ''
  }<span>Page ${v.page} of ${pages}</span>${v.page < pages ? html`<a href="${href(v.page + 1)}" rel="next">Next</a>` : ''}</nav>`;
}

function select(
  id: string,
  name: string,
  label: string,
  values: readonly string[],
  chosen?: string,
  text = (s: string) => s,
) {
  return html`<label for="${id}">${label}</label><select id="${id}" name="${name}"><option value="">All</option>${values.map(
    (s) => html`<option value="${s}"${s === chosen ? html` selected` : ''}>${text(s)}</option>`,
  )}</select>`;
}

export function usersPage(v: UsersView): string {
  const first = (v.page - 1) * USERS_PER_PAGE + 1;
  const count =
    v.total === 0
      ? 'No users'
      : v.total <= USERS_PER_PAGE
        ? `${v.total} user${v.total === 1 ? '' : 's'}`
        : `${first}–${first + v.rows.length - 1} of ${v.total} users`;
  const filter = html`<form method="get" action="/console/users" class="filters" role="search" aria-label="Filter users">
<label for="user-q">Name or email</label><input type="search" id="user-q" name="q" value="${v.query.q ?? ''}" maxlength="255">
${v.roleFilter ? select('user-role', 'role', 'Role', ROLES, v.query.role, (r) => ROLE_NAMES[r] ?? r) : ''}
${select('user-status', 'status', 'Status', USER_STATUSES, v.query.status)}<button type="submit" class="secondary">Show</button></form>`;
  const table = v.rows.length
    ? html`<div class="table-wrap"><table class="records" aria-describedby="user-count">
<thead><tr><th scope="col">Name</th><th scope="col">Role</th><th scope="col">Email or username</th><th scope="col">Phone</th><th scope="col">Status</th><th scope="col">Groups</th></tr></thead>
<tbody>${v.rows.map(row)}</tbody></table></div>`
    : '';
  const body = html`<div class="page-head"><h1>Drivers &amp; users</h1><a href="/console/users/new" class="button">Add user</a></div>
${notice(v.notice)}${filter}<p id="user-count" class="muted">${count}</p>${table}${pager(v)}`;
  return consolePage({
    title: 'Drivers & users',
    section: 'users',
    user: v.user,
    csrf: v.csrf,
    body,
    styles: ['manage.css'],
  });
}
