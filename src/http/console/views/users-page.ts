/**
 * A user's page in the console (and the add form): the details form — or, for a user the viewer may
 * only look at, the details and why — then sign-in (password, invite and reset links) and status
 * (deactivate, reactivate). A link just made is shown at the top, once.
 */
import type { UserRow } from '../../../domain/users/service.js';
import type { LinkPurpose } from '../../../domain/users/password-links.js';
import { html, type Html } from '../../plumbing/html.js';
import { consolePage } from './layout.js';
import { notice, type PageBase } from './forms.js';
import { detailsForm, readOnlyDetails, type DetailsView } from './users-form.js';
import { linkPanel, signInPanel, type ShownLink } from './users-password.js';

export interface UserPageView extends PageBase, Omit<DetailsView, 'csrf' | 'user'> {
  /** The user shown; none on the add form. */
  row?: UserRow;
  /** Why the viewer may only look at this user; undefined when they may change them. */
  readOnly?: string;
  pending: { purpose: LinkPurpose; expires_at: string } | null;
  link?: ShownLink;
  passwordError?: string;
  notice?: string;
  /** The signed-in user's id: nobody deactivates themselves. */
  selfId: number;
}

const STATUS_TEXT: Record<string, string> = {
  active: 'Active: can sign in with a password.',
  deactivated: 'Deactivated: cannot sign in; their records stay.',
};

function statusSection(row: UserRow, self: boolean): Html {
  const deactivated = row.status === 'deactivated';
  const link = deactivated
    ? html`<a href="/console/users/${row.id}/reactivate" class="button secondary">Reactivate…</a>`
    : self
      ? html`<p class="muted">Another admin can deactivate your account.</p>`
      : html`<a href="/console/users/${row.id}/deactivate" class="button danger">Deactivate…</a>`;
  return html`<section class="panel" aria-labelledby="status-title"><h2 id="status-title">Status</h2>
<p>${STATUS_TEXT[row.status] ?? row.status}</p><div class="actions">${link}</div></section>`;
}

export function userPage(v: UserPageView): string {
  const row = v.row;
  const name = row ? `${row.first_name} ${row.last_name}` : '';
  const title = row ? name : 'Add a user';
  const details =
    row && v.readOnly !== undefined ? readOnlyDetails(row, v.readOnly) : detailsForm({ ...v, csrf: v.csrf, user: row });
  const manage = row && v.readOnly === undefined;
  const self = row?.id === v.selfId;
  const body = html`<p class="crumbs"><a href="/console/users">Drivers &amp; users</a></p><h1>${title}</h1>${notice(v.notice)}
${row && v.link ? linkPanel(name, v.link) : ''}
<section class="panel" aria-labelledby="details-title"><h2 id="details-title">Details</h2>${details}</section>
${
  manage
    ? html`${signInPanel(v.csrf, row, { error: v.passwordError, pending: v.pending, link: v.link })}${statusSection(row, self)}`
    : ''
}`;
  return consolePage({
    title,
    section: 'users',
    user: v.user,
    csrf: v.csrf,
    body,
    styles: ['manage.css'],
    scripts: v.link ? ['copy.js'] : [],
  });
}
