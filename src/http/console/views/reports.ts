/**
 * The reports page: a report, a range of days and a vehicle or group filter (a plain GET form), then the
 * report as a table that carries every figure without script, a chart drawn from that table by
 * reports.js (uPlot, from node_modules through /console/assets), and a CSV download of the same rows.
 * Times are in the company's zone with the zone named; distances, speeds and fuel in the company's units.
 * The data comes from ./reports-data.ts and ./reports-tables.ts.
 */
import { html, type Html } from '../../plumbing/html.js';
import { csvText } from '../../../wire/csv.js';
import { consolePage, type ConsoleUser } from './layout.js';
import { hoursMinutes, zonedTime } from './zone-time.js';
import { zonedParts } from '../../../core/time-zone.js';
import { REPORTS, reportTitle, type ReportFilters, type ReportView } from '../data/reports-data.js';
import type { Column, ReportTable, Value } from './reports-tables.js';

export { reportView } from '../data/reports-data.js';

/** The page shows this many rows; the CSV has them all. */
export const PAGE_ROWS = 1000;

const fixed = (x: number, digits: number) =>
  x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** The query of a report with these filters (empty ones left out). */
function query(f: ReportFilters, report = f.report): string {
  const p = new URLSearchParams({ report, start_date: f.startDate, end_date: f.endDate });
  if (f.vehicleId !== null) p.set('vehicle', String(f.vehicleId));
  if (f.groupId !== null) p.set('group', String(f.groupId));
  return p.toString();
}

/** The CSV's address: the same filters without the report, which the path names. */
export function csvHref(f: ReportFilters): string {
  const p = new URLSearchParams(query(f));
  p.delete('report');
  return `/console/reports/${f.report}.csv?${p}`;
}

const heading = (c: Column) => (c.unit ? `${c.label} (${c.unit})` : c.label);

/** A cell as the page writes it. */
function shown(c: Column, v: Value, zone: string): string {
  if (v === null || v === '') return c.kind === 'text' ? '' : '—';
  if (c.kind === 'time') return zonedTime(v as number, zone);
  if (c.kind === 'duration') return hoursMinutes((v as number) * 1000);
  if (c.kind === 'number') return fixed(v as number, c.digits ?? 0);
  return String(v);
}

/** A cell's value for the chart: seconds since the epoch for times, hours for durations. */
function plotted(c: Column, v: Value): string {
  if (typeof v !== 'number') return '';
  if (c.kind === 'time') return String(Math.round(v / 1000));
  if (c.kind === 'duration') return String(Math.round((v / 3600) * 1000) / 1000);
  return String(v);
}

function table(t: ReportTable, title: string, zone: string): Html {
  const rows = t.rows.slice(0, PAGE_ROWS);
  const ch = t.chart;
  const head = t.columns.map(
    (c, i) =>
      html`<th scope="col"${c.kind === 'text' ? '' : html` class="num"`}${i === ch.x || ch.y.includes(i) ? html` data-label="${c.label}"` : ''}>${heading(c)}</th>`,
  );
  const body = rows.map(
    (r) =>
      html`<tr>${r.map((v, i) => {
        const c = t.columns[i];
        const attr = i === ch.x || ch.y.includes(i) ? html` data-v="${plotted(c, v)}"` : '';
        return html`<td${c.kind === 'text' ? '' : html` class="num"`}${attr}>${shown(c, v, zone)}</td>`;
      })}</tr>`,
  );
  return html`<div class="report-scroll" role="region" tabindex="0" aria-label="${title}, table">
<table class="report-table" id="report-table" data-chart="${ch.type}" data-x="${ch.x}" data-y="${ch.y.join(',')}" data-x-kind="${t.columns[ch.x].kind}" data-zone="${zone}">
<caption class="visually-hidden">${title}</caption><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>`;
}

function form(v: ReportView): Html {
  const f = v.filters;
  const opt = (value: string, label: string, on: boolean) =>
    html`<option value="${value}"${on ? html` selected` : ''}>${label}</option>`;
  return html`<form method="get" action="/console/reports" class="filters report-filters" aria-label="Report and range">
<label for="report">Report</label><select id="report" name="report">${REPORTS.map(([n, t]) => opt(n, t, n === f.report))}</select>
<label for="start_date">From</label><input type="date" id="start_date" name="start_date" value="${f.startDate}" max="${v.today}" required>
<label for="end_date">To</label><input type="date" id="end_date" name="end_date" value="${f.endDate}" max="${v.today}" required>
<label for="vehicle">Vehicle</label><select id="vehicle" name="vehicle">${opt('', 'All vehicles', f.vehicleId === null)}${v.vehicles.map((x) => opt(String(x.id), x.number, x.id === f.vehicleId))}</select>
<label for="group">Group</label><select id="group" name="group">${opt('', 'All groups', f.groupId === null)}${v.groups.map((g) => opt(String(g.id), g.name, g.id === f.groupId))}</select>
<button type="submit">Show</button></form>
<p class="muted small">At most 31 days. Days and times in ${v.zone.name}; ${v.metric ? 'kilometres, km/h and litres' : 'miles, mph and US gallons'}.</p>`;
}

export function reportsPage(p: { user: ConsoleUser; csrf: string; view: ReportView }): string {
  const v = p.view;
  const f = v.filters;
  const title = reportTitle(f.report);
  const tabs = html`<nav aria-label="Reports" class="report-tabs"><ul>${REPORTS.map(([n, t]) =>
    n === f.report
      ? html`<li><a href="/console/reports?${query(f, n)}" aria-current="page">${t}</a></li>`
      : html`<li><a href="/console/reports?${query(f, n)}">${t}</a></li>`,
  )}</ul></nav>`;
  let content: Html;
  if (v.error || !v.table) {
    content = html`<p class="error" role="alert">${v.error ?? ''}</p>`;
  } else {
    const t = v.table;
    const count = t.rows.length === 1 ? '1 row' : `${t.rows.length.toLocaleString('en-US')} rows`;
    const cut =
      t.rows.length > PAGE_ROWS
        ? html` The page shows the first ${PAGE_ROWS.toLocaleString('en-US')}; the CSV has them all.`
        : '';
    const chart = t.rows.length
      ? html`<figure class="report-chart"><figcaption id="chart-title">${t.chart.label}</figcaption><div id="report-chart" class="chart-box" role="img" aria-labelledby="chart-title"></div></figure>`
      : '';
    content = html`<section class="report" aria-labelledby="report-title">
<h2 id="report-title">${title} <span class="muted">${f.startDate} to ${f.endDate}</span></h2>
<p class="muted small">${t.note ?? ''} ${count}.${cut}</p>
<p><a href="${csvHref(f)}" download>Download CSV</a></p>
${t.rows.length ? html`${chart}${table(t, title, v.zone.iana)}` : html`<p class="muted">Nothing to report in this range.</p>`}</section>`;
  }
  const body = html`<h1>Reports</h1>${tabs}${form(v)}${content}`;
  return consolePage({
    title: `Reports: ${title}`,
    section: 'reports',
    user: p.user,
    csrf: p.csrf,
    body,
    scripts: ['reports.js'],
    styles: ['uplot.css', 'reports.css'],
  });
}

/** The CSV of a report: a heading per column with its unit (times name the zone), every row. */
export function reportCsv(t: ReportTable, zone: string): string {
  const header = t.columns.map((c) =>
    c.kind === 'time' ? `${c.label} (${zone})` : c.kind === 'duration' ? `${c.label} (min)` : heading(c),
  );
  const rows = t.rows.map((r) =>
    r.map((v, i) => {
      const c = t.columns[i];
      if (v === null || typeof v === 'string') return v;
      if (c.kind === 'time') {
        const z = zonedParts(v, zone);
        return `${z.date} ${z.time}`;
      }
      if (c.kind === 'duration') return (v / 60).toFixed(1);
      return c.kind === 'number' ? v.toFixed(c.digits ?? 0) : v;
    }),
  );
  return csvText(header, rows);
}
