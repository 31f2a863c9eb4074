/**
 * The IFTA page: distance by jurisdiction for a chosen quarter, per fuel type, as a table and a bar
 * chart, with the same CSV as GET /v1/ifta/quarterly_report?format=csv. The report covers the whole
 * company, so a fleet manager limited to their groups does not get it.
 */
import type { QuarterlyReport } from '../../domain/ifta/quarterly.js';
import { KM_PER_MI } from '../../telemetry/units.js';
import { html, type Html } from '../html.js';
import { consolePage, type ConsoleUser } from './layout.js';

export interface Quarter {
  year: number;
  quarter: number;
}

/** The quarter asked for in the query, else the current one; null when the query names no real quarter. */
export function quarterOf(query: { year?: string; quarter?: string }, now = new Date()): Quarter | null {
  const current = { year: now.getUTCFullYear(), quarter: Math.floor(now.getUTCMonth() / 3) + 1 };
  if (query.year === undefined && query.quarter === undefined) return current;
  const year = Number(query.year);
  const quarter = Number(query.quarter);
  if (!/^\d{4}$/.test(query.year ?? '') || !/^[1-4]$/.test(query.quarter ?? '') || year < 2000 || year > 2100)
    return null;
  return { year, quarter };
}

const mi = (km: number) =>
  (km / KM_PER_MI).toLocaleString('en-US', { maximumFractionDigits: 1, minimumFractionDigits: 1 });

function chart(lines: Array<{ jurisdiction: string; totalKm: number }>, fuelType: string): Html {
  const max = Math.max(1, ...lines.map((l) => l.totalKm));
  const RH = 22;
  const bars = lines.map((l, i) => {
    const w = (l.totalKm / max) * 600;
    return html`<text x="40" y="${i * RH + 15}" class="j">${l.jurisdiction}</text><rect x="50" y="${i * RH + 4}" width="${w.toFixed(1)}" height="${RH - 8}" class="bar"></rect><text x="${(w + 56).toFixed(1)}" y="${i * RH + 15}" class="v">${mi(l.totalKm)} mi</text>`;
  });
  return html`<svg class="chart" viewBox="0 0 760 ${Math.max(1, lines.length) * RH + 4}" role="img" aria-label="Miles by jurisdiction, ${fuelType}: ${lines.map((l) => `${l.jurisdiction} ${mi(l.totalKm)}`).join(', ')}">${bars}</svg>`;
}

export function iftaPage(v: {
  user: ConsoleUser;
  csrf: string;
  quarter: Quarter;
  report: QuarterlyReport | null;
  error?: string;
}): string {
  const { year, quarter } = v.quarter;
  const years = Array.from({ length: 6 }, (_, i) => new Date().getUTCFullYear() - i);
  const form = html`<form method="get" action="/console/ifta" class="filters">
<label for="year">Year</label><select id="year" name="year">${years.map((y) => html`<option value="${y}"${y === year ? html` selected` : ''}>${y}</option>`)}</select>
<label for="quarter">Quarter</label><select id="quarter" name="quarter">${[1, 2, 3, 4].map((q) => html`<option value="${q}"${q === quarter ? html` selected` : ''}>Q${q}</option>`)}</select>
<button type="submit">Show</button></form>`;
  let content: Html;
  if (!v.report) {
    content = html`<p class="error" role="alert">${v.error}</p>`;
  } else if (v.report.fuelTypes.length === 0) {
    content = html`<p class="muted">No IFTA distance in ${year} Q${quarter}.</p>`;
  } else {
    content = html`<p><a href="/console/ifta.csv?year=${year}&amp;quarter=${quarter}" download>Download CSV</a> <span class="muted">(due ${v.report.dueDate})</span></p>
${v.report.fuelTypes.map((ft) => {
  const lines = ft.lines.filter((l) => l.totalKm > 0).sort((a, b) => b.totalKm - a.totalKm);
  return html`<section class="fuel" aria-labelledby="fuel-${ft.fuelType}"><h2 id="fuel-${ft.fuelType}">${ft.fuelType.replace(/_/g, ' ')} <span class="muted">${ft.vehicleIds.length} ${ft.vehicleIds.length === 1 ? 'vehicle' : 'vehicles'}, ${mi(ft.totalKm)} mi</span></h2>
<table><caption class="visually-hidden">Distance by jurisdiction, ${ft.fuelType}</caption>
<thead><tr><th scope="col">Jurisdiction</th><th scope="col" class="num">Miles</th><th scope="col" class="num">Taxable miles</th><th scope="col" class="num">Kilometres</th></tr></thead>
<tbody>${lines.map((l) => html`<tr><th scope="row">${l.jurisdiction}</th><td class="num">${mi(l.totalKm)}</td><td class="num">${mi(l.taxableKm)}</td><td class="num">${l.totalKm.toFixed(1)}</td></tr>`)}</tbody></table>
${chart(lines, ft.fuelType)}</section>`;
})}`;
  }
  const body = html`<h1>IFTA ${year} Q${quarter}</h1>${form}${content}`;
  return consolePage({ title: 'IFTA', section: 'ifta', user: v.user, csrf: v.csrf, body });
}
