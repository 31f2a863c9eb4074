/** Pages of the authorization flow: sign-in, consent, and the error page that replaces a redirect. */
import { SCOPES, isScope } from '../../../auth/scopes.js';
import { errorBox, hidden, html, page, type Html } from '../../plumbing/html.js';

export function scopeWords(scope: string): string {
  return isScope(scope) ? SCOPES[scope] : scope;
}

export interface SignInView {
  action: string;
  csrf: string;
  returnTo?: string;
  email?: string;
  error?: string;
  heading?: string;
  intro?: string;
  /** Extra content below the form, e.g. a link to sign up. */
  footer?: Html;
  brand?: string;
}

export function signInPage(v: SignInView): string {
  return page({
    title: v.heading ?? 'Sign in',
    brand: v.brand,
    body: html`<div class="card"><h1>${v.heading ?? 'Sign in'}</h1>
<p class="muted">${v.intro ?? 'Sign in with your company admin or fleet manager account.'}</p>
${errorBox(v.error)}
<form method="post" action="${v.action}">
${hidden('csrf_token', v.csrf)}${hidden('return_to', v.returnTo)}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${v.email ?? ''}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="actions"><button type="submit">Sign in</button></div>
</form>${v.footer ?? ''}</div>`,
  });
}

export interface ConsentView {
  appName: string;
  companyName: string;
  userName: string;
  scopes: string[];
  params: Record<string, string | undefined>;
  csrf: string;
  aside: Html;
}

export function consentPage(v: ConsentView): string {
  return page({
    title: `Install ${v.appName}`,
    aside: v.aside,
    body: html`<div class="card"><h1>Install ${v.appName}?</h1>
<p><strong>${v.appName}</strong> asks to access <strong>${v.companyName}</strong> on your behalf. It will be able to:</p>
<ul class="scopes" aria-label="Requested permissions">${v.scopes.map((s) => html`<li>${scopeWords(s)} <span class="muted">(<code>${s}</code>)</span></li>`)}</ul>
<p class="muted">Signed in as ${v.userName}. An admin can remove this app at any time under Installed apps.</p>
<form method="post" action="/oauth/authorize">
${hidden('csrf_token', v.csrf)}${Object.entries(v.params).map(([k, val]) => hidden(k, val))}
<div class="actions"><button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button></div>
</form></div>`,
  });
}

export function errorPage(title: string, message: string, aside?: Html): string {
  return page({
    title,
    aside,
    body: html`<div class="card"><h1>${title}</h1><p role="alert">${message}</p></div>`,
  });
}

/** The header's "signed in as … / Sign out" block. */
export function signedInAside(name: string, signOutAction: string, csrf: string): Html {
  return html`<form method="post" action="${signOutAction}" class="inline"><span class="muted">${name}</span> ${hidden('csrf_token', csrf)}<button type="submit" class="secondary">Sign out</button></form>`;
}
