/**
 * The hours-of-service page: filters (driver name, group, only those with violations), a day picker,
 * and one compact row per driver, most urgent first: drive, shift, cycle and break clocks as meters, the
 * chosen day's log as the 24-hour grid (off duty, sleeper, driving, on duty rows, with each row's total)
 * and that day's violations. Every time is in the company's zone and says which zone it is; the grid
 * scrolls inside its own box on a phone. The data comes from ./hos-data.ts.
 */
import { addDays } from '../../../core/time-zone.js';
import { html, type Html } from '../../plumbing/html.js';
import { consolePage, type ConsoleUser } from './layout.js';
import { ROWS, type HosDriverView, type HosFilters, type HosOverview } from '../data/hos-data.js';
import { hoursMinutes, zonedSpan, zonedTime } from './zone-time.js';
import { zonedParts } from '../../../core/time-zone.js';

export { hosOverview } from '../data/hos-data.js';

const H = 3_600_000;

/** A row total in the grid's last column, as paper logs write it: "3:30". */
const hmm = (ms: number) => {
  const m = Math.max(0, Math.round(ms / 60_000));
  return `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}`;
};

/** "Saturday, February 10, 2024" of a YYYY-MM-DD day. */
const longDate = (day: string) =>
  new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', {
    timeZone: 'UTC',
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  });

/** The page's address with these filters (empty ones left out). */
function hosUrl(f: HosFilters, date: string): string {
  const p = new URLSearchParams();
  p.set('date', date);
  if (f.q) p.set('q', f.q);
  if (f.groupId !== null) p.set('group', String(f.groupId));
  if (f.onlyViolations) p.set('violations', '1');
  return `/console/hos?${p}`;
}

/**
 * The day's grid: one lane per duty status, the intervals as bars (each with its times as a tooltip),
 * a tick every hour of the log day (23 or 25 on a daylight-saving change) labelled every third hour with
 * the company's local hour, so a driver whose home terminal lies in another zone reads the same clock.
 * The lanes stretch to the box's width at a fixed height (so the lane names and totals beside them line
 * up at any width); the hour labels are a second drawing below that keeps its proportions.
 */
function grid(day: NonNullable<HosDriverView['day']>, name: string, zone: string): Html {
  const W = 720;
  const RH = 20;
  const span = day.end - day.start;
  const x = (t: number) => ((t - day.start) / span) * W;
  const hours = Math.round(span / H);
  const ticks = Array.from({ length: hours + 1 }, (_, h) => {
    const at = x(day.start + h * H).toFixed(1);
    return html`<line x1="${at}" y1="0" x2="${at}" y2="${RH * 4}" class="${h % 6 === 0 ? 'tick major' : 'tick'}" vector-effect="non-scaling-stroke"></line>`;
  });
  const labels = Array.from({ length: Math.floor(hours / 3) + 1 }, (_, i) => {
    const t = day.start + i * 3 * H;
    const local = zonedParts(t, zone).hour;
    const text = local === 0 ? 'M' : local === 12 ? 'N' : String(local);
    return html`<text x="${x(t).toFixed(1)}" y="13" class="hour">${text}</text>`;
  });
  const bars = day.segments.map((s) => {
    const r = ROWS.findIndex(([k]) => k === s.row);
    const w = Math.max(1, x(s.end) - x(s.start));
    return html`<rect x="${x(s.start).toFixed(1)}" y="${r * RH + 4}" width="${w.toFixed(1)}" height="${RH - 8}" class="duty ${s.row}"><title>${ROWS[r][1]} ${zonedSpan(s.start, s.end, zone, day.date)}</title></rect>`;
  });
  const lanes = ROWS.map(
    (_, i) =>
      html`<rect x="0" y="${i * RH}" width="${W}" height="${RH}" class="lane" vector-effect="non-scaling-stroke"></rect>`,
  );
  const totals = ROWS.map(([k]) => day.segments.filter((s) => s.row === k).reduce((a, s) => a + s.end - s.start, 0));
  const summary = ROWS.map(([, label], i) => `${label} ${hoursMinutes(totals[i])}`).join(', ');
  return html`<figure class="hos-log">
<div class="hos-lanes" aria-hidden="true">${ROWS.map(([, label]) => html`<span>${label}</span>`)}</div>
<div class="hos-scroll" tabindex="0" role="group" aria-label="Log of ${name}, scrolls sideways"><div class="hos-track">
<svg class="hos-grid" viewBox="-12 0 ${W + 24} ${RH * 4}" preserveAspectRatio="none" role="img" aria-label="Log of ${name} for ${day.date}: ${summary}">${lanes}${ticks}${bars}</svg>
<svg class="hos-hours" viewBox="-12 0 ${W + 24} 16" aria-hidden="true">${labels}</svg>
</div></div>
<div class="hos-totals" aria-hidden="true">${totals.map((ms) => html`<span>${hmm(ms)}</span>`)}</div>
</figure>`;
}

function clocks(d: HosDriverView): Html {
  return html`<div class="hos-clocks">${d.clocks.map(
    (
      c,
    ) => html`<div class="hos-clock"><label for="clock-${d.id}-${c.key}">${c.label}</label> <span class="left">${hoursMinutes(c.remainingMs)}</span>
<meter id="clock-${d.id}-${c.key}" min="0" max="${c.limitMs}" low="${Math.round(c.limitMs * 0.15)}" optimum="${c.limitMs}" value="${Math.max(0, c.remainingMs)}">${hoursMinutes(c.remainingMs)} left</meter></div>`,
  )}</div>`;
}

function driverRow(d: HosDriverView, o: HosOverview): Html {
  const date = o.filters.date;
  const zone = o.zone.iana;
  const open = d.open.length
    ? html`<p class="hos-open" role="note"><strong>Open violation:</strong> ${d.open.map((x, i) => html`${i ? '; ' : ''}${x.name} ${zonedSpan(x.start, null, zone, o.today)}`)}</p>`
    : '';
  const otherZone =
    d.day && d.day.zone !== zone
      ? html`<p class="muted small">Log day of the home terminal (${d.day.zone}), shown in ${zone} time.</p>`
      : '';
  const violations = d.violations.length
    ? html`<ul class="hos-violations" aria-label="Violations on ${date}">${d.violations.map(
        (x) => html`<li>${x.name} <span class="muted">${zonedSpan(x.start, x.end, zone, date)}</span></li>`,
      )}</ul>`
    : html`<p class="muted small">No violations on ${date}.</p>`;
  return html`<li class="hos-driver${d.open.length ? ' urgent' : ''}" data-driver="${d.id}"><article aria-labelledby="driver-${d.id}">
<div class="hos-side"><h2 id="driver-${d.id}">${d.name}</h2>
<p class="muted hos-status">${d.duty_status.replace(/_/g, ' ')} · ${hoursMinutes(d.leftMs)} left</p>
${open}${clocks(d)}</div>
<div class="hos-day">${d.day ? grid(d.day, d.name, zone) : html`<p class="muted">No log on ${date}.</p>`}${otherZone}${violations}</div>
</article></li>`;
}

function filterForm(o: HosOverview): Html {
  const f = o.filters;
  return html`<form method="get" action="/console/hos" class="hos-filters" role="search" aria-label="Find drivers">
<div class="field"><label for="hos-q">Driver</label><input id="hos-q" name="q" type="search" maxlength="100" autocomplete="off" value="${f.q}"></div>
<div class="field"><label for="hos-group">Group</label><select id="hos-group" name="group"><option value="">All groups</option>${o.groups.map(
    (g) => html`<option value="${g.id}"${g.id === f.groupId ? html` selected` : ''}>${g.name}</option>`,
  )}</select></div>
<div class="field"><label for="hos-date">Log day</label><input id="hos-date" name="date" type="date" required min="2000-01-01" max="${o.today}" value="${f.date}"></div>
<label class="check"><input type="checkbox" name="violations" value="1"${f.onlyViolations ? html` checked` : ''}> Only drivers with violations</label>
<button type="submit">Show</button></form>`;
}

function dayNav(o: HosOverview): Html {
  const f = o.filters;
  const next =
    f.date < o.today
      ? html`<a href="${hosUrl(f, addDays(f.date, 1))}" rel="next">Next day</a>`
      : html`<span class="muted" aria-disabled="true">Next day</span>`;
  const today = f.date === o.today ? '' : html` <a href="${hosUrl(f, o.today)}">Today</a>`;
  return html`<nav class="hos-days" aria-label="Days"><a href="${hosUrl(f, addDays(f.date, -1))}" rel="prev">Previous day</a>
<strong id="hos-day" aria-live="polite">${longDate(f.date)}${f.date === o.today ? ' (today)' : ''}</strong> ${next}${today}</nav>`;
}

export function hosPage(v: { user: ConsoleUser; csrf: string; overview: HosOverview }): string {
  const o = v.overview;
  const now = zonedTime(Date.now(), o.zone.iana, o.today);
  const count = o.drivers.length === o.visible ? `${o.visible} drivers` : `${o.drivers.length} of ${o.visible} drivers`;
  const list = o.error
    ? html`<p class="error" role="alert">${o.error}</p>`
    : o.drivers.length
      ? html`<ol class="hos-list" aria-label="Drivers, open violations first, then least time left">${o.drivers.map((d) => driverRow(d, o))}</ol>`
      : html`<p class="muted">No driver to show.</p>`;
  const body = html`<h1>Hours of service</h1>
${filterForm(o)}${dayNav(o)}
<p class="muted" id="hos-zone">Times in ${o.zone.iana} (${o.zone.name}); now ${now}. <span role="status">${count}</span>: open violations first, then least time left (drive, shift or cycle).</p>
${list}`;
  return consolePage({
    title: 'Hours of service',
    section: 'hos',
    user: v.user,
    csrf: v.csrf,
    body,
    styles: ['hos.css'],
  });
}
