/** The console's pages: the live map with the vehicle list, and the dispatch board. */
import { jurisdictionOutlines } from '../../domain/ifta/boundaries.js';
import { errorBox, hidden, html, Html } from '../html.js';
import { consolePage, type ConsoleUser } from './layout.js';
import type { BoardDispatch } from './data.js';
import type { FleetState } from './fleet.js';

/** Equirectangular projection around 45°N: x east, y south, 10 units per degree of latitude. */
export const PROJECTION = { lon0: -170, top: 84, k: 10, c: Math.cos((45 * Math.PI) / 180) };
export const project = (lat: number, lon: number): [number, number] => [
  (lon - PROJECTION.lon0) * PROJECTION.k * PROJECTION.c,
  (PROJECTION.top - lat) * PROJECTION.k,
];
/** The contiguous United States and southern Canada. */
export const HOME_VIEW = '300 300 460 330';

let outlinePaths: Html | null = null;

/** One SVG path per jurisdiction, projected and rounded to 0.1 unit (≈ 1 km), built once. */
function outlines(): Html {
  if (outlinePaths) return outlinePaths;
  const paths = jurisdictionOutlines(0.05).features.map((f) => {
    const d = f.geometry.coordinates
      .flatMap((poly) =>
        poly.map(
          (ring) =>
            'M' +
            ring
              .map(([lon, lat]) =>
                project(lat, lon)
                  .map((n) => n.toFixed(1))
                  .join(','),
              )
              .join('L') +
            'Z',
        ),
      )
      .join('');
    return html`<path d="${d}" class="land ${f.properties.country.toLowerCase()}"><title>${f.properties.code}</title></path>`;
  });
  outlinePaths = html`${paths}`;
  return outlinePaths;
}

/** The states of src/web/console/fleet.ts with their labels, in the order the filter offers them. */
export const STATES: Array<[FleetState, string]> = [
  ['moving', 'Moving'],
  ['idling', 'Idling'],
  ['stopped', 'Stopped'],
  ['offline', 'Offline'],
  ['never_reported', 'Never reported'],
];

/** Search and filters of the vehicle list; fleet-list.js fills in the groups and drivers. */
const FILTERS = html`<form id="fleet-filter" class="fleet-filter" role="search" aria-label="Find vehicles">
<div class="field search"><label for="fleet-q">Search</label><input id="fleet-q" name="q" type="search" autocomplete="off" placeholder="Vehicle or driver"></div>
<div class="field"><label for="fleet-state">State</label><select id="fleet-state" name="state"><option value="">All</option>${STATES.map(
  ([value, label]) => html`<option value="${value}">${label}</option>`,
)}</select></div>
<div class="field"><label for="fleet-group">Group</label><select id="fleet-group" name="group"><option value="">All</option></select></div>
<div class="field"><label for="fleet-driver">Driver</label><select id="fleet-driver" name="driver"><option value="">All</option><option value="none">No driver</option></select></div>
</form>`;

export function mapPage(v: { user: ConsoleUser; csrf: string }): string {
  const legend = STATES.filter(([s]) => s !== 'never_reported').map(
    ([s, label]) => html`<span class="dot ${s}"></span> ${label.toLowerCase()} `,
  );
  const body = html`<h1 class="visually-hidden">Fleet map</h1>
<div class="map-layout">
<section class="map-panel" aria-label="Map">
<div class="map-tools" role="toolbar" aria-label="Map controls">
<button type="button" data-map="in" aria-label="Zoom in">+</button><button type="button" data-map="out" aria-label="Zoom out">−</button>
<button type="button" data-map="left" aria-label="Pan west">←</button><button type="button" data-map="up" aria-label="Pan north">↑</button>
<button type="button" data-map="down" aria-label="Pan south">↓</button><button type="button" data-map="right" aria-label="Pan east">→</button>
<button type="button" data-map="home">Reset view</button>
<span id="live" class="muted" role="status">Connecting…</span>
</div>
<svg id="map" viewBox="${HOME_VIEW}" data-home="${HOME_VIEW}" data-projection="${JSON.stringify(PROJECTION)}" tabindex="0" role="img"
 aria-label="Map of the fleet. Arrow keys pan, plus and minus zoom, 0 resets." aria-describedby="map-legend">
<g class="outlines">${outlines()}</g><g id="track"></g><g id="vehicles"></g></svg>
<p id="map-legend" class="legend">${legend}<span class="muted">· vehicles that never reported are in the list only</span></p>
</section>
<aside class="side">
<section id="details" aria-live="polite" aria-labelledby="details-title"><h2 id="details-title">Vehicle</h2><p class="muted">Choose a vehicle on the map or in the list.</p></section>
<section id="fleet" class="fleet" aria-labelledby="list-title"><h2 id="list-title">Vehicles</h2>
${FILTERS}
<p id="fleet-count" class="muted" role="status">Loading…</p>
<ul id="vehicle-list" class="fleet-list" aria-labelledby="list-title"></ul></section>
</aside></div>`;
  return consolePage({
    title: 'Map',
    section: 'map',
    user: v.user,
    csrf: v.csrf,
    body,
    styles: ['fleet.css'],
    scripts: ['fleet.js'],
  });
}

const COLUMNS: Array<[string, string]> = [
  ['planned', 'Planned'],
  ['active', 'Active'],
  ['completed', 'Completed'],
  ['cancelled', 'Cancelled'],
];
/** The buttons of each state: the status each asks for, with its label. */
const ACTIONS: Record<string, Array<[string, string]>> = {
  planned: [
    ['active', 'Activate'],
    ['cancelled', 'Cancel'],
  ],
  active: [
    ['completed', 'Complete'],
    ['cancelled', 'Cancel'],
  ],
  completed: [],
  cancelled: [],
};

function card(d: BoardDispatch, csrf: string): Html {
  const title = d.vendor_id ?? `Dispatch ${d.id}`;
  const actions =
    d.vendor_id === null
      ? html`<p class="muted">Without a vendor_id this dispatch changes through the API only.</p>`
      : html`<form method="post" action="/console/dispatches/${encodeURIComponent(d.vendor_id)}/status" class="actions">${hidden('csrf_token', csrf)}${ACTIONS[
          d.status
        ]?.map(
          ([status, label]) =>
            html`<button type="submit" name="status" value="${status}" class="${status === 'cancelled' ? 'danger' : ''}" aria-label="${label} ${title}">${label}</button>`,
        )}</form>`;
  return html`<li class="dispatch" data-dispatch="${title}"><h3>${title}</h3>
<p>${d.driver} · ${d.vehicle}</p>
<ol class="stops">${d.stops.map((s) => html`<li><span class="stop-status ${s.status}">${s.status.replace('_', ' ')}</span> ${s.type ? html`${s.type}: ` : ''}${s.place || s.vendor_id}</li>`)}</ol>
${actions}</li>`;
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
  const body = html`<h1>Dispatch board</h1>${errorBox(v.error)}${v.notice ? html`<p role="status" class="notice">${v.notice}</p>` : ''}
<div class="board">${columns}</div>`;
  return consolePage({ title: 'Dispatches', section: 'dispatches', user: v.user, csrf: v.csrf, body });
}
