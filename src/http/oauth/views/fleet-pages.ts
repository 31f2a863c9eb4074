/**
 * The fleet admin's page of installed apps (active grants), each with a button that revokes it. It is a
 * console page (its navigation, with "Apps" current), so that it leads back to the rest of the console.
 */
import type { InstalledApp } from '../../../auth/oauth/grants.js';
import { hidden, html } from '../../plumbing/html.js';
import { scopeWords } from './flow-pages.js';
import { consolePage, type ConsoleUser } from '../../console/views/layout.js';
import { notice } from '../../console/views/forms.js';

export function installedAppsPage(v: {
  user: ConsoleUser;
  apps: InstalledApp[];
  csrf: string;
  notice?: string;
}): string {
  const items = v.apps.map(
    (a) => html`<section class="panel" aria-labelledby="app-${a.grant_id}"><h2 id="app-${a.grant_id}">${a.name}</h2>
<p class="muted">Installed ${a.installed_at.slice(0, 10)}${a.consented_by ? html` by ${a.consented_by}` : ''}. Client ID <code>${a.client_id}</code>.</p>
<ul class="scopes" aria-label="Permissions of ${a.name}">${a.scopes.map((s) => html`<li>${scopeWords(s)} <code class="muted">${s}</code></li>`)}</ul>
<form method="post" action="/fleet/apps/${a.grant_id}/revoke">${hidden('csrf_token', v.csrf)}<button type="submit" class="danger">Remove ${a.name}</button></form></section>`,
  );
  const body = html`<h1>Apps installed for ${v.user.company_name}</h1>${notice(v.notice)}
${v.apps.length ? items : html`<p class="muted">No app is installed.</p>`}`;
  return consolePage({
    title: 'Installed apps',
    section: 'apps',
    user: v.user,
    csrf: v.csrf,
    body,
    styles: ['manage.css'],
  });
}
