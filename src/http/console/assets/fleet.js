// The console's map page: the fleet from /console/api/vehicles, kept live by the server-sent events of
// /console/api/stream, in the list (./fleet-list.js) and on the map (./map-vehicles.js). Choosing a vehicle
// shows its details, centres the map on it and marks it in both.
import { fleetMap } from './map-vehicles.js';
import { el, fleetList } from './fleet-list.js';
import { consoleStream } from './stream.js';

const details = document.getElementById('details');
const live = document.getElementById('live');
/** The last answer of the server (src/web/console/fleet.ts, FleetView). */
let view = null;
let selected = null;
/** Which vehicle and position the drawn track belongs to. */
let trackKey = null;

const map = fleetMap(document.getElementById('map'), choose);
const list = fleetList(document.getElementById('fleet'), choose, render);

const find = (id) => view && view.vehicles.find((v) => v.id === id);

function render() {
  if (!view) return;
  map.draw(list.render(view, selected), selected);
  showDetails();
}

function showDetails() {
  const v = find(selected);
  if (!v) return;
  const rows = [];
  if (v.name) rows.push(['Model', v.name]);
  rows.push(['State', v.status], ['Driver', v.driver ? v.driver.name : 'No driver']);
  if (v.position) {
    rows.push(['Place', v.position.place || 'No place name']);
    if (v.speed !== null) rows.push(['Speed', `${v.speed} ${view.units.speed}`]);
    if (v.state !== 'offline' && v.position.bearing !== null)
      rows.push(['Heading', `${Math.round(v.position.bearing)}°`]);
    rows.push(['Last position', new Date(v.position.located_at).toLocaleString()]);
  }
  const groups = view.groups.filter((g) => v.group_ids.includes(g.id)).map((g) => g.name);
  if (groups.length) rows.push(['Groups', groups.join(', ')]);
  // Rewritten only when something changed: the panel is a live region.
  const key = JSON.stringify([v.number, rows]);
  if (details.dataset.key === key) return;
  details.dataset.key = key;
  const title = el('h2', '', `Vehicle ${v.number}`);
  title.id = 'details-title';
  const dl = document.createElement('dl');
  rows.forEach(([term, value]) => dl.append(el('dt', '', term), el('dd', '', value)));
  const history = el('a', '', 'History and replay');
  history.href = `/console/vehicles/${v.id}/history`;
  details.replaceChildren(title, dl, history);
}

/** Today's track of the chosen vehicle, fetched again only when it has a new position. */
function loadTrack() {
  const v = find(selected);
  const key = v && v.position ? `${v.id}|${v.position.located_at}` : null;
  if (key === trackKey) return;
  trackKey = key;
  if (!key) return map.track([]);
  fetch(`/console/api/vehicles/${v.id}/track`, { credentials: 'same-origin' })
    .then((r) => (r.ok ? r.json() : { track: [] }))
    .then((body) => {
      if (trackKey === key) map.track(body.track);
    });
}

function choose(id) {
  selected = id;
  const v = find(id);
  if (v && v.position) map.centre(v.position.lat, v.position.lon);
  render();
  loadTrack();
}

function update(body) {
  view = body;
  render();
  loadTrack();
  live.textContent = `Live · updated ${new Date().toLocaleTimeString()}`;
}

fetch('/console/api/vehicles', { credentials: 'same-origin' })
  .then((r) => r.json())
  .then(update);
// The page's stream carries the vehicles as well as the header's alerts (map-page.ts asks for both).
const es = consoleStream();
if (es) {
  es.addEventListener('vehicles', (e) => update(JSON.parse(e.data)));
  es.addEventListener('error', () => {
    live.textContent = 'Reconnecting…';
  });
}
