/**
 * Passwords in the console and on the one-time link's page:
 * - the sign-in panel of a user's page: whether they have a password or an open link, a form to set a
 *   password, and the link buttons (an invite for a user without a password; a reset, after a
 *   confirmation, for one with a password);
 * - the panel that shows a new link once (the server keeps only its digest), with a copy button;
 * - the signed-out page the link opens, where the user chooses their password.
 */
import type { UserRow } from '../../../domain/users/service.js';
import { INVITE_TTL_H, RESET_TTL_H, type LinkPurpose } from '../../../domain/users/password-links.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../../auth/password-policy.js';
import { errorBox, hidden, html, page, type Html } from '../../plumbing/html.js';
import { formErrorBox, utcMinute } from './forms.js';

export interface ShownLink {
  url: string;
  purpose: LinkPurpose;
  expires_at: string;
}

export interface SignInState {
  /** An error of the set-password form. */
  error?: string;
  pending: { purpose: LinkPurpose; expires_at: string } | null;
  /** The link just made, shown this once. */
  link?: ShownLink;
}

const passwordInput = (id: string, error: { id: string } | undefined, autocomplete = 'new-password') =>
  html`<input type="password" id="${id}" name="password" required minlength="${MIN_PASSWORD_LENGTH}" maxlength="${MAX_PASSWORD_LENGTH}" autocomplete="${autocomplete}" aria-describedby="${id}-hint${
    error ? html` ${error.id}` : ''
  }"${error ? html` aria-invalid="true"` : ''}><span class="hint" id="${id}-hint">At least ${MIN_PASSWORD_LENGTH} characters; a passphrase of a few words works well. Not a common password, nor the email address.</span>`;

export function linkPanel(name: string, l: ShownLink): Html {
  const what = l.purpose === 'invite' ? 'Invite link' : 'Password reset link';
  return html`<section class="panel created" aria-labelledby="link-title"><h2 id="link-title">${what} for ${name}</h2>
<p><strong>Copy the link now and give it to ${name}. You will not see it again:</strong> the server keeps only a digest of it.</p>
<label for="password-link">Link</label>
<div class="copy-row"><input id="password-link" type="text" class="secret" readonly spellcheck="false" autocomplete="off" value="${l.url}">
<button type="button" data-copy="password-link" data-copy-status="link-copy-status" hidden>Copy</button></div>
<p id="link-copy-status" class="muted" role="status"></p>
<p class="muted">It works once, until ${utcMinute(l.expires_at)}. A newer link replaces it.</p></section>`;
}

export function signInPanel(csrf: string, row: UserRow, s: SignInState): Html {
  const error = s.error ? { message: s.error, id: 'password-error' } : undefined;
  const state = row.password_hash
    ? 'Has a password.'
    : s.pending
      ? `No password yet: ${s.pending.purpose === 'invite' ? 'an invite' : 'a reset'} link is open until ${utcMinute(s.pending.expires_at)}.`
      : 'No password yet: they cannot sign in.';
  const active = row.status === 'active';
  const linkAction = row.password_hash
    ? html`<a href="/console/users/${row.id}/reset-password" class="button secondary">Reset password…</a>`
    : html`<form method="post" action="/console/users/${row.id}/invite" class="inline">${hidden('csrf_token', csrf)}<button type="submit" class="secondary">${
        s.pending ? 'Make a new invite link' : 'Make an invite link'
      }</button></form>`;
  const forms = active
    ? html`<form method="post" action="/console/users/${row.id}/password" class="record-form">${hidden('csrf_token', csrf)}${formErrorBox(error)}
<div class="form-grid"><div class="form-field"><label for="set-password">New password</label>${passwordInput('set-password', error)}</div></div>
<div class="actions"><button type="submit">Set password</button></div></form>
<p class="muted">Or let them choose it: a one-time link works for ${INVITE_TTL_H / 24} days (an invite) or ${RESET_TTL_H} hours (a reset, which also ends the password they have and signs them out).</p>
<div class="actions">${linkAction}</div>`
    : html`<p class="muted">Reactivate the user to give them a password.</p>`;
  return html`<section class="panel" aria-labelledby="signin-title"><h2 id="signin-title">Sign-in</h2><p>${state}</p>${forms}</section>`;
}

export interface LinkPageView {
  csrf: string;
  token: string;
  name: string;
  email: string | null;
  purpose: LinkPurpose;
  /** Admins and fleet managers sign in to the console afterwards. */
  console: boolean;
  error?: string;
}

/** The page of a one-time link: choose a password. */
export function choosePasswordPage(v: LinkPageView): string {
  const error = v.error ? { id: 'choose-error' } : undefined;
  const title = v.purpose === 'invite' ? 'Choose your password' : 'Choose a new password';
  return page({
    title,
    body: html`<div class="card"><h1>${title}</h1>
<p>For <strong>${v.name}</strong>${v.email ? html` (${v.email})` : ''}.</p>
${v.error ? html`<p class="error" role="alert" id="choose-error">${v.error}</p>` : ''}
<form method="post" action="/set-password">${hidden('csrf_token', v.csrf)}${hidden('password_token', v.token)}
<label for="password">Password</label>${passwordInput('password', error)}
<div class="actions"><button type="submit">Set password</button></div></form>
${v.console ? html`<p class="muted">Then sign in to the fleet console with your email address and this password.</p>` : ''}</div>`,
  });
}

export function passwordSetPage(name: string, console: boolean): string {
  return page({
    title: 'Password set',
    body: html`<div class="card"><h1>Password set</h1><p role="status">The password of ${name} is set.</p>${
      console ? html`<div class="actions"><a href="/sign-in">Sign in</a></div>` : ''
    }</div>`,
  });
}

export const linkProblemPage = (message: string) =>
  page({ title: 'Link not valid', body: html`<div class="card"><h1>Link not valid</h1>${errorBox(message)}</div>` });
