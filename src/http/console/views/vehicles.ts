/**
 * The vehicles page: the viewer's vehicles in a table (number, year/make/model, VIN, status,
 * availability, groups) with a status filter and pages of VEHICLES_PER_PAGE, a link to add one and one
 * to edit each. On a narrow screen each row becomes a card whose cells carry their column's name.
 */
import { VEHICLE_STATUSES } from '../../../domain/vehicles/fields.js';
import { html, type Html } from '../../plumbing/html.js';
import { consolePage } from './layout.js';
import { notice, type PageBase } from './forms.js';
import { VEHICLES_PER_PAGE, type VehicleListRow } from '../data/vehicles-data.js';
import type { VehicleRow } from '../../../domain/vehicles/service.js';

export interface VehiclesView extends PageBase {
  rows: VehicleListRow[];
  total: number;
  page: number;
  status: string | undefined;
  notice?: string;
}

export const describeVehicle = (r: Pick<VehicleRow, 'year' | 'make' | 'model'>) =>
  [r.year, r.make, r.model].filter((x) => x).join(' ');

export function availabilityText(r: VehicleRow): string {
  if ((r.availability_status ?? 'in_service') !== 'out_of_service') return 'In service';
  return r.out_of_service_reason ? `Out of service: ${r.out_of_service_reason}` : 'Out of service';
}

function row({ row: r, groups }: VehicleListRow): Html {
  const out = (r.availability_status ?? 'in_service') === 'out_of_service';
  return html`<tr data-id="${r.id}">
<th scope="row" data-label="Number">${r.number}</th>
<td data-label="Vehicle">${describeVehicle(r) || html`<span class="muted">—</span>`}</td>
<td data-label="VIN" class="code">${r.vin ?? html`<span class="muted">—</span>`}</td>
<td data-label="Status"><span class="badge ${r.status}">${r.status}</span></td>
<td data-label="Availability"><span class="badge ${out ? 'out' : 'in'}">${availabilityText(r)}</span></td>
<td data-label="Groups">${groups.length ? groups.join(', ') : html`<span class="muted">—</span>`}</td>
<td class="row-actions"><a href="/console/vehicles/${r.id}/edit" aria-label="Edit ${r.number}">Edit</a></td></tr>`;
}

function pager(v: VehiclesView): Html {
  const pages = Math.max(1, Math.ceil(v.total / VEHICLES_PER_PAGE));
  if (pages === 1) return html``;
  const href = (p: number) => {
    const q = new URLSearchParams({ ...(v.status ? { status: v.status } : {}), page: String(p) });
    return `/console/vehicles?${q.toString()}`;
  };
  return html`<nav class="pager" aria-label="Pages of vehicles">${
    v.page > 1 ? html`<a href="${href(v.page - 1)}" rel="prev">Previous</a>` : ''
  }<span>Page ${v.page} of ${pages}</span>${v.page < pages ? html`<a href="${href(v.page + 1)}" rel="next">Next</a>` : ''}</nav>`;
}

export function vehiclesPage(v: VehiclesView): string {
  const first = (v.page - 1) * VEHICLES_PER_PAGE + 1;
  const count =
    v.total === 0
      ? 'No vehicles'
      : v.total <= VEHICLES_PER_PAGE
        ? `${v.total} vehicle${v.total === 1 ? '' : 's'}`
        : `${first}–${first + v.rows.length - 1} of ${v.total} vehicles`;
  const filter = html`<form method="get" action="/console/vehicles" class="filters" role="search" aria-label="Filter vehicles">
<label for="vehicle-status">Status</label><select id="vehicle-status" name="status"><option value="">All</option>${VEHICLE_STATUSES.map(
    (s) => html`<option value="${s}"${s === v.status ? html` selected` : ''}>${s}</option>`,
  )}</select><button type="submit" class="secondary">Show</button></form>`;
  const table = v.rows.length
    ? html`<div class="table-wrap"><table class="records" aria-describedby="vehicle-count">
<thead><tr><th scope="col">Number</th><th scope="col">Vehicle</th><th scope="col">VIN</th><th scope="col">Status</th><th scope="col">Availability</th><th scope="col">Groups</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${v.rows.map(row)}</tbody></table></div>`
    : '';
  const body = html`<div class="page-head"><h1>Vehicles</h1><a href="/console/vehicles/new" class="button">Add vehicle</a></div>
${notice(v.notice)}${filter}<p id="vehicle-count" class="muted">${count}</p>${table}${pager(v)}`;
  return consolePage({
    title: 'Vehicles',
    section: 'vehicles',
    user: v.user,
    csrf: v.csrf,
    body,
    styles: ['manage.css'],
  });
}
