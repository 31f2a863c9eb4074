// The console map: projected outlines from the page, one marker per positioned vehicle, today's track
// of the chosen one. Pan and zoom with the buttons, the wheel, dragging or the keyboard (arrows, + and -,
// 0 to reset). Markers are kept by vehicle id and updated in place, so a focused marker keeps its focus
// when the live stream brings new positions.
const SVG = 'http://www.w3.org/2000/svg';
/** A marker's height in its own units (the arrow's path), and on screen. */
const MARKER_UNITS = 14;
const MARKER_PX = 22;

/** The map in `svg`; `onChoose(id)` when a marker is clicked or pressed. */
export function mapView(svg, onChoose) {
  const proj = JSON.parse(svg.getAttribute('data-projection'));
  const home = svg.getAttribute('data-home').split(' ').map(Number);
  let view = home.slice();
  const layer = svg.querySelector('#vehicles');
  const trackLayer = svg.querySelector('#track');
  const markers = new Map();
  let shown = [];
  let selected = null;

  const project = (lat, lon) => [(lon - proj.lon0) * proj.k * proj.c, (proj.top - lat) * proj.k];

  function setView(v) {
    const w = Math.min(Math.max(v[2], 4), home[2] * 3);
    const h = w * (home[3] / home[2]);
    const cx = v[0] + v[2] / 2;
    const cy = v[1] + v[3] / 2;
    view = [cx - w / 2, cy - h / 2, w, h];
    svg.setAttribute('viewBox', view.map((n) => n.toFixed(2)).join(' '));
    place();
  }
  function zoom(f, cx = view[0] + view[2] / 2, cy = view[1] + view[3] / 2) {
    setView([cx - (cx - view[0]) / f, cy - (cy - view[1]) / f, view[2] / f, view[3] / f]);
  }
  function pan(fx, fy) {
    setView([view[0] + fx * view[2], view[1] + fy * view[3], view[2], view[3]]);
  }

  const actions = {
    in: () => zoom(1.5),
    out: () => zoom(1 / 1.5),
    left: () => pan(-0.2, 0),
    right: () => pan(0.2, 0),
    up: () => pan(0, -0.2),
    down: () => pan(0, 0.2),
    home: () => setView(home.slice()),
  };
  document.querySelectorAll('[data-map]').forEach((b) => {
    b.addEventListener('click', () => actions[b.getAttribute('data-map')]());
  });
  const keys = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down', '+': 'in', '=': 'in' };
  Object.assign(keys, { '-': 'out', 0: 'home' });
  svg.addEventListener('keydown', (e) => {
    const a = keys[e.key];
    if (a && e.target === svg) {
      e.preventDefault();
      actions[a]();
    }
  });
  function toMap(e) {
    const r = svg.getBoundingClientRect();
    const s = Math.max(view[2] / r.width, view[3] / r.height);
    const ox = (r.width - view[2] / s) / 2;
    const oy = (r.height - view[3] / s) / 2;
    return [view[0] + (e.clientX - r.left - ox) * s, view[1] + (e.clientY - r.top - oy) * s, s];
  }
  svg.addEventListener(
    'wheel',
    (e) => {
      e.preventDefault();
      const p = toMap(e);
      zoom(e.deltaY < 0 ? 1.25 : 0.8, p[0], p[1]);
    },
    { passive: false },
  );
  let drag = null;
  svg.addEventListener('pointerdown', (e) => {
    if (e.target.closest && e.target.closest('.veh')) return;
    drag = { x: e.clientX, y: e.clientY, view: view.slice(), s: toMap(e)[2] };
  });
  window.addEventListener('pointermove', (e) => {
    if (!drag) return;
    const dx = (e.clientX - drag.x) * drag.s;
    const dy = (e.clientY - drag.y) * drag.s;
    setView([drag.view[0] - dx, drag.view[1] - dy, drag.view[2], drag.view[3]]);
  });
  window.addEventListener('pointerup', () => {
    drag = null;
  });
  new ResizeObserver(() => place()).observe(svg);

  /** A new marker: an arrow along the heading, or a ring for an offline vehicle (no live heading). */
  function marker(id) {
    const g = document.createElementNS(SVG, 'g');
    g.setAttribute('data-id', String(id));
    g.setAttribute('tabindex', '0');
    g.setAttribute('role', 'button');
    g.appendChild(document.createElementNS(SVG, 'path'));
    g.appendChild(document.createElementNS(SVG, 'title'));
    g.addEventListener('click', () => onChoose(id));
    g.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        onChoose(id);
      }
    });
    return g;
  }

  /** Positions and scales the markers for the current view: MARKER_PX on screen at every zoom and width. */
  function place() {
    const r = svg.getBoundingClientRect();
    const unitsPerPx = r.width ? Math.max(view[2] / r.width, view[3] / r.height) : view[2] / home[2];
    const s = ((unitsPerPx * MARKER_PX) / MARKER_UNITS).toFixed(3);
    shown.forEach((v) => {
      const g = markers.get(v.id);
      const p = project(v.position.lat, v.position.lon);
      const turn = v.state === 'offline' ? 0 : v.position.bearing || 0;
      g.setAttribute('transform', `translate(${p[0].toFixed(2)},${p[1].toFixed(2)}) rotate(${turn}) scale(${s})`);
    });
  }

  /** Shows these vehicles (those with a position), the chosen one marked. */
  function draw(vehicles, chosen) {
    selected = chosen;
    shown = vehicles.filter((v) => v.position);
    const keep = new Set(shown.map((v) => v.id));
    markers.forEach((g, id) => {
      if (!keep.has(id)) {
        g.remove();
        markers.delete(id);
      }
    });
    shown.forEach((v) => {
      let g = markers.get(v.id);
      if (!g) markers.set(v.id, (g = marker(v.id)));
      if (!g.parentNode) layer.appendChild(g);
      g.setAttribute('class', `veh ${v.state}${v.id === selected ? ' selected' : ''}`);
      g.setAttribute('data-located-at', v.position.located_at);
      g.setAttribute('data-lon', String(v.position.lon));
      g.setAttribute('aria-label', `Vehicle ${v.number}, ${v.status}`);
      g.firstChild.setAttribute(
        'd',
        v.state === 'offline' ? 'M-4,0 A4,4 0 1,0 4,0 A4,4 0 1,0 -4,0 Z' : 'M0,-7 L5,6 L0,3 L-5,6 Z',
      );
      g.lastChild.textContent = `${v.number} (${v.status})`;
    });
    place();
  }

  /** Centres the map on a point, zooming in to at most a third of the home view's width. */
  function centre(lat, lon) {
    const p = project(lat, lon);
    const w = Math.min(view[2], home[2] / 3);
    const h = w * (home[3] / home[2]);
    setView([p[0] - w / 2, p[1] - h / 2, w, h]);
  }

  /** Draws a track of [lat, lon] pairs (nothing for fewer than two). */
  function track(points) {
    trackLayer.replaceChildren();
    if (points.length < 2) return;
    const line = document.createElementNS(SVG, 'polyline');
    line.setAttribute(
      'points',
      points
        .map((pt) =>
          project(pt[0], pt[1])
            .map((n) => n.toFixed(2))
            .join(','),
        )
        .join(' '),
    );
    const t = document.createElementNS(SVG, 'title');
    t.textContent = "Today's track";
    line.appendChild(t);
    trackLayer.appendChild(line);
  }

  return { draw, centre, track };
}
