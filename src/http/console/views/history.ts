/**
 * A vehicle's day in the console (/console/vehicles/:id/history?date=): a day picker, the map with the
 * day's track and what happened on it, a replay (play, pause, a time slider, 1×/10×/60×) and the list
 * of stops, idling, speeding, harsh events and geofence visits. assets/history.js reads the day from
 * /console/api/vehicles/:id/history (./history-data.ts) and draws it; times are in the company's zone.
 */
import type { MapConfig } from '../../../config/map.js';
import { addDays } from '../../../core/time-zone.js';
import { html } from '../../plumbing/html.js';
import { consolePage, type ConsoleUser } from './layout.js';
import { MAP_STYLES, mapElement } from './map-page.js';

export interface HistoryPageView {
  user: ConsoleUser;
  csrf: string;
  map: MapConfig;
  vehicle: { id: number; number: string };
  date: string;
  today: string;
  zone: { name: string; iana: string };
}

export function historyPage(v: HistoryPageView): string {
  const href = (day: string) => `/console/vehicles/${v.vehicle.id}/history?date=${day}`;
  const next = addDays(v.date, 1);
  const source = `/console/api/vehicles/${v.vehicle.id}/history?date=${v.date}`;
  const body = html`<h1>${v.vehicle.number} · ${v.date}</h1>
<form class="history-day" method="get" action="/console/vehicles/${v.vehicle.id}/history">
<a href="${href(addDays(v.date, -1))}" rel="prev">← Previous day</a>
<label for="history-date">Day</label><input id="history-date" name="date" type="date" value="${v.date}" max="${v.today}" required>
<button type="submit">Show</button>
${next <= v.today ? html`<a href="${href(next)}" rel="next">Next day →</a>` : ''}
<span class="muted">Times in ${v.zone.name} (${v.zone.iana})</span>
</form>
<div class="map-layout">
<section class="map-panel" aria-label="Track">
${mapElement(v.map, `Track of ${v.vehicle.number} on ${v.date}`, html` data-source="${source}" data-zone="${v.zone.iana}"`)}
<div id="replay" class="replay" role="group" aria-label="Replay">
<button type="button" id="replay-play" aria-pressed="false" disabled>Play</button>
<label for="replay-scrub" class="visually-hidden">Time of the replay</label>
<input id="replay-scrub" type="range" min="0" max="0" step="1" value="0" disabled>
<output id="replay-time" for="replay-scrub">--:--:--</output>
<label for="replay-speed">Speed</label><select id="replay-speed"><option value="1">1×</option><option value="10">10×</option><option value="60" selected>60×</option></select>
</div>
<p class="legend"><span class="dot stop"></span> stop (5 min or more) <span class="dot idle"></span> idling <span class="dot speeding"></span> speeding <span class="dot harsh"></span> harsh braking, acceleration or cornering <span class="dot geofence"></span> geofence entry</p>
</section>
<aside class="side">
<section aria-labelledby="history-title"><h2 id="history-title">The day</h2>
<p id="history-status" class="muted" role="status">Loading…</p>
<ol id="history-events" class="history-events"></ol></section>
<p><a href="/console/vehicles/${v.vehicle.id}/edit">Edit ${v.vehicle.number}</a> · <a href="/console/reports?vehicle=${v.vehicle.id}">Reports for ${v.vehicle.number}</a></p>
</aside></div>`;
  return consolePage({
    title: `${v.vehicle.number} on ${v.date}`,
    section: 'map',
    user: v.user,
    csrf: v.csrf,
    body,
    styles: [...MAP_STYLES, 'fleet.css', 'history.css'],
    scripts: ['history.js'],
  });
}
