/**
 * One group's page: rename it, its vehicles and users with a button to take each out, forms to add a
 * vehicle or a user, and a link to delete the group after a confirmation. Each form becomes the body of
 * the API's route (`PUT /v1/groups/:id`, `POST /v1/groups/:id/vehicles|users`, `DELETE …` with `ids`),
 * checked with its schema and messages. For a viewer who may not change the group: its members only.
 */
import type { GroupRow } from '../../../domain/groups/service.js';
import type { UserRow } from '../../../domain/users/service.js';
import type { VehicleRow } from '../../../domain/vehicles/service.js';
import { hidden, html, type Html } from '../../plumbing/html.js';
import { consolePage } from './layout.js';
import { control, formErrorBox, notice, type PageBase } from './forms.js';
import { GROUP_NAME } from './groups.js';
import type { GroupMembers } from '../data/groups-data.js';
import { ROLE_NAMES } from './users-form.js';

export type MemberKind = 'vehicles' | 'users';

export interface GroupPageView extends PageBase {
  group: GroupRow;
  members: GroupMembers;
  /** What the viewer may do here. */
  may: { edit: boolean; delete: boolean; moveUser: (role: string) => boolean };
  readOnly?: string;
  /** The rename form as typed and its refusal; a member form's refusal. */
  name?: string;
  renameError?: string;
  memberError?: { kind: MemberKind; message: string };
  notice?: string;
}

const vehicleName = (x: VehicleRow) => x.number;
const userName = (u: UserRow) => `${u.first_name} ${u.last_name}`;

function removeButton(v: GroupPageView, kind: MemberKind, id: number, label: string): Html {
  return html`<form method="post" action="/console/groups/${v.group.id}/${kind}/remove" class="inline">${hidden('csrf_token', v.csrf)}<input type="hidden" name="ids" value="${id}"><button type="submit" class="secondary" aria-label="Take ${label} out of ${v.group.name}">Remove</button></form>`;
}

function addForm(v: GroupPageView, kind: MemberKind, options: Array<[number, string]>): Html {
  const error = v.memberError?.kind === kind ? { message: v.memberError.message, id: `${kind}-error` } : undefined;
  const noun = kind === 'vehicles' ? 'vehicle' : 'user';
  if (options.length === 0) return html`${formErrorBox(error)}<p class="muted">No other ${noun} to add.</p>`;
  return html`<form method="post" action="/console/groups/${v.group.id}/${kind}" class="filters">${hidden('csrf_token', v.csrf)}${formErrorBox(error)}
<label for="add-${kind}">Add a ${noun}</label><select id="add-${kind}" name="ids" required${
    error ? html` aria-invalid="true" aria-describedby="${error.id}"` : ''
  }><option value="">—</option>${options.map(([id, label]) => html`<option value="${id}">${label}</option>`)}</select>
<button type="submit">Add</button></form>`;
}

function membersSection(v: GroupPageView): Html {
  const m = v.members;
  const vehicleRows = m.vehicles.map(
    (x) =>
      html`<tr><th scope="row" data-label="Vehicle"><a href="/console/vehicles/${x.id}/edit">${vehicleName(x)}</a></th><td data-label="Status">${x.status}</td><td class="row-actions">${
        v.may.edit ? removeButton(v, 'vehicles', x.id, vehicleName(x)) : ''
      }</td></tr>`,
  );
  const userRows = m.users.map(
    (u) =>
      html`<tr><th scope="row" data-label="User"><a href="/console/users/${u.id}">${userName(u)}</a></th><td data-label="Role">${ROLE_NAMES[u.role] ?? u.role}</td><td class="row-actions">${
        v.may.moveUser(u.role) ? removeButton(v, 'users', u.id, userName(u)) : ''
      }</td></tr>`,
  );
  const table = (label: string, rows: Html[], second: string, kind: MemberKind) =>
    rows.length
      ? html`<div class="table-wrap"><table class="records" aria-label="${label} of ${v.group.name}"><thead><tr><th scope="col">${label.slice(0, -1)}</th><th scope="col">${second}</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead><tbody>${rows}</tbody></table></div>`
      : html`<p class="muted" id="no-${kind}">No ${label.toLowerCase()} yet.</p>`;
  const adds = (kind: MemberKind) =>
    v.may.edit
      ? addForm(
          v,
          kind,
          kind === 'vehicles'
            ? m.vehicleChoices.map((x) => [x.id, vehicleName(x)])
            : m.userChoices.map((u) => [u.id, `${userName(u)} (${ROLE_NAMES[u.role] ?? u.role})`]),
        )
      : '';
  return html`<section class="panel" aria-labelledby="vehicles-title"><h2 id="vehicles-title">Vehicles (${m.vehicles.length})</h2>${adds('vehicles')}${table('Vehicles', vehicleRows, 'Status', 'vehicles')}</section>
<section class="panel" aria-labelledby="users-title"><h2 id="users-title">Users (${m.users.length})</h2>${adds('users')}${table('Users', userRows, 'Role', 'users')}</section>`;
}

export function groupPage(v: GroupPageView): string {
  const g = v.group;
  const error = v.renameError ? { message: v.renameError, id: 'rename-error' } : undefined;
  const rename = v.may.edit
    ? html`<section class="panel" aria-labelledby="rename-title"><h2 id="rename-title">Name</h2>
<form method="post" action="/console/groups/${g.id}" class="record-form">${hidden('csrf_token', v.csrf)}${formErrorBox(error)}
<div class="form-grid">${control(GROUP_NAME, v.name ?? g.name, error)}</div>
<div class="actions"><button type="submit">Rename</button></div></form></section>`
    : html`<p class="muted">${v.readOnly ?? ''}</p>`;
  const remove = v.may.delete
    ? html`<section class="panel" aria-labelledby="delete-title"><h2 id="delete-title">Delete</h2><p>Its vehicles and users stay; they leave the group.</p><div class="actions"><a href="/console/groups/${g.id}/delete" class="button danger">Delete group…</a></div></section>`
    : '';
  const body = html`<p class="crumbs"><a href="/console/groups">Groups</a></p><h1>${g.name}</h1>${notice(v.notice)}
${rename}${membersSection(v)}${remove}`;
  return consolePage({ title: g.name, section: 'groups', user: v.user, csrf: v.csrf, body, styles: ['manage.css'] });
}
