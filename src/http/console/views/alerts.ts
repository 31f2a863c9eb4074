/**
 * The alerts pages: the signed-in user's feed (newest first, unread marked, mark one or all read, live
 * additions by alerts.js) and the form where they choose, per kind, what they get in the console and
 * by email. Every form posts with the session's CSRF token.
 */
import { ALERT_KINDS, KIND_LABELS } from '../../../domain/alerts/kinds.js';
import type { FeedItem } from '../../../domain/alerts/service.js';
import { FEED_PAGE_SIZE } from '../../../domain/alerts/service.js';
import type { Preferences } from '../../../domain/alerts/preferences.js';
import { hidden, html, type Html } from '../../plumbing/html.js';
import { consolePage } from './layout.js';
import { notice, type PageBase } from './forms.js';

export interface FeedView extends PageBase {
  items: FeedItem[];
  total: number;
  unread: number;
  page: number;
  unreadOnly: boolean;
  notice?: string;
}

/** One entry of the feed; the live view inserts the same markup (src/http/console/alerts.ts). */
export function feedEntry(a: FeedItem, csrf: string): Html {
  const mark = a.read
    ? html``
    : html`<form method="post" action="/console/alerts/read" class="mark-read">${hidden('csrf_token', csrf)}${hidden(
        'ids',
        String(a.id),
      )}<button type="submit" class="secondary" aria-label="Mark read: ${a.title}">Mark read</button></form>`;
  return html`<li class="alert-entry kind-${a.kind}${a.read ? '' : ' unread'}" data-id="${a.id}" data-kind="${a.kind}">
<div class="alert-main"><span class="alert-kind">${a.kind_label}</span>${a.read ? '' : html`<span class="visually-hidden">Unread: </span>`}
<strong class="alert-title">${a.title}</strong>${a.detail ? html`<span class="alert-detail">${a.detail}</span>` : ''}
<time datetime="${a.occurred_at}">${a.when}</time></div>${mark}</li>`;
}

function pager(v: FeedView): Html {
  const pages = Math.max(1, Math.ceil(v.total / FEED_PAGE_SIZE));
  if (pages === 1) return html``;
  const href = (p: number) =>
    `/console/alerts?${new URLSearchParams({ ...(v.unreadOnly ? { show: 'unread' } : {}), page: String(p) }).toString()}`;
  return html`<nav class="pager" aria-label="Pages of alerts">${
    v.page > 1 ? html`<a href="${href(v.page - 1)}" rel="prev">Newer</a>` : ''
  }<span>Page ${v.page} of ${pages}</span>${v.page < pages ? html`<a href="${href(v.page + 1)}" rel="next">Older</a>` : ''}</nav>`;
}

export function feedPage(v: FeedView): string {
  const tab = (label: Html | string, href: string, on: boolean) =>
    on ? html`<a href="${href}" aria-current="page">${label}</a>` : html`<a href="${href}">${label}</a>`;
  const markAll =
    v.unread > 0
      ? html`<form method="post" action="/console/alerts/read" class="mark-all">${hidden('csrf_token', v.csrf)}${hidden(
          'all',
          '1',
        )}<button type="submit" class="secondary">Mark all read</button></form>`
      : '';
  const empty = v.unreadOnly
    ? 'No unread alerts.'
    : 'No alerts yet. Hours-of-service violations, speeding, geofence entries and exits, new fault codes and gateway disconnects appear here as they happen.';
  const list = html`<ol class="alert-feed" id="alert-feed" aria-labelledby="feed-title"${
    v.page === 1 ? html` data-live="1"` : ''
  } data-unread-only="${v.unreadOnly ? '1' : '0'}">${v.items.map((a) => feedEntry(a, v.csrf))}</ol>`;
  const body = html`<div class="page-head"><h1 id="feed-title">Alerts</h1><a href="/console/alerts/preferences" class="button secondary">Alert settings</a></div>
${notice(v.notice)}<div class="feed-tools"><nav class="feed-tabs" aria-label="Which alerts">${tab(
    'All',
    '/console/alerts',
    !v.unreadOnly,
  )}${tab(html`Unread (<span id="unread-tab-count">${v.unread}</span>)`, '/console/alerts?show=unread', v.unreadOnly)}</nav>${markAll}</div>
<p id="feed-live" class="muted" role="status">${v.items.length ? '' : empty}</p>${list}${pager(v)}`;
  return consolePage({
    title: 'Alerts',
    section: 'alerts',
    user: v.user,
    csrf: v.csrf,
    body,
    styles: ['manage.css', 'alerts.css'],
    scripts: ['alerts.js'],
  });
}

export interface PreferencesView extends PageBase {
  prefs: Preferences;
  /** The server sends email (SMTP_URL is set). */
  emailOn: boolean;
  email: string;
  notice?: string;
}

export function preferencesPage(v: PreferencesView): string {
  const box = (name: 'console' | 'email', kind: string, on: boolean, label: string) =>
    html`<input type="checkbox" name="${name}" value="${kind}" id="${name}-${kind}"${on ? html` checked` : ''} aria-label="${label}">`;
  const rows = ALERT_KINDS.map(
    (k) => html`<tr><th scope="row">${KIND_LABELS[k]}</th>
<td data-label="In the console">${box('console', k, v.prefs[k].console, `${KIND_LABELS[k]} in the console`)}</td>
<td data-label="By email">${box('email', k, v.prefs[k].email, `${KIND_LABELS[k]} by email`)}</td></tr>`,
  );
  const mail = v.emailOn
    ? html`<p class="muted" id="email-note">Emails go to ${v.email}.</p>`
    : html`<p class="muted" id="email-note">This server sends no email yet (its administrator sets <code>SMTP_URL</code>); what you choose is kept for when it does.</p>`;
  const body = html`<div class="page-head"><h1>Alert settings</h1><a href="/console/alerts" class="button secondary">Back to alerts</a></div>
${notice(v.notice)}<p>Choose which alerts you get. You only get alerts about the vehicles and drivers you can see.</p>${mail}
<form method="post" action="/console/alerts/preferences" class="alert-prefs">${hidden('csrf_token', v.csrf)}
<div class="table-wrap"><table class="records"><thead><tr><th scope="col">Alert</th><th scope="col">In the console</th><th scope="col">By email</th></tr></thead>
<tbody>${rows}</tbody></table></div>
<div class="actions"><button type="submit">Save</button></div></form>`;
  return consolePage({
    title: 'Alert settings',
    section: 'alerts',
    user: v.user,
    csrf: v.csrf,
    body,
    styles: ['manage.css', 'alerts.css'],
  });
}
