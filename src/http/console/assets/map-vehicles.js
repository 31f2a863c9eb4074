// The fleet on the console map: one marker per positioned vehicle (an arrow along its heading, a ring
// when offline: no live heading), 36 px so a finger hits it, reachable with Tab and chosen with Enter.
// Vehicles whose markers would overlap at the map's zoom are drawn as one numbered cluster (cells of
// CELL_PX on screen); choosing a cluster zooms to its vehicles, and at the closest zoom there are
// none. The chosen vehicle is never in a cluster. Markers are kept by vehicle id and updated in place,
// so a focused marker keeps its focus when the live stream brings new positions.
import { L, HOME, consoleMap, whenStill } from './map.js';

const CELL_PX = 44;
const SIZE = 36;
const SVG = 'http://www.w3.org/2000/svg';
const ARROW = 'M0,-10 L7,8 L0,4 L-7,8 Z';
const RING = 'M-6,0 A6,6 0 1,0 6,0 A6,6 0 1,0 -6,0 Z';

/** Pressing Enter or Space on a marker chooses it (handled here: no keypress follows, so once). */
function onKeys(marker, act) {
  marker.getElement().addEventListener('keydown', (e) => {
    if (e.key === ' ' || e.key === 'Enter') {
      e.preventDefault();
      act();
    }
  });
}

/** The map in `el`; `onChoose(id)` when a vehicle's marker is chosen. */
export function fleetMap(el, onChoose) {
  const map = consoleMap(el);
  const markers = new Map();
  const clusters = new Map();
  const track = L.polyline([], { className: 'track', interactive: false });
  let shown = [];
  let selected = null;
  let fitted = false;

  function vehicleMarker(id) {
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('viewBox', '-12 -12 24 24');
    svg.setAttribute('aria-hidden', 'true');
    svg.appendChild(document.createElementNS(SVG, 'path'));
    const icon = L.divIcon({ className: 'veh-marker', html: svg, iconSize: [SIZE, SIZE] });
    const marker = L.marker([0, 0], { icon, keyboard: true, riseOnHover: true });
    const m = { marker, svg, v: null };
    marker.on('click', () => onChoose(id));
    marker.on('add', () => {
      onKeys(marker, () => onChoose(id));
      decorate(m);
    });
    return m;
  }

  /** The marker's element says which vehicle it is and in what state. */
  function decorate(m) {
    const e = m.marker.getElement();
    if (!m.v || !e) return;
    const v = m.v;
    e.classList.remove('moving', 'idling', 'stopped', 'offline', 'selected');
    e.classList.add(v.state);
    if (v.id === selected) e.classList.add('selected');
    e.dataset.id = String(v.id);
    e.dataset.lon = String(v.position.lon);
    e.dataset.locatedAt = v.position.located_at;
    e.setAttribute('aria-label', `Vehicle ${v.number}, ${v.status}`);
    e.title = `${v.number} (${v.status})`;
  }

  function update(m, v) {
    m.v = v;
    m.marker.setLatLng([v.position.lat, v.position.lon]);
    const offline = v.state === 'offline';
    const path = m.svg.firstChild;
    path.setAttribute('d', offline ? RING : ARROW);
    path.setAttribute('transform', offline ? '' : `rotate(${v.position.bearing || 0})`);
    m.marker.setZIndexOffset(v.id === selected ? 1000 : 0);
    decorate(m);
  }

  function clusterMarker(key, members) {
    const span = document.createElement('span');
    const icon = L.divIcon({ className: 'cluster', html: span, iconSize: [SIZE + 4, SIZE + 4] });
    const marker = L.marker([0, 0], { icon, keyboard: true });
    const zoomIn = () =>
      whenStill(map, () => {
        const b = L.latLngBounds(marker.members.map((v) => [v.position.lat, v.position.lon]));
        const z = map.getBoundsZoom(b, false, L.point(40, 40));
        map.setView(b.getCenter(), Math.min(map.getMaxZoom(), Math.max(z, map.getZoom() + 1)));
      });
    marker.on('click', zoomIn);
    marker.on('add', () => {
      onKeys(marker, zoomIn);
      label(marker);
    });
    marker.span = span;
    return marker;
  }

  function label(c) {
    const e = c.getElement();
    const names = c.members.map((v) => v.number);
    c.span.textContent = String(names.length);
    if (!e) return;
    e.dataset.ids = c.members.map((v) => v.id).join(',');
    const list = names.length > 5 ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more` : names.join(', ');
    e.setAttribute('aria-label', `${names.length} vehicles close together: ${list}. Zoom in to them`);
    e.title = list;
  }

  /** Puts each shown vehicle on the map alone or in its cell's cluster, for the zoom of now. */
  function layout() {
    const z = map.getZoom();
    const cells = new Map();
    shown.forEach((v) => {
      const p = map.project([v.position.lat, v.position.lon], z);
      const key =
        v.id === selected || z >= map.getMaxZoom()
          ? `v${v.id}`
          : `${Math.floor(p.x / CELL_PX)}:${Math.floor(p.y / CELL_PX)}`;
      if (!cells.has(key)) cells.set(key, []);
      cells.get(key).push(v);
    });
    const alone = new Set();
    const groups = new Map();
    cells.forEach((members) => {
      if (members.length === 1) alone.add(members[0].id);
      else groups.set(members.map((v) => v.id).join(','), members);
    });
    markers.forEach((m, id) => {
      if (alone.has(id)) {
        if (!map.hasLayer(m.marker)) m.marker.addTo(map);
      } else if (map.hasLayer(m.marker)) m.marker.remove();
    });
    clusters.forEach((c, key) => {
      if (!groups.has(key)) {
        c.remove();
        clusters.delete(key);
      }
    });
    groups.forEach((members, key) => {
      let c = clusters.get(key);
      if (!c) clusters.set(key, (c = clusterMarker(key, members)));
      c.members = members;
      const lat = members.reduce((s, v) => s + v.position.lat, 0) / members.length;
      const lon = members.reduce((s, v) => s + v.position.lon, 0) / members.length;
      c.setLatLng([lat, lon]);
      if (!map.hasLayer(c)) c.addTo(map);
      else label(c);
    });
  }
  map.on('zoomend', layout);

  /** The whole fleet in view (HOME without positions). */
  function fitFleet() {
    if (!shown.length) return map.fitBounds(HOME);
    const b = L.latLngBounds(shown.map((v) => [v.position.lat, v.position.lon]));
    map.fitBounds(b.pad(0.1), { maxZoom: 9 });
  }
  document.querySelectorAll('[data-map="fleet"]').forEach((b) => b.addEventListener('click', fitFleet));

  /** Shows these vehicles (those with a position), the chosen one marked. */
  function draw(vehicles, chosen) {
    selected = chosen;
    shown = vehicles.filter((v) => v.position);
    const keep = new Set(shown.map((v) => v.id));
    markers.forEach((m, id) => {
      if (!keep.has(id)) {
        m.marker.remove();
        markers.delete(id);
      }
    });
    shown.forEach((v) => {
      if (!markers.has(v.id)) markers.set(v.id, vehicleMarker(v.id));
      update(markers.get(v.id), v);
    });
    if (!fitted && shown.length) {
      fitted = true;
      fitFleet();
    }
    layout();
  }

  /** Centres the map on a point, zoomed in to at least zoom 9 (a few counties). */
  function centre(lat, lon) {
    whenStill(map, () => map.setView([lat, lon], Math.max(map.getZoom(), 9)));
  }

  /** Draws a track of [lat, lon] pairs (nothing for fewer than two). */
  function showTrack(points) {
    if (points.length < 2) return track.remove();
    track.setLatLngs(points);
    if (!map.hasLayer(track)) track.addTo(map);
  }

  return { draw, centre, track: showTrack };
}
