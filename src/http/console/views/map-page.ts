/**
 * The console's map page (the live map with the vehicle list) and what every console map shares: the
 * map's element with the optional tile layer's settings, and the page headers that let images come
 * from that tile server. The map itself is Leaflet (served from node_modules at /console/assets/leaflet.js)
 * over the offline base layer of /console/api/map/… (./map-data.ts).
 */
import type { MapConfig } from '../../../config/map.js';
import { html, type Html } from '../../plumbing/html.js';
import { CONSOLE_HEADERS, consolePage, type ConsoleUser } from './layout.js';
import { STATES } from './pages.js';

/** The style sheets of a page with a map, besides its own. */
export const MAP_STYLES = ['leaflet.css', 'map.css'];

/**
 * The console's headers for a page with a map. With a tile server (MAP_TILE_URL) images may also come
 * from its origin, and from `data:`: Leaflet points a tile that is still loading when it leaves the view
 * at a blank `data:` image to stop the download.
 */
export function mapHeaders(map: MapConfig): Record<string, string> {
  if (!map.tileOrigin) return CONSOLE_HEADERS;
  const csp = CONSOLE_HEADERS['Content-Security-Policy'].replace(
    "img-src 'self'",
    `img-src 'self' ${map.tileOrigin} data:`,
  );
  return { ...CONSOLE_HEADERS, 'Content-Security-Policy': csp };
}

/** The map's element; the scripts read the tile layer's settings from its data attributes. */
export function mapElement(map: MapConfig, label: string, extra: Html = html``): Html {
  const tiles = map.tileUrl
    ? html` data-tiles="${map.tileUrl}" data-attribution="${map.tileAttribution ?? ''}"`
    : html``;
  return html`<div id="map" class="map" role="region" aria-label="${label}" aria-describedby="map-keys"${tiles}${extra}></div>
<p id="map-keys" class="visually-hidden">Arrow keys pan the map when it has the focus; plus and minus zoom.</p>`;
}

/** Search and filters of the vehicle list; fleet-list.js fills in the groups and drivers. */
const FILTERS = html`<form id="fleet-filter" class="fleet-filter" role="search" aria-label="Find vehicles">
<div class="field search"><label for="fleet-q">Search</label><input id="fleet-q" name="q" type="search" autocomplete="off" placeholder="Vehicle or driver"></div>
<div class="field"><label for="fleet-state">State</label><select id="fleet-state" name="state"><option value="">All</option>${STATES.map(
  ([value, label]) => html`<option value="${value}">${label}</option>`,
)}</select></div>
<div class="field"><label for="fleet-group">Group</label><select id="fleet-group" name="group"><option value="">All</option></select></div>
<div class="field"><label for="fleet-driver">Driver</label><select id="fleet-driver" name="driver"><option value="">All</option><option value="none">No driver</option></select></div>
</form>`;

export function mapPage(v: { user: ConsoleUser; csrf: string; map: MapConfig }): string {
  const legend = STATES.filter(([s]) => s !== 'never_reported').map(
    ([s, label]) => html`<span class="dot ${s}"></span> ${label.toLowerCase()} `,
  );
  const body = html`<h1 class="visually-hidden">Fleet map</h1>
<div class="map-layout">
<section class="map-panel" aria-label="Map">
<div class="map-tools" role="toolbar" aria-label="Map controls">
<button type="button" data-map="fleet">Whole fleet</button>
<span id="live" class="muted" role="status">Connecting…</span>
</div>
${mapElement(v.map, 'Map of the fleet')}
<p id="map-legend" class="legend">${legend}<span class="cluster-dot">3</span> vehicles close together (zoom in, or choose it) <span class="muted">· vehicles that never reported are in the list only</span></p>
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
    styles: [...MAP_STYLES, 'fleet.css'],
    scripts: ['fleet.js'],
    streamFeeds: ['vehicles'],
  });
}
