/**
 * The hours-of-service page: each visible driver's drive, shift, cycle and break clocks as meters,
 * today's log as the 24-hour grid (off duty, sleeper, driving, on duty rows), and recent violations —
 * read through the same queries as /v1/available_time, /v1/hos_logs and /v1/hos_violations.
 */
import type { Db } from '../../storage/db.js';
import { availableTime, listViolations } from '../../domain/hos/queries.js';
import { logKeys, type LogKey } from '../../domain/hos/log-days.js';
import { logDetails, type LogDetail } from '../../domain/hos/logs.js';
import type { Family } from '../../domain/hos/engine/types.js';
import { html, type Html } from '../html.js';
import { consolePage, type ConsoleUser } from './layout.js';
import type { Viewer } from './data.js';

const H = 3_600_000;
/** Full clocks of each rules family (hours), the scale of the meters. */
const LIMITS: Record<Family, { drive: number; shift: number; break: number }> = {
  us_property: { drive: 11, shift: 14, break: 8 },
  us_passenger: { drive: 10, shift: 15, break: 8 },
  canada: { drive: 13, shift: 14, break: 8 },
};
const ROWS = [
  ['off', 'Off duty'],
  ['sleeper', 'Sleeper'],
  ['driving', 'Driving'],
  ['on', 'On duty'],
] as const;
type Row = (typeof ROWS)[number][0];
const rowOf = (type: string): Row | null =>
  type === 'driving'
    ? 'driving'
    : type === 'sleeper'
      ? 'sleeper'
      : type === 'off_duty' || type === 'personal_conveyance'
        ? 'off'
        : type === 'on_duty' || type === 'waiting' || type === 'yard_move'
          ? 'on'
          : null;

export interface HosDriverView {
  id: number;
  name: string;
  duty_status: string;
  clocks: Array<{ key: string; label: string; remainingMs: number; limitMs: number }>;
  day: { date: string; start: number; end: number; segments: Array<{ row: Row; start: number; end: number }> } | null;
  violations: Array<{ name: string; start_at: string; end_at: string | null }>;
}

/** The visible drivers with their clocks now, today's log and their violations of the last eight days. */
export async function hosOverview(db: Db, v: Viewer, now = Date.now()): Promise<HosDriverView[]> {
  if (v.driverIds !== null && v.driverIds.size === 0) return [];
  const ids = v.driverIds === null ? undefined : [...v.driverIds];
  const { items } = await availableTime(db, v, ids, 200, 0, now);
  if (items.length === 0) return [];
  const driverIds = items.map((i) => i.driver.id);
  const keys = await logKeys(db.kysely, v, { driverIds }, now);
  const today = new Map<number, LogKey>();
  for (const k of keys)
    if (k.start <= now && (!today.has(k.driver.id) || today.get(k.driver.id)!.start < k.start))
      today.set(k.driver.id, k);
  const details = new Map<number, LogDetail>(
    (await logDetails(db.kysely, v, [...today.values()], now)).map((d) => [d.key.driver.id, d]),
  );
  const violations = await listViolations(db, v, { driverIds, min: now - 8 * 24 * H, max: now + 1 }, 500, 0, now);
  return items.map(({ driver, evaluation }) => {
    const lim = LIMITS[driver.ruleset.family];
    const c = evaluation.clocks;
    const d = details.get(driver.id);
    const segments = (d?.events ?? []).flatMap((e) => {
      const row = rowOf(e.type);
      if (!row || !d) return [];
      const start = Math.max(Date.parse(e.start), d.key.start);
      const end = Math.min(e.end === null ? now : Date.parse(e.end), d.key.end, now);
      return end > start ? [{ row, start, end }] : [];
    });
    return {
      id: driver.id,
      name: `${driver.first_name} ${driver.last_name}`,
      duty_status: driver.duty_status,
      clocks: [
        { key: 'drive', label: 'Drive', remainingMs: c.driveMs, limitMs: lim.drive * H },
        { key: 'shift', label: 'Shift', remainingMs: c.shiftMs, limitMs: lim.shift * H },
        { key: 'cycle', label: 'Cycle', remainingMs: c.cycleMs, limitMs: driver.ruleset.cycle.hours * H },
        { key: 'break', label: 'Break', remainingMs: c.breakMs, limitMs: lim.break * H },
      ],
      day: d ? { date: d.key.date, start: d.key.start, end: d.key.end, segments } : null,
      violations: violations.items
        .filter((x) => x.row.driver_id === driver.id)
        .map((x) => ({ name: x.row.name, start_at: x.row.start_at, end_at: x.row.end_at })),
    };
  });
}

const hm = (ms: number) => {
  const m = Math.max(0, Math.round(ms / 60_000));
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
};

/** The 24-hour grid: one row per duty status, the day's intervals as bars, hour ticks. */
function grid(day: NonNullable<HosDriverView['day']>, name: string): Html {
  const W = 960;
  const RH = 22;
  const x = (t: number) => (((t - day.start) / (day.end - day.start)) * W).toFixed(1);
  const ticks = Array.from(
    { length: 25 },
    (_, h) =>
      html`<line x1="${((h / 24) * W).toFixed(1)}" y1="0" x2="${((h / 24) * W).toFixed(1)}" y2="${RH * 4}" class="${h % 6 === 0 ? 'tick major' : 'tick'}"></line>`,
  );
  const hours = [0, 6, 12, 18, 24].map(
    (h) =>
      html`<text x="${((h / 24) * W).toFixed(1)}" y="${RH * 4 + 14}" class="hour">${h === 0 || h === 24 ? 'M' : h === 12 ? 'N' : String(h)}</text>`,
  );
  const bars = day.segments.map((s) => {
    const r = ROWS.findIndex(([k]) => k === s.row);
    return html`<rect x="${x(s.start)}" y="${r * RH + 4}" width="${Math.max(1, Number(x(s.end)) - Number(x(s.start))).toFixed(1)}" height="${RH - 8}" class="duty ${s.row}"></rect>`;
  });
  const summary = ROWS.map(
    ([k, label]) => `${label} ${hm(day.segments.filter((s) => s.row === k).reduce((a, s) => a + s.end - s.start, 0))}`,
  ).join(', ');
  return html`<figure class="log"><div class="log-rows" aria-hidden="true">${ROWS.map(([, label]) => html`<span>${label}</span>`)}</div>
<svg viewBox="-10 0 ${W + 20} ${RH * 4 + 18}" role="img" aria-label="Log of ${name} for ${day.date}: ${summary}">${ROWS.map((_, i) => html`<rect x="0" y="${i * RH}" width="${W}" height="${RH}" class="lane"></rect>`)}${ticks}${bars}${hours}</svg>
<figcaption class="muted">${day.date}: ${summary}</figcaption></figure>`;
}

export function hosPage(v: { user: ConsoleUser; csrf: string; drivers: HosDriverView[] }): string {
  const cards = v.drivers.map(
    (
      d,
    ) => html`<section class="driver" aria-labelledby="driver-${d.id}"><h2 id="driver-${d.id}">${d.name} <span class="muted">${d.duty_status.replace('_', ' ')}</span></h2>
<div class="clocks">${d.clocks.map(
      (c) => html`<div class="clock"><label for="clock-${d.id}-${c.key}">${c.label}</label>
<meter id="clock-${d.id}-${c.key}" min="0" max="${c.limitMs}" low="${Math.round(c.limitMs * 0.15)}" optimum="${c.limitMs}" value="${Math.max(0, c.remainingMs)}">${hm(c.remainingMs)} left</meter>
<span class="left">${hm(c.remainingMs)} left</span></div>`,
    )}</div>
${d.day ? grid(d.day, d.name) : html`<p class="muted">No log today.</p>`}
<h3>Violations, last 8 days</h3>${
      d.violations.length
        ? html`<ul class="violations">${d.violations.map((x) => html`<li>${x.name} <span class="muted">from ${x.start_at}${x.end_at ? html` to ${x.end_at}` : ' (ongoing)'}</span></li>`)}</ul>`
        : html`<p class="muted">None.</p>`
    }</section>`,
  );
  const body = html`<h1>Hours of service</h1>${v.drivers.length ? cards : html`<p class="muted">No driver to show.</p>`}`;
  return consolePage({ title: 'Hours of service', section: 'hos', user: v.user, csrf: v.csrf, body });
}
