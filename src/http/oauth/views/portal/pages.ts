/** Developer-portal pages: sign up, sign in, the app list, app registration and the one-time secret. */
import { SCOPES } from '../../../../auth/scopes.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../../../auth/password-policy.js';
import type { OAuthApp } from '../../../../auth/oauth/apps.js';
import { errorBox, hidden, html, Html, page } from '../../../plumbing/html.js';
import { scopeWords } from '../flow-pages.js';
import { SCOPE_GROUPS } from './scope-groups.js';
import { SCOPE_PICKER_JS } from './scope-picker.js';

const BRAND = 'Fleet platform · Developers';

export function signUpPage(v: {
  csrf: string;
  email?: string;
  name?: string;
  error?: string;
  status?: number;
}): string {
  return page({
    title: 'Create a developer account',
    brand: BRAND,
    body: html`<div class="card"><h1>Create a developer account</h1>
${errorBox(v.error)}
<form method="post" action="/developers/sign-up">
${hidden('csrf_token', v.csrf)}
<label for="name">Your name</label>
<input id="name" name="name" type="text" autocomplete="name" required maxlength="100" value="${v.name ?? ''}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${v.email ?? ''}">
<label for="password">Password (at least ${MIN_PASSWORD_LENGTH} characters; a phrase of a few words is easiest)</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="${MIN_PASSWORD_LENGTH}" maxlength="${MAX_PASSWORD_LENGTH}">
<div class="actions"><button type="submit">Create account</button></div>
</form>
<p class="muted">Already registered? <a href="/developers/sign-in">Sign in</a>.</p></div>`,
  });
}

export const signUpLink = html`<p class="muted">No account yet? <a href="/developers/sign-up">Create a developer account</a>.</p>`;

export function appsPage(v: { apps: OAuthApp[]; aside: Html }): string {
  const rows = v.apps.map(
    (a) =>
      html`<tr><td><a href="/developers/apps/${a.id}">${a.name}</a></td><td><code>${a.client_id}</code></td><td>${a.scopes.length}</td></tr>`,
  );
  return page({
    title: 'Your applications',
    brand: BRAND,
    aside: v.aside,
    body: html`<div class="card"><h1>Your applications</h1>
${v.apps.length ? html`<table><thead><tr><th scope="col">Name</th><th scope="col">Client ID</th><th scope="col">Scopes</th></tr></thead><tbody>${rows}</tbody></table>` : html`<p class="muted">You have not registered an application yet.</p>`}
<div class="actions"><a href="/developers/apps/new">Register an application</a></div></div>`,
  });
}

export interface NewAppView {
  csrf: string;
  aside: Html;
  error?: string;
  name?: string;
  redirectUris?: string;
  scopes?: string[];
}

/**
 * The scopes by area, each group with an "all" box first. The box is a real form field (`scope_group`),
 * so ticking it asks for the whole group even without script; with script it also ticks the boxes.
 */
function scopePicker(chosen: Set<string>): Html {
  return html`${SCOPE_GROUPS.map((g) => {
    const ids = g.scopes.map((s) => `scope-${s.replace(/\./g, '-')}`);
    const all = g.scopes.every((s) => chosen.has(s));
    return html`<fieldset class="scope-group"><legend>${g.label}</legend>
<label for="group-${g.key}"><input id="group-${g.key}" type="checkbox" name="scope_group" value="${g.key}" aria-controls="${ids.join(' ')}"${all ? html` checked` : ''}> <strong>All of ${g.label} (${g.scopes.length})</strong></label>
${g.scopes.map(
  (s, i) =>
    html`<label for="${ids[i]}"><input id="${ids[i]}" type="checkbox" name="scopes" value="${s}" data-group="${g.key}"${chosen.has(s) ? html` checked` : ''}> <span>${SCOPES[s]} <code class="muted">${s}</code></span></label>`,
)}</fieldset>`;
  })}`;
}

export function newAppPage(v: NewAppView): string {
  const chosen = new Set(v.scopes ?? []);
  return page({
    title: 'Register an application',
    brand: BRAND,
    aside: v.aside,
    body: html`<div class="card"><h1>Register an application</h1>
${errorBox(v.error)}
<form method="post" action="/developers/apps">
${hidden('csrf_token', v.csrf)}
<label for="name">Application name (shown to fleets on the consent page)</label>
<input id="name" name="name" type="text" required maxlength="100" value="${v.name ?? ''}">
<label for="redirect_uris">Redirect URIs, one per line (matched exactly)</label>
<textarea id="redirect_uris" name="redirect_uris" required>${v.redirectUris ?? ''}</textarea>
<fieldset><legend>Scopes the application may ask for</legend>
<p class="muted">Grouped by area; "All of …" asks for every scope of its group.</p>${scopePicker(chosen)}</fieldset>
<div class="actions"><button type="submit">Register</button> <a href="/developers/apps">Cancel</a></div>
</form><script>${new Html(SCOPE_PICKER_JS)}</script></div>`,
  });
}

export function appPage(v: { app: OAuthApp; csrf: string; aside: Html; secret?: string; notice?: string }): string {
  const a = v.app;
  return page({
    title: a.name,
    brand: BRAND,
    aside: v.aside,
    body: html`<div class="card"><h1>${a.name}</h1>
${v.notice ? html`<p role="status">${v.notice}</p>` : ''}
${v.secret ? html`<h2>Client secret</h2><p><strong>Copy it now: it is shown only this once.</strong></p><code class="secret" id="client_secret">${v.secret}</code>` : ''}
<h2>Client ID</h2><code class="secret" id="client_id">${a.client_id}</code>
<h2>Redirect URIs</h2><ul>${a.redirect_uris.map((u) => html`<li><code>${u}</code></li>`)}</ul>
<h2>Scopes</h2><ul class="scopes">${a.scopes.map((s) => html`<li>${scopeWords(s)} <code class="muted">${s}</code></li>`)}</ul>
<h2>Rotate the client secret</h2>
<p class="muted">A new secret replaces the current one at once; the current one stops working.</p>
<form method="post" action="/developers/apps/${a.id}/secret">${hidden('csrf_token', v.csrf)}<button type="submit" class="danger">Rotate secret</button></form>
<div class="actions"><a href="/developers/apps">All applications</a></div></div>`,
  });
}
