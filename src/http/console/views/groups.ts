/**
 * The groups page: the groups the viewer sees by name (parent group, how many vehicles and users), a
 * link to each, and — for those who may — a form to create one. The form's field is the `name` of
 * `POST /v1/groups`, and a refusal shows the API's message next to it.
 */
import { hidden, html, type Html } from '../../plumbing/html.js';
import { consolePage } from './layout.js';
import { control, formErrorBox, notice, type Control, type PageBase } from './forms.js';
import type { GroupListRow } from '../data/groups-data.js';

export const GROUP_NAME: Control = {
  name: 'name',
  label: 'Name',
  required: true,
  maxLength: 255,
  hint: 'For example a terminal, a region or a customer',
};

export interface GroupsView extends PageBase {
  rows: GroupListRow[];
  /** The create form, when the viewer may create groups; as typed, and its refusal. */
  create?: { name: string; error?: string };
  readOnly?: string;
  notice?: string;
}

function row(g: GroupListRow): Html {
  return html`<tr data-id="${g.row.id}">
<th scope="row" data-label="Name"><a href="/console/groups/${g.row.id}">${g.row.name}</a></th>
<td data-label="Part of">${g.parent ?? html`<span class="muted">—</span>`}</td>
<td data-label="Vehicles" class="num">${g.vehicles}</td>
<td data-label="Users" class="num">${g.users}</td></tr>`;
}

export function groupsPage(v: GroupsView): string {
  const c = v.create;
  const error = c?.error ? { message: c.error, id: 'group-error' } : undefined;
  const form = c
    ? html`<section class="panel" aria-labelledby="create-title"><h2 id="create-title">Create a group</h2>
<form method="post" action="/console/groups" class="record-form">${hidden('csrf_token', v.csrf)}${formErrorBox(error)}
<div class="form-grid">${control(GROUP_NAME, c.name, error, 'group-')}</div>
<div class="actions"><button type="submit">Create group</button></div></form></section>`
    : html`<p class="muted">${v.readOnly ?? ''}</p>`;
  const count = v.rows.length === 0 ? 'No groups' : `${v.rows.length} group${v.rows.length === 1 ? '' : 's'}`;
  const table = v.rows.length
    ? html`<div class="table-wrap"><table class="records" aria-describedby="group-count">
<thead><tr><th scope="col">Name</th><th scope="col">Part of</th><th scope="col">Vehicles</th><th scope="col">Users</th></tr></thead>
<tbody>${v.rows.map(row)}</tbody></table></div>`
    : '';
  const body = html`<h1>Groups</h1>${notice(v.notice)}
<p class="muted">Groups gather vehicles and drivers, by terminal, region or customer. A fleet manager limited to their groups sees only the vehicles and drivers in them.</p>
${form}<section aria-labelledby="groups-title"><h2 id="groups-title">Groups</h2><p id="group-count" class="muted">${count}</p>${table}</section>`;
  return consolePage({ title: 'Groups', section: 'groups', user: v.user, csrf: v.csrf, body, styles: ['manage.css'] });
}
