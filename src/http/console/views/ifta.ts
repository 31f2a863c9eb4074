/**
 * The IFTA page: for a chosen quarter, per fuel type, distance, taxable distance, fuel purchased and
 * fuel economy by jurisdiction with a totals row and a bar chart, then the same per vehicle; or, for a
 * chosen vehicle, that vehicle's quarter by jurisdiction. Distances in the company's units (miles and US
 * gallons, or kilometres and litres with `metric_units`); the CSV is the one of
 * GET /v1/ifta/quarterly_report?format=csv. The data comes from ./ifta-data.ts.
 */
import { KM_PER_MI, L_PER_GAL } from '../../../telemetry/units.js';
import { html, type Html } from '../../plumbing/html.js';
import { consolePage, type ConsoleUser } from './layout.js';
import type { IftaLine, IftaSection, IftaView } from '../data/ifta-data.js';

export { iftaReport, iftaView, quarterOf, type Quarter } from '../data/ifta-data.js';

const fixed = (x: number, digits: number) =>
  x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** The company's units and how each figure is written in them. */
function unitsOf(metric: boolean) {
  return metric
    ? {
        distance: 'km',
        distanceWord: 'Kilometres',
        fuel: 'L',
        economy: 'km/L',
        economyWord: 'kilometres per litre',
        dist: (km: number) => fixed(km, 1),
        fuel1: (l: number) => fixed(l, 1),
        ratio: (km: number, l: number) => km / l,
      }
    : {
        distance: 'mi',
        distanceWord: 'Miles',
        fuel: 'gal',
        economy: 'MPG',
        economyWord: 'miles per US gallon',
        dist: (km: number) => fixed(km / KM_PER_MI, 1),
        fuel1: (l: number) => fixed(l / L_PER_GAL, 1),
        ratio: (km: number, l: number) => km / KM_PER_MI / (l / L_PER_GAL),
      };
}
type Units = ReturnType<typeof unitsOf>;

/** Distance over fuel purchased in the period; "—" without fuel (or without distance). */
const economy = (u: Units, l: IftaLine) => (l.km > 0 && l.fuelL > 0 ? fixed(u.ratio(l.km, l.fuelL), 2) : '—');

function chart(lines: IftaLine[], fuelType: string, u: Units): Html {
  const max = Math.max(1, ...lines.map((l) => l.km));
  const RH = 22;
  const bars = lines.map((l, i) => {
    const w = (l.km / max) * 560;
    return html`<text x="76" y="${i * RH + 15}" class="j">${l.label}</text><rect x="84" y="${i * RH + 4}" width="${w.toFixed(1)}" height="${RH - 8}" class="bar"></rect><text x="${(w + 90).toFixed(1)}" y="${i * RH + 15}" class="v">${u.dist(l.km)} ${u.distance}</text>`;
  });
  return html`<svg class="chart" viewBox="0 0 760 ${Math.max(1, lines.length) * RH + 4}" role="img" aria-label="${u.distanceWord} by jurisdiction, ${fuelType}: ${lines.map((l) => `${l.label} ${u.dist(l.km)}`).join(', ')}">${bars}</svg>`;
}

/** A table of lines with a totals row: by jurisdiction (with taxable distance) or by vehicle. */
function table(
  caption: string,
  first: string,
  lines: IftaLine[],
  total: IftaLine,
  u: Units,
  opts: { taxable: boolean; link?: (l: IftaLine) => string },
): Html {
  const cells = (l: IftaLine) =>
    html`<td class="num">${u.dist(l.km)}</td>${opts.taxable ? html`<td class="num">${u.dist(l.taxableKm)}</td>` : ''}<td class="num">${u.fuel1(l.fuelL)}</td><td class="num">${economy(u, l)}</td>`;
  // Vehicle numbers are cells, not row headers: a jurisdiction code is the row's name in the other tables.
  const head = (l: IftaLine) =>
    opts.link ? html`<td><a href="${opts.link(l)}">${l.label}</a></td>` : html`<th scope="row">${l.label}</th>`;
  return html`<div class="ifta-scroll" role="region" tabindex="0" aria-label="${caption}"><table class="ifta-table"><caption class="visually-hidden">${caption}</caption>
<thead><tr><th scope="col">${first}</th><th scope="col" class="num">${u.distanceWord}</th>${opts.taxable ? html`<th scope="col" class="num">Taxable ${u.distance}</th>` : ''}<th scope="col" class="num">Fuel ${u.fuel}</th><th scope="col" class="num"><abbr title="${u.economyWord}">${u.economy}</abbr></th></tr></thead>
<tbody>${lines.map((l) => html`<tr>${head(l)}${cells(l)}</tr>`)}</tbody>
<tfoot><tr class="total"><th scope="row">${total.label}</th>${cells(total)}</tr></tfoot></table></div>`;
}

function section(s: IftaSection, v: IftaView, u: Units): Html {
  const ft = s.fuelType.replace(/_/g, ' ');
  const { year, quarter } = v.quarter;
  const id = `fuel-${s.fuelType}`;
  const placed = s.lines.filter((l) => l.km > 0);
  const byVehicle = s.vehicles.length
    ? html`<h3 id="${id}-vehicles">By vehicle</h3>${table(`By vehicle, ${ft}`, 'Vehicle', s.vehicles, s.total, u, {
        taxable: false,
        link: (l) => `/console/ifta?year=${year}&quarter=${quarter}&vehicle=${l.key}`,
      })}`
    : '';
  const count = v.vehicle ? '' : `${s.vehicleCount} ${s.vehicleCount === 1 ? 'vehicle' : 'vehicles'}, `;
  return html`<section class="fuel" aria-labelledby="${id}"><h2 id="${id}">${ft} <span class="muted">${count}${u.dist(s.total.km)} ${u.distance}</span></h2>
${table(`By jurisdiction, ${ft}`, 'Jurisdiction', s.lines, s.total, u, { taxable: true })}
${placed.length ? chart(placed, s.fuelType, u) : ''}${byVehicle}</section>`;
}

export function iftaPage(v: { user: ConsoleUser; csrf: string; view: IftaView }): string {
  const view = v.view;
  const u = unitsOf(view.metric);
  const { year, quarter } = view.quarter;
  const years = Array.from({ length: 6 }, (_, i) => new Date().getUTCFullYear() - i);
  const chosen = view.vehicle?.id;
  const form = html`<form method="get" action="/console/ifta" class="filters ifta-filters">
<label for="year">Year</label><select id="year" name="year">${years.map((y) => html`<option value="${y}"${y === year ? html` selected` : ''}>${y}</option>`)}</select>
<label for="quarter">Quarter</label><select id="quarter" name="quarter">${[1, 2, 3, 4].map((q) => html`<option value="${q}"${q === quarter ? html` selected` : ''}>Q${q}</option>`)}</select>
<label for="vehicle">Vehicle</label><select id="vehicle" name="vehicle"><option value="">All vehicles</option>${view.vehicleOptions.map(
    (o) => html`<option value="${o.id}"${o.id === chosen ? html` selected` : ''}>${o.number}</option>`,
  )}</select>
<button type="submit">Show</button></form>`;
  let content: Html;
  if (view.error || !view.report) {
    content = html`<p class="error" role="alert">${view.error}</p>`;
  } else if (view.sections.length === 0) {
    content = html`<p class="muted">No IFTA distance in ${year} Q${quarter}.</p>`;
  } else {
    const back = view.vehicle
      ? html`<p><a href="/console/ifta?year=${year}&amp;quarter=${quarter}">All vehicles</a></p>`
      : '';
    content = html`${back}<p><a href="/console/ifta.csv?year=${year}&amp;quarter=${quarter}" download>Download CSV</a> <span class="muted">(the whole fleet; due ${view.report.dueDate})</span></p>
<p class="muted small">${u.distanceWord} and fuel purchased (${view.metric ? 'litres' : 'US gallons'}) in each jurisdiction; ${u.economy} is distance over fuel purchased there, and in the totals row the fleet's figure that the return uses.</p>
${view.sections.map((s) => section(s, view, u))}`;
  }
  const title = view.vehicle ? `IFTA ${year} Q${quarter}: ${view.vehicle.number}` : `IFTA ${year} Q${quarter}`;
  const body = html`<h1>${title}</h1>${form}${content}`;
  return consolePage({ title: 'IFTA', section: 'ifta', user: v.user, csrf: v.csrf, body, styles: ['ifta.css'] });
}
