/**
 * The alerts link of the console's header, on every page: the unread count as the page was rendered,
 * kept live by alerts-badge.js over the console's event stream (`/console/api/stream?feeds=alerts`).
 */
import { html, type Html } from '../../plumbing/html.js';

/** Style sheet and script of the header's alerts link, for the page's head. */
export const ALERTS_HEAD = html`<link rel="stylesheet" href="/console/assets/alerts-badge.css"><script type="module" src="/console/assets/alerts-badge.js"></script>`;

const label = (n: number) => (n === 0 ? 'Alerts' : `Alerts, ${n} unread`);
const shown = (n: number) => (n > 99 ? '99+' : String(n));

/** The header's link to the feed, marked current on the alerts pages. */
export function alertsLink(unread: number | undefined, current: boolean): Html {
  const n = unread ?? 0;
  return html`<a href="/console/alerts" id="alerts-link" class="alerts-link" aria-label="${label(n)}"${
    current ? html` aria-current="page"` : ''
  }><svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18"><path d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1z"/></svg><span class="alerts-word">Alerts</span><span class="alerts-count" data-unread="${n}"${
    n === 0 ? html` hidden` : ''
  }>${shown(n)}</span></a>`;
}
