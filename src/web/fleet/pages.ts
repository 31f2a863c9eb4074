/** The fleet admin's page of installed apps (active grants), each with a button that revokes it. */
import type { InstalledApp } from '../../auth/oauth/grants.js';
import { hidden, html, page, type Html } from '../html.js';
import { scopeWords } from '../pages.js';

export function installedAppsPage(v: {
  companyName: string;
  apps: InstalledApp[];
  csrf: string;
  aside: Html;
  notice?: string;
}): string {
  const items = v.apps.map(
    (a) => html`<div class="card"><h2>${a.name}</h2>
<p class="muted">Installed ${a.installed_at.slice(0, 10)}${a.consented_by ? html` by ${a.consented_by}` : ''}. Client ID <code>${a.client_id}</code>.</p>
<ul class="scopes" aria-label="Permissions of ${a.name}">${a.scopes.map((s) => html`<li>${scopeWords(s)} <code class="muted">${s}</code></li>`)}</ul>
<form method="post" action="/fleet/apps/${a.grant_id}/revoke">${hidden('csrf_token', v.csrf)}<button type="submit" class="danger">Remove ${a.name}</button></form></div>`,
  );
  return page({
    title: 'Installed apps',
    aside: v.aside,
    body: html`<h1>Apps installed for ${v.companyName}</h1>
${v.notice ? html`<p role="status">${v.notice}</p>` : ''}
${v.apps.length ? items : html`<div class="card"><p class="muted">No app is installed.</p></div>`}`,
  });
}
