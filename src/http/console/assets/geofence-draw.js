// Drawing a geofence on the console map: a polygon by clicking its points in order (or "Add a point at
// the centre", with the map moved by the keyboard), or a circle by clicking its centre and then a point
// on its edge (or typing the radius). Every point is a handle: drag it, or focus it and move it with the
// arrow keys (Delete removes a polygon's point). What is drawn is written at once into the form's
// fields as the API's body has them: `location_points` ([{lat, lon}, …]) or `center` ({lat, lon}) and
// `radius_m`; the server checks them as POST /v1/geofences does. A polygon's holes (drawn through the
// API) are shown and sent back unchanged.
import { L, HOME } from './map.js';

const HANDLE_PX = 28;
const KEY_STEP_PX = 10;
const DEFAULT_RADIUS_M = 500;
const round = (n) => Math.round(n * 1e6) / 1e6;
const point = (ll) => ({ lat: round(ll.lat), lon: round(ll.lng) });
const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

function parse(input, fallback) {
  try {
    return input.value ? JSON.parse(input.value) : fallback;
  } catch {
    return fallback;
  }
}

const HELP = {
  polygon:
    "Click the map to add the polygon's points in order; drag a point, or focus it and use the arrow keys, to move it.",
  circle:
    'Click the map for the centre, then click the edge or type the radius; drag the centre or the edge handle to change them.',
};

export function drawTool(map, form) {
  const f = form.elements;
  const help = document.getElementById('draw-help');
  const summary = document.getElementById('draw-summary');
  let shape = form.querySelector('input[name="shape"]:checked').value;
  let points = parse(f.location_points, []);
  const holes = parse(f.holes, []);
  let centre = parse(f.center, null);
  const drawn = L.layerGroup().addTo(map);
  let outline = null;
  let handles = [];
  map.doubleClickZoom.disable();
  map.getContainer().classList.add('drawing');

  const radius = () => {
    const r = Number(f.radius_m.value);
    return Number.isFinite(r) && r > 0 ? r : DEFAULT_RADIUS_M;
  };
  const ring = (pts) => pts.map((p) => [p.lat, p.lon]);

  function write() {
    f.location_points.value = shape === 'polygon' && points.length ? JSON.stringify(points) : '';
    f.center.value = shape === 'circle' && centre ? JSON.stringify(centre) : '';
    if (shape === 'polygon')
      summary.textContent = points.length
        ? `${points.length} point${points.length === 1 ? '' : 's'} drawn.`
        : 'Nothing drawn yet.';
    else
      summary.textContent = centre
        ? `Circle around ${centre.lat.toFixed(5)}, ${centre.lon.toFixed(5)}, ${Math.round(radius())} m across its radius.`
        : 'Nothing drawn yet.';
  }

  /** The shape itself, redrawn as its points move (the handles stay, so a dragged or focused one is kept). */
  function shapeLayer() {
    if (outline) outline.remove();
    outline = null;
    const opts = { className: 'fence drawing', interactive: false };
    if (shape === 'polygon' && points.length >= 2) outline = L.polygon([ring(points), ...holes.map(ring)], opts);
    if (shape === 'circle' && centre) outline = L.circle([centre.lat, centre.lon], { ...opts, radius: radius() });
    if (outline) outline.addTo(drawn);
    write();
  }

  function edgeOf() {
    const c = L.latLng(centre.lat, centre.lon);
    return L.latLng(c.lat, c.lng + radius() / (111_320 * Math.cos((c.lat * Math.PI) / 180)));
  }

  /** A draggable, focusable handle; `moved(latlng)` as it moves, `removed()` on Delete. */
  function handle(latlng, label, moved, removed) {
    const icon = L.divIcon({ className: 'handle', iconSize: [HANDLE_PX, HANDLE_PX] });
    const m = L.marker(latlng, { icon, draggable: true, keyboard: true, title: label, autoPan: true }).addTo(drawn);
    m.getElement().setAttribute('aria-label', label);
    m.on('drag', () => moved(m.getLatLng()));
    m.on('dragend', () => moved(m.getLatLng(), true));
    m.getElement().addEventListener('keydown', (e) => {
      const step = STEPS[e.key];
      if (step) {
        e.preventDefault();
        e.stopPropagation();
        const p = map.latLngToContainerPoint(m.getLatLng()).add(L.point(step).multiplyBy(KEY_STEP_PX));
        m.setLatLng(map.containerPointToLatLng(p));
        moved(m.getLatLng(), true);
      } else if ((e.key === 'Delete' || e.key === 'Backspace') && removed) {
        e.preventDefault();
        removed();
      }
    });
    return m;
  }

  /** Everything again: the handles too (when points come or go, or the shape changes). */
  function render() {
    drawn.clearLayers();
    outline = null;
    handles = [];
    if (shape === 'polygon') {
      handles = points.map((p, i) =>
        handle(
          [p.lat, p.lon],
          `Point ${i + 1} of ${points.length}`,
          (ll) => {
            points[i] = point(ll);
            shapeLayer();
          },
          () => {
            points.splice(i, 1);
            render();
          },
        ),
      );
    } else if (centre) {
      const edge = handle(edgeOf(), 'Edge of the circle', (ll, done) => {
        f.radius_m.value = String(Math.max(1, Math.round(map.distance([centre.lat, centre.lon], ll))));
        if (done) edge.setLatLng(edgeOf());
        shapeLayer();
      });
      handles = [
        handle([centre.lat, centre.lon], 'Centre of the circle', (ll) => {
          centre = point(ll);
          edge.setLatLng(edgeOf());
          shapeLayer();
        }),
        edge,
      ];
    }
    help.textContent = HELP[shape];
    f.radius_m.closest('.radius-field').hidden = shape !== 'circle';
    shapeLayer();
  }

  function add(ll) {
    if (shape === 'polygon') points.push(point(ll));
    else if (!centre) {
      centre = point(ll);
      if (!f.radius_m.value) f.radius_m.value = String(DEFAULT_RADIUS_M);
    } else f.radius_m.value = String(Math.max(1, Math.round(map.distance([centre.lat, centre.lon], ll))));
    render();
  }

  map.on('click', (e) => add(e.latlng));
  const tools = {
    here: () => (shape === 'circle' && centre ? ((centre = point(map.getCenter())), render()) : add(map.getCenter())),
    undo: () => {
      if (shape === 'polygon') points.pop();
      else centre = null;
      render();
    },
    clear: () => {
      points = [];
      centre = null;
      render();
    },
  };
  form.querySelectorAll('[data-draw]').forEach((b) => b.addEventListener('click', () => tools[b.dataset.draw]()));
  form.querySelectorAll('input[name="shape"]').forEach((r) =>
    r.addEventListener('change', () => {
      shape = r.value;
      render();
    }),
  );
  f.radius_m.addEventListener('input', () => render());

  const start = shape === 'polygon' ? points.map((p) => [p.lat, p.lon]) : centre ? [[centre.lat, centre.lon]] : [];
  if (start.length) {
    const b = shape === 'circle' ? L.latLng(start[0]).toBounds(radius() * 2.5) : L.latLngBounds(start).pad(0.3);
    map.fitBounds(b, { maxZoom: 16 });
  } else map.fitBounds(HOME);
  render();
  return { handles: () => handles };
}
