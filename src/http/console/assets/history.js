// A vehicle's day (src/web/console/history.ts): the track from the map element's data-source
// (/console/api/vehicles/:id/history), its stops, idling, speeding, harsh events and geofence entries
// marked, the list of them, and a replay: play and pause, a time slider (arrow keys, Page Up/Down, Home and End), 1×/10×/60×.
// The marker moves along the track between its fixes; every time is written in the company's zone
// (data-zone). Choosing an event in the list moves the replay to its start.
import { L, consoleMap } from './map.js';

const mapEl = document.getElementById('map');
const status = document.getElementById('history-status');
const list = document.getElementById('history-events');
const play = document.getElementById('replay-play');
const scrub = document.getElementById('replay-scrub');
const out = document.getElementById('replay-time');
const speedSel = document.getElementById('replay-speed');

const clock = new Intl.DateTimeFormat('en-US', {
  timeZone: mapEl.dataset.zone,
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});
const time = (ms) => clock.format(new Date(ms));
const minutes = (s) =>
  s < 3600 ? `${Math.round(s / 60)} min` : `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;

const HARSH = { hard_brake: 'Hard brake', hard_accel: 'Hard acceleration', hard_corner: 'Hard corner' };

const map = consoleMap(mapEl);
let points = [];
let playing = false;
let last = 0;
let marker = null;

/** Where the track was at `t` (epoch ms): between the two fixes around it. */
function at(t) {
  let lo = 0;
  let hi = points.length - 1;
  if (t <= points[0][0]) return points[0];
  if (t >= points[hi][0]) return points[hi];
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (points[mid][0] <= t) lo = mid;
    else hi = mid;
  }
  const [a, b] = [points[lo], points[hi]];
  const f = (t - a[0]) / (b[0] - a[0]);
  return [t, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f, a[3]];
}

function show() {
  const t = points[0][0] + Number(scrub.value) * 1000;
  const p = at(t);
  marker.setLatLng([p[1], p[2]]);
  out.textContent = time(t);
  scrub.setAttribute('aria-valuetext', time(t));
  mapEl.dataset.replayAt = String(Math.round(t));
}

function setPlaying(on) {
  playing = on;
  play.textContent = on ? 'Pause' : 'Play';
  play.setAttribute('aria-pressed', String(on));
  if (on) {
    if (Number(scrub.value) >= Number(scrub.max)) scrub.value = '0';
    last = performance.now();
    requestAnimationFrame(step);
  }
}

function step(now) {
  if (!playing) return;
  const next = Math.min(Number(scrub.max), Number(scrub.value) + ((now - last) / 1000) * Number(speedSel.value));
  last = now;
  scrub.value = String(next);
  show();
  if (next >= Number(scrub.max)) return setPlaying(false);
  requestAnimationFrame(step);
}

function dot(kind, lat, lon, title) {
  if (lat === null || lon === null) return;
  L.circleMarker([lat, lon], { className: `history-dot ${kind}`, radius: 7, weight: 2 })
    .bindTooltip(title)
    .addTo(map);
}

function item(kind, startIso, text) {
  const li = document.createElement('li');
  li.className = kind;
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = `${time(Date.parse(startIso))} ${text}`;
  b.addEventListener('click', () => {
    scrub.value = String(Math.max(0, Math.min(Number(scrub.max), (Date.parse(startIso) - points[0][0]) / 1000)));
    show();
  });
  li.append(b);
  return li;
}

function draw(day) {
  points = day.points;
  const speed = (kph) => (day.metric ? `${Math.round(kph)} km/h` : `${Math.round(kph / 1.609344)} mph`);
  const events = [];
  for (const s of day.stops) {
    const title = `Stop ${time(Date.parse(s.start))}–${time(Date.parse(s.end))} (${minutes(s.duration_s)})`;
    dot('stop', s.lat, s.lon, title);
    events.push([s.start, item('stop', s.start, `stop, ${minutes(s.duration_s)}`)]);
  }
  for (const e of day.idle) {
    dot('idle', e.lat, e.lon, `Idling ${minutes(e.duration_s)}${e.location ? `, ${e.location}` : ''}`);
    events.push([e.start, item('idle', e.start, `idling, ${minutes(e.duration_s)}`)]);
  }
  for (const e of day.speeding) {
    const top = e.max_speed_kph === null ? '' : `, up to ${speed(e.max_speed_kph)}`;
    dot('speeding', e.lat, e.lon, `Speeding ${minutes(e.duration_s)}${top}`);
    events.push([e.start, item('speeding', e.start, `speeding${top}`)]);
  }
  for (const e of day.harsh) {
    const g = e.peak_g === null ? '' : ` ${Math.abs(e.peak_g).toFixed(2)} g`;
    const fast = e.speed_kph === null ? '' : ` at ${speed(e.speed_kph)}`;
    dot('harsh', e.lat, e.lon, `${HARSH[e.type]}${g}${fast}${e.location ? `, ${e.location}` : ''}`);
    events.push([e.start, item('harsh', e.start, `${HARSH[e.type].toLowerCase()}${g}${fast}`)]);
  }
  for (const g of day.geofences) {
    if (points.length) {
      const p = at(Date.parse(g.start));
      dot('geofence', p[1], p[2], `Entered ${g.name}`);
    }
    const until = g.end ? `, left ${time(Date.parse(g.end))}` : '';
    events.push([g.start, item('geofence', g.start, `entered ${g.name}${until}`)]);
  }
  events.sort((a, b) => a[0].localeCompare(b[0]));
  list.replaceChildren(...events.map(([, li]) => li));
  if (points.length === 0) {
    status.textContent = 'No positions on this day.';
    return;
  }
  const latlngs = points.map((p) => [p[1], p[2]]);
  const line = L.polyline(latlngs, { className: 'track', interactive: false }).addTo(map);
  map.fitBounds(line.getBounds(), { padding: [30, 30], maxZoom: 15 });
  const icon = L.divIcon({ className: 'replay-marker', iconSize: [22, 22] });
  marker = L.marker(latlngs[0], { icon, interactive: false, keyboard: false }).addTo(map);
  scrub.max = String(Math.round((points.at(-1)[0] - points[0][0]) / 1000));
  scrub.disabled = false;
  play.disabled = points.length < 2;
  const thinned = day.fixes > points.length ? ` (${points.length} of them drawn)` : '';
  status.textContent = `${day.fixes} positions from ${time(points[0][0])} to ${time(points.at(-1)[0])}${thinned}; ${day.stops.length} stops, ${day.idle.length} idling, ${day.speeding.length} speeding, ${day.harsh.length} harsh, ${day.geofences.length} geofence visits.`;
  show();
}

play.addEventListener('click', () => setPlaying(!playing));
scrub.addEventListener('input', show);

fetch(mapEl.dataset.source, { credentials: 'same-origin' })
  .then((r) => r.json().then((body) => (r.ok ? body : Promise.reject(new Error(body.error_message || r.status)))))
  .then(draw)
  .catch((err) => {
    status.textContent = `The day could not be loaded: ${err.message}`;
  });
