/**
 * The API keys page (admins): the company's keys by name with their first characters, when each was
 * created and revoked, a form to create one and a link to revoke each. A new key is shown on the page
 * that answers its creation, once, with a copy button (copy.js; without script the field can be
 * selected and copied by hand) — the server keeps only its digest.
 */
import type { ApiKeyRow } from '../../../auth/api-keys.js';
import { hidden, html, type Html } from '../../plumbing/html.js';
import { consolePage } from './layout.js';
import { control, formErrorBox, notice, utcMinute, type Control, type PageBase } from './forms.js';

/** Longest key name the form accepts. */
export const API_KEY_NAME_MAX = 255;
const NAME: Control = {
  name: 'name',
  label: 'Name',
  required: true,
  maxLength: API_KEY_NAME_MAX,
  hint: 'Who or what uses the key, for example "Route planner"',
};

export interface ApiKeysView extends PageBase {
  keys: ApiKeyRow[];
  total: number;
  /** The key just created, shown this once. */
  created?: { name: string; key: string };
  /** The create form as typed, and its refusal. */
  name?: string;
  error?: string;
  notice?: string;
}

function createdPanel(c: { name: string; key: string }): Html {
  return html`<section class="panel created" aria-labelledby="new-key-title"><h2 id="new-key-title">New API key “${c.name}”</h2>
<p><strong>Copy the key now. You will not see it again:</strong> the server keeps only a digest of it. If it is lost, create another key and revoke this one.</p>
<label for="new-key">API key</label>
<div class="copy-row"><input id="new-key" type="text" class="secret" readonly spellcheck="false" autocomplete="off" value="${c.key}">
<button type="button" data-copy="new-key" data-copy-status="copy-status" hidden>Copy</button></div>
<p id="copy-status" class="muted" role="status"></p>
<p class="muted">Send it in the <code>X-Api-Key</code> header; it acts as the company's admin with every scope.</p></section>`;
}

function keyRow(k: ApiKeyRow): Html {
  const revoked = k.revoked_at !== null;
  return html`<tr data-id="${k.id}"${revoked ? html` class="revoked"` : ''}>
<th scope="row" data-label="Name">${k.name}</th>
<td data-label="Key" class="code">${k.key_prefix}…</td>
<td data-label="Created">${utcMinute(k.created_at)}</td>
<td data-label="Revoked">${revoked ? utcMinute(k.revoked_at) : html`<span class="muted">—</span>`}</td>
<td class="row-actions">${
    revoked
      ? ''
      : html`<a href="/console/api-keys/${k.id}/revoke" class="danger-link" aria-label="Revoke ${k.name} (${k.key_prefix}…)">Revoke…</a>`
  }</td></tr>`;
}

export function apiKeysPage(v: ApiKeysView): string {
  const error = v.error ? { message: v.error, id: 'key-error' } : undefined;
  const form = html`<section class="panel" aria-labelledby="create-title"><h2 id="create-title">Create an API key</h2>
<form method="post" action="/console/api-keys" class="record-form">${hidden('csrf_token', v.csrf)}${formErrorBox(error)}
<div class="form-grid">${control(NAME, v.name ?? '', error, 'key-')}</div>
<div class="actions"><button type="submit">Create API key</button></div></form></section>`;
  const more = v.total > v.keys.length ? html`<p class="muted">The first ${v.keys.length} of ${v.total} keys.</p>` : '';
  const table = v.keys.length
    ? html`<div class="table-wrap"><table class="records" aria-labelledby="keys-title">
<thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Revoked</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${v.keys.map(keyRow)}</tbody></table></div>${more}`
    : html`<p class="muted">The company has no API keys.</p>`;
  const body = html`<h1>API keys</h1>${notice(v.notice)}${v.created ? createdPanel(v.created) : ''}
<p class="muted">A key acts as the company's admin with every scope of the API. Give each integration its own and revoke it when it is no longer used: requests with a revoked key are refused at once.</p>
${form}<section aria-labelledby="keys-title"><h2 id="keys-title">Keys</h2>${table}</section>`;
  return consolePage({
    title: 'API keys',
    section: 'api-keys',
    user: v.user,
    csrf: v.csrf,
    body,
    styles: ['manage.css'],
    scripts: v.created ? ['copy.js'] : [],
  });
}
