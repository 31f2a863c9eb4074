/**
 * The dispatch board: the visible dispatches in a column per state, each card with its driver, vehicle
 * and stops and what may be done to it next (docs/dispatch-states.md): a planned one is edited or
 * activated; cancelling and completing go through a confirmation page first, since neither can be
 * taken back.
 */
import { errorBox, hidden, html, type Html } from '../../plumbing/html.js';
import { consolePage, type ConsoleUser } from './layout.js';
import { notice } from './forms.js';
import type { BoardDispatch } from '../data/data.js';

const COLUMNS: Array<[string, string]> = [
  ['planned', 'Planned'],
  ['active', 'Active'],
  ['completed', 'Completed'],
  ['cancelled', 'Cancelled'],
];

/** The path of a dispatch's console pages (its vendor_id, which names it in the API too). */
export const dispatchPath = (vendorId: string) => `/console/dispatches/${encodeURIComponent(vendorId)}`;

function actions(d: BoardDispatch, title: string, csrf: string): Html {
  if (d.vendor_id === null)
    return html`<p class="muted">Without a vendor_id this dispatch changes through the API only.</p>`;
  const path = dispatchPath(d.vendor_id);
  const link = (verb: string, label: string, cls = '') =>
    html`<a href="${path}/${verb}" class="button ${cls}" aria-label="${label} ${title}">${label}</a>`;
  if (d.status === 'planned')
    return html`<form method="post" action="${path}/status" class="actions">${hidden('csrf_token', csrf)}
<button type="submit" name="status" value="active" aria-label="Activate ${title}">Activate</button>
${link('edit', 'Edit', 'secondary')}${link('cancel', 'Cancel…', 'danger')}</form>`;
  if (d.status === 'active')
    return html`<div class="actions">${link('complete', 'Complete…', 'secondary')}${link('cancel', 'Cancel…', 'danger')}</div>`;
  return html``;
}

function card(d: BoardDispatch, csrf: string): Html {
  const title = d.vendor_id ?? `Dispatch ${d.id}`;
  return html`<li class="dispatch" data-dispatch="${title}"><h3>${title}</h3>
<p>${d.driver} · ${d.vehicle}</p>
<ol class="stops">${d.stops.map((s) => html`<li><span class="stop-status ${s.status}">${s.status.replace('_', ' ')}</span> ${s.type ? html`${s.type}: ` : ''}${s.place || s.vendor_id}</li>`)}</ol>
${actions(d, title, csrf)}</li>`;
}

export function boardPage(v: {
  user: ConsoleUser;
  csrf: string;
  dispatches: BoardDispatch[];
  error?: string;
  notice?: string;
}): string {
  const columns = COLUMNS.map(([status, label]) => {
    const items = v.dispatches.filter((d) => d.status === status);
    return html`<section class="column" aria-labelledby="col-${status}"><h2 id="col-${status}">${label} <span class="count">${items.length}</span></h2>
<ul class="cards" data-status="${status}">${items.length ? items.map((d) => card(d, v.csrf)) : html`<li class="muted empty">None</li>`}</ul></section>`;
  });
  const body = html`<div class="page-head"><h1>Dispatch board</h1><a href="/console/dispatches/new" class="button">New dispatch</a></div>${errorBox(v.error)}${notice(v.notice)}
<div class="board">${columns}</div>`;
  return consolePage({
    title: 'Dispatches',
    section: 'dispatches',
    user: v.user,
    csrf: v.csrf,
    body,
    styles: ['manage.css'],
  });
}
