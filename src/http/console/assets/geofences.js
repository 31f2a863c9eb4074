// The geofences pages: every geofence of the company on a map (choosing one opens it for editing), or
// the form's map with the drawing tool (./geofence-draw.js).
import { L, HOME, consoleMap } from './map.js';
import { drawTool } from './geofence-draw.js';

const el = document.getElementById('map');
const map = consoleMap(el);

function fenceLayer(g) {
  const opts = { className: `fence ${g.status}` };
  const ring = (pts) => pts.map((p) => [p.lat, p.lon]);
  return g.shape === 'circle'
    ? L.circle([g.center.lat, g.center.lon], { ...opts, radius: g.radius_m })
    : L.polygon([ring(g.location_points), ...g.holes.map(ring)], opts);
}

const data = document.getElementById('geofence-data');
if (data) {
  const { geofences, canManage } = JSON.parse(data.textContent);
  const all = L.featureGroup().addTo(map);
  geofences.forEach((g) => {
    const layer = fenceLayer(g).addTo(all);
    const name = document.createElement('span');
    name.textContent = g.name;
    layer.bindTooltip(name, { sticky: true });
    if (canManage) layer.on('click', () => (window.location.href = `/console/geofences/${g.id}/edit`));
  });
  el.dataset.fences = String(geofences.length);
  if (geofences.length) map.fitBounds(all.getBounds().pad(0.2), { maxZoom: 14 });
  else map.fitBounds(HOME);
} else {
  drawTool(map, el.closest('form'));
}
