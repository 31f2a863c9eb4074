/**
 * The console's dashboard: one card per figure (vehicles by state, drivers on duty, drivers near a
 * limit, open fault codes, today's distance, today's idle share), each linking to where its detail is.
 * Every number is followed by its label in words, so that it reads the same without the colours.
 * Fault codes and utilization have no console page: their cards link to the API reference (/docs),
 * whose deep links name an operation by its tag and `<method>_<path>` (Swagger UI's ids).
 */
import { html, type Html } from '../../plumbing/html.js';
import { consolePage, type ConsoleUser } from './layout.js';
import { STATES } from './pages.js';
import { ago } from './fleet.js';
import { hoursMinutes } from './zone-time.js';
import type { Dashboard, LimitClock } from '../data/dashboard-data.js';

const DASHBOARD_LINKS = {
  map: '/console',
  hos: '/console/hos',
  faults: '/docs#/vehicles/get_v1_fault_codes',
  utilization: '/docs#/utilization/get_v2_vehicle_utilization',
} as const;

/** Drivers near a limit named on their card; the rest are counted. */
const NAMED = 3;

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

const CLOCK_NAMES: Record<LimitClock, string> = { drive: 'drive', shift: 'shift', cycle: 'cycle' };
const UNIT_NAMES = { mi: 'miles', km: 'kilometres' } as const;

function card(key: string, title: string, content: Html, link: { href: string; text: string }): Html {
  return html`<section class="dash-card" id="card-${key}" aria-labelledby="card-${key}-title">
<h2 id="card-${key}-title">${title}</h2>
${content}
<p class="dash-more"><a href="${link.href}">${link.text}</a></p></section>`;
}

const figure = (n: string | number, label: string) => html`<p class="dash-figure"><strong>${n}</strong> ${label}</p>`;

function vehiclesCard(d: Dashboard): Html {
  const { total, byState } = d.vehicles;
  const states = STATES.map(
    ([state, label]) =>
      html`<li><span class="dash-dot ${state}" aria-hidden="true"></span><strong>${byState[state]}</strong> ${label.toLowerCase()}</li>`,
  );
  return card(
    'vehicles',
    'Vehicles',
    html`${figure(total, plural(total, 'active vehicle', 'active vehicles'))}<ul class="dash-states">${states}</ul>`,
    { href: DASHBOARD_LINKS.map, text: 'Open the map' },
  );
}

function onDutyCard(d: Dashboard): Html {
  const { onDuty, total } = d.drivers;
  return card(
    'on-duty',
    'On duty',
    html`${figure(onDuty, plural(onDuty, 'driver on duty', 'drivers on duty'))}
<p class="muted">driving or on duty now, of ${total} ${plural(total, 'driver', 'drivers')}</p>`,
    { href: DASHBOARD_LINKS.hos, text: 'Open hours of service' },
  );
}

function nearLimitCard(d: Dashboard): Html {
  const near = d.drivers.nearLimit;
  const named = near
    .slice(0, NAMED)
    .map((x) => html`<li>${x.name}: ${CLOCK_NAMES[x.clock]} ${hoursMinutes(x.remainingMs)} left</li>`);
  const more = near.length > NAMED ? html`<li class="muted">and ${near.length - NAMED} more</li>` : '';
  return card(
    'near-limit',
    'Near a limit',
    html`${figure(near.length, plural(near.length, 'driver', 'drivers'))}
<p class="muted">with less than 1 h of drive, shift or cycle time left</p>${
      near.length ? html`<ul class="dash-list">${named}${more}</ul>` : ''
    }`,
    { href: DASHBOARD_LINKS.hos, text: 'Open hours of service' },
  );
}

function faultsCard(d: Dashboard): Html {
  const { open, recent } = d.faults;
  const items = recent.map(
    (f) =>
      html`<li><strong>${f.code}</strong> ${f.description} <span class="muted">· ${f.vehicle} · since <time datetime="${f.since}">${ago(d.at - Date.parse(f.since))}</time></span></li>`,
  );
  return card(
    'faults',
    'Fault codes',
    html`${figure(open, plural(open, 'open fault code', 'open fault codes'))}${
      recent.length ? html`<p class="muted">Most recent:</p><ol class="dash-list">${items}</ol>` : ''
    }`,
    { href: DASHBOARD_LINKS.faults, text: 'Fault codes in the API reference' },
  );
}

function distanceCard(d: Dashboard): Html {
  const { distance, unit } = d.today;
  const n = distance.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return card('distance', 'Distance today', figure(n, `${UNIT_NAMES[unit]} driven today`), {
    href: DASHBOARD_LINKS.utilization,
    text: 'Vehicle utilization in the API reference',
  });
}

function idleCard(d: Dashboard): Html {
  const { drivingS, idleS } = d.today;
  const on = drivingS + idleS;
  const content =
    on === 0
      ? html`<p class="dash-figure">No engine-on time today</p>`
      : html`${figure(`${Math.round((idleS / on) * 100)}%`, 'of engine-on time idle')}
<p class="muted">${hoursMinutes(idleS * 1000)} idle of ${hoursMinutes(on * 1000)} with the engine on</p>`;
  return card('idle', 'Idling today', content, {
    href: DASHBOARD_LINKS.utilization,
    text: 'Vehicle utilization in the API reference',
  });
}

export function dashboardPage(v: { user: ConsoleUser; csrf: string; data: Dashboard }): string {
  const d = v.data;
  const body = html`<h1>Dashboard</h1>
<p class="muted dash-asof">Today, ${d.day.date} (${d.day.zone}), as of ${d.day.time}. <a href="/console/dashboard">Refresh</a></p>
<div class="dash-grid">${[vehiclesCard(d), onDutyCard(d), nearLimitCard(d), faultsCard(d), distanceCard(d), idleCard(d)]}</div>`;
  return consolePage({
    title: 'Dashboard',
    section: 'dashboard',
    user: v.user,
    csrf: v.csrf,
    body,
    styles: ['dashboard.css'],
  });
}
