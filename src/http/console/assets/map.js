// A console map: Leaflet (./leaflet.js, served from the package) with the offline base layer of
// ./map-base.js. Leaflet brings dragging, the wheel, pinch zoom, zoom buttons and the keyboard (arrows
// pan, + and - zoom while the map has the focus). The map's centre and zoom are written to its element
// (data-view) after every move, for whoever wants to know what it shows.
import './leaflet.js';
import { baseLayer } from './map-base.js';

export const L = globalThis.L;

/** The contiguous United States and southern Canada. */
export const HOME = [
  [24.5, -125],
  [50, -66.5],
];

/**
 * Runs `move` (a view the page asks for: a cluster chosen, a vehicle centred) in the next frame, or once
 * the zoom animation that runs, or was asked for just before, ends: Leaflet drops a view asked for during
 * one (one can follow a resize of the map, a phone turned, or a zoom with the keyboard), and an animation
 * it starts after a view was set would take the map away from it.
 */
export function whenStill(map, move) {
  // Leaflet starts an animated zoom in the next animation frame, not at once: a zoom asked for just
  // before (a key pressed, then Enter) is not running yet. One frame later it is, or there is none.
  requestAnimationFrame(() => {
    if (map._animatingZoom) map.once('zoomend', () => whenStill(map, move));
    else move();
  });
}

/** A map in `el`, showing HOME, with its base layer. */
export function consoleMap(el, options = {}) {
  const map = L.map(el, { minZoom: 2, maxZoom: 18, zoomSnap: 0.5, worldCopyJump: true, ...options });
  const note = () => {
    const c = map.getCenter();
    el.dataset.view = JSON.stringify({ lat: c.lat, lon: c.lng, zoom: map.getZoom() });
  };
  map.on('moveend', note);
  // The page's layout can change the map's size without a window resize (a phone turned, a panel).
  new ResizeObserver(() => map.invalidateSize()).observe(el);
  map.fitBounds(HOME);
  baseLayer(map);
  return map;
}
