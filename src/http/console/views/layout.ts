/**
 * The console's page layout: a header with the company, navigation and sign-out, and a main area.
 * Style and script come from /console/assets (same origin), so the policy allows only 'self'.
 */
import { PAGE_HEADERS, hidden, html, type Html } from '../../plumbing/html.js';
import { ALERTS_HEAD, alertsLink } from './alerts-badge.js';

export const CONSOLE_HEADERS: Record<string, string> = {
  ...PAGE_HEADERS,
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
};

export type Section =
  | 'dashboard'
  | 'map'
  | 'geofences'
  | 'vehicles'
  | 'devices'
  | 'users'
  | 'groups'
  | 'dispatches'
  | 'hos'
  | 'ifta'
  | 'reports'
  | 'api-keys'
  | 'apps'
  | 'alerts';

export interface ConsoleUser {
  name: string;
  company_name: string;
  role: string;
  /** Unread alerts, when the page's route counted them (src/http/console/views/alerts-badge.ts). */
  alerts_unread?: number;
}

export interface ConsoleView {
  title: string;
  section: Section;
  user: ConsoleUser;
  csrf: string;
  body: Html;
  /** ES modules of /console/assets (deferred by nature; they import their siblings). */
  scripts?: string[];
  /** Style sheets of /console/assets besides console.css. */
  styles?: string[];
  /** Feeds of the console's event stream the page's scripts listen to besides `alerts` (assets/stream.js). */
  streamFeeds?: string[];
}

const NAV: Array<[Section, string, string]> = [
  ['dashboard', '/console/dashboard', 'Dashboard'],
  ['map', '/console', 'Map'],
  ['geofences', '/console/geofences', 'Geofences'],
  ['vehicles', '/console/vehicles', 'Vehicles'],
  ['devices', '/console/devices', 'Devices'],
  ['users', '/console/users', 'Drivers & users'],
  ['groups', '/console/groups', 'Groups'],
  ['dispatches', '/console/dispatches', 'Dispatches'],
  ['hos', '/console/hos', 'Hours of service'],
  ['ifta', '/console/ifta', 'IFTA'],
  ['reports', '/console/reports', 'Reports'],
];
/** Only admins manage what acts as the whole company: API keys (which carry every scope) and apps. */
const ADMIN_NAV: Array<[Section, string, string]> = [
  ['api-keys', '/console/api-keys', 'API keys'],
  ['apps', '/fleet/apps', 'Apps'],
];

export function consolePage(v: ConsoleView): string {
  const nav = v.user.role === 'admin' ? [...NAV, ...ADMIN_NAV] : NAV;
  const links = nav.map(([key, href, label]) =>
    key === v.section
      ? html`<li><a href="${href}" aria-current="page">${label}</a></li>`
      : html`<li><a href="${href}">${label}</a></li>`,
  );
  const scripts = (v.scripts ?? []).map((s) => html`<script type="module" src="/console/assets/${s}"></script>`);
  const styles = (v.styles ?? []).map((s) => html`<link rel="stylesheet" href="/console/assets/${s}">`);
  return `<!doctype html>${
    html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${v.title} · ${v.user.company_name}</title><link rel="icon" href="/console/assets/favicon.svg" type="image/svg+xml"><link rel="stylesheet" href="/console/assets/console.css">${ALERTS_HEAD}${styles}${scripts}</head>
<body data-stream-feeds="${['alerts', ...(v.streamFeeds ?? [])].join(',')}"><a class="skip" href="#main">Skip to content</a>
<header class="bar"><span class="brand">${v.user.company_name}</span>
<nav aria-label="Console"><ul>${links}</ul></nav>
${alertsLink(v.user.alerts_unread, v.section === 'alerts')}
<form method="post" action="/sign-out" class="who"><span class="muted">${v.user.name}</span> ${hidden('csrf_token', v.csrf)}<button type="submit" class="secondary">Sign out</button></form>
</header>
<main id="main" tabindex="-1">${v.body}</main></body></html>`.value
  }`;
}
