/**
 * The devices pages: the table of the company's ELDs, phone trackers and asset gateways (the vehicle
 * each reports for, when it was last heard from), the form that provisions one — its credential shown
 * on the answer, once, as for API keys, and for a phone the settings of its app — and one device's page
 * (its phone settings, the vehicle it is on, revoke).
 */
import type { SeenDevice } from '../../../domain/devices/service.js';
import { isPhone } from '../../../domain/devices/assign.js';
import { hidden, html, type Html } from '../../plumbing/html.js';
import { consolePage } from './layout.js';
import { control, formErrorBox, notice, fieldOfMessage, type Control, type FormError, type PageBase } from './forms.js';
import { zonedTime } from './zone-time.js';
import { phoneSettings, type TrackerServer } from './devices-phone.js';
import type { DeviceListRow, VehicleChoice } from '../data/devices-data.js';

export const DEVICE_TYPES = { eld: 'ELD', phone: 'Phone tracker' } as const;
export type DeviceType = keyof typeof DEVICE_TYPES;

const IDENTIFIER: Control = {
  name: 'identifier',
  label: 'Serial number or device id',
  maxLength: 64,
  code: true,
  hint: 'An ELD: the serial on the unit. A phone: leave it empty for an id that cannot be guessed.',
};
const MODEL: Control = { name: 'model', label: 'Model', maxLength: 64, hint: 'An ELD only; eld-1 when empty' };

export interface ProvisionValues {
  type: string;
  identifier: string;
  model: string;
  vehicle: string;
}

export interface Provisioned {
  device: SeenDevice;
  vehicle: string;
  token: string;
}

export interface DevicesView extends PageBase {
  rows: DeviceListRow[];
  total: number;
  zone: string;
  revoked: boolean;
  vehicles: VehicleChoice[];
  server: TrackerServer;
  values?: ProvisionValues;
  error?: string;
  created?: Provisioned;
  notice?: string;
}

export const typeOf = (d: SeenDevice) => (d.kind !== 'eld' ? 'Asset gateway' : isPhone(d) ? 'Phone tracker' : 'ELD');
const lastHeard = (d: SeenDevice, zone: string) =>
  d.last_seen_at ? zonedTime(Date.parse(d.last_seen_at), zone) : html`<span class="muted">Never</span>`;

/** A select of the viewer's vehicles by number; one with an ELD says so. */
export function vehicleSelect(
  vehicles: VehicleChoice[],
  chosen: string,
  error: FormError | undefined,
  id = 'vehicle',
): Html {
  const invalid = error !== undefined && fieldOfMessage(error.message) === 'vehicle';
  const options = vehicles.map(
    (v) =>
      html`<option value="${v.id}"${String(v.id) === chosen ? html` selected` : ''}>${v.number}${v.deviceId === null ? '' : ` (has device ${v.deviceId})`}</option>`,
  );
  return html`<div class="form-field"><label for="${id}">Vehicle</label><select id="${id}" name="vehicle" required${
    invalid ? html` aria-invalid="true" aria-describedby="${error.id}"` : ''
  }><option value="">—</option>${options}</select></div>`;
}

function createdPanel(c: Provisioned, server: TrackerServer): Html {
  const phone = isPhone(c.device);
  return html`<section class="panel created" aria-labelledby="new-device-title"><h2 id="new-device-title">${typeOf(c.device)} ${c.device.identifier} on ${c.vehicle}</h2>
<p><strong>Copy the credential now. You will not see it again:</strong> the server keeps only a digest of it.${
    phone ? ' A phone app does not use it: it is for the device API, should this phone ever report through it.' : ''
  }</p>
<label for="new-credential">Device credential</label>
<div class="copy-row"><input id="new-credential" type="text" class="secret" readonly spellcheck="false" autocomplete="off" value="${c.token}">
<button type="button" data-copy="new-credential" data-copy-status="credential-status" hidden>Copy</button></div>
<p id="credential-status" class="muted" role="status"></p>
${phone ? '' : html`<p class="muted">The device sends it as <code>Authorization: Bearer …</code> to <code>/device/v1/batches</code>.</p>`}</section>
${phone ? phoneSettings(c.device.identifier, server) : ''}`;
}

function provisionForm(v: DevicesView): Html {
  const error = v.error ? { message: v.error, id: 'provision-error' } : undefined;
  const values = v.values ?? { type: 'eld', identifier: '', model: '', vehicle: '' };
  const types = Object.entries(DEVICE_TYPES).map(
    ([value, label]) =>
      html`<label class="check"><input type="radio" name="type" value="${value}"${values.type === value ? html` checked` : ''}> ${label}</label>`,
  );
  return html`<section class="panel" aria-labelledby="provision-title"><h2 id="provision-title">Provision a device</h2>
<form method="post" action="/console/devices" class="record-form">${hidden('csrf_token', v.csrf)}${formErrorBox(error)}
<div class="form-grid"><fieldset class="form-field wide"><legend>Type</legend>${types}
<span class="hint">A phone tracker is a phone running Traccar Client or OsmAnd.</span></fieldset>
${vehicleSelect(v.vehicles, values.vehicle, error)}${control(IDENTIFIER, values.identifier, error)}${control(MODEL, values.model, error)}</div>
<div class="actions"><button type="submit">Provision device</button></div></form></section>`;
}

function deviceRow(r: DeviceListRow, zone: string): Html {
  const d = r.device;
  const revoked = d.revoked_at !== null;
  return html`<tr data-id="${d.id}"${revoked ? html` class="revoked"` : ''}>
<th scope="row" data-label="Device" class="code">${d.identifier}</th>
<td data-label="Type">${typeOf(d)}</td>
<td data-label="Model">${d.model}</td>
<td data-label="Vehicle">${
    r.vehicle ?? (d.asset_id !== null ? `asset ${d.asset_id}` : html`<span class="muted">—</span>`)
  }</td>
<td data-label="Last heard">${lastHeard(d, zone)}</td>
<td data-label="Status">${revoked ? html`<span class="badge revoked">revoked ${zonedTime(Date.parse(d.revoked_at!), zone)}</span>` : html`<span class="badge">live</span>`}</td>
<td class="row-actions"><a href="/console/devices/${d.id}" aria-label="Open ${d.identifier}">Open</a></td></tr>`;
}

export function devicesPage(v: DevicesView): string {
  const shown = v.rows.length < v.total ? html`<p class="muted">The first ${v.rows.length} of ${v.total}.</p>` : '';
  const table = v.rows.length
    ? html`<div class="table-wrap"><table class="records" aria-labelledby="devices-title">
<thead><tr><th scope="col">Device</th><th scope="col">Type</th><th scope="col">Model</th><th scope="col">Vehicle</th><th scope="col">Last heard</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${v.rows.map((r) => deviceRow(r, v.zone))}</tbody></table></div>${shown}`
    : html`<p class="muted">No ${v.revoked ? '' : 'live '}devices.</p>`;
  const filter = v.revoked
    ? html`<a href="/console/devices">Live devices only</a>`
    : html`<a href="/console/devices?revoked=1">Show revoked devices too</a>`;
  const body = html`<h1>Devices</h1>${notice(v.notice)}${v.created ? createdPanel(v.created, v.server) : ''}
${provisionForm(v)}<section aria-labelledby="devices-title"><h2 id="devices-title">Devices</h2><p>${filter}</p>${table}</section>`;
  return consolePage({
    title: 'Devices',
    section: 'devices',
    user: v.user,
    csrf: v.csrf,
    body,
    styles: ['manage.css'],
    scripts: v.created ? ['copy.js'] : [],
  });
}

export interface DeviceView extends PageBase {
  device: SeenDevice;
  vehicle: string | null;
  zone: string;
  vehicles: VehicleChoice[];
  server: TrackerServer;
  chosen?: string;
  error?: string;
  notice?: string;
}

export function devicePage(v: DeviceView): string {
  const d = v.device;
  const live = d.revoked_at === null;
  const error = v.error ? { message: v.error, id: 'assign-error' } : undefined;
  const facts = html`<dl class="facts"><dt>Type</dt><dd>${typeOf(d)}</dd><dt>Model</dt><dd>${d.model}</dd>
<dt>Vehicle</dt><dd>${v.vehicle ?? (d.asset_id !== null ? `asset ${d.asset_id}` : '—')}</dd>
<dt>Last heard</dt><dd>${lastHeard(d, v.zone)}</dd><dt>Provisioned</dt><dd>${zonedTime(Date.parse(d.created_at), v.zone)}</dd>
${live ? '' : html`<dt>Revoked</dt><dd>${zonedTime(Date.parse(d.revoked_at!), v.zone)}</dd>`}</dl>`;
  const assign =
    live && d.kind === 'eld'
      ? html`<section class="panel" aria-labelledby="assign-title"><h2 id="assign-title">Vehicle</h2>
<form method="post" action="/console/devices/${d.id}/vehicle" class="record-form">${hidden('csrf_token', v.csrf)}${formErrorBox(error)}
<div class="form-grid">${vehicleSelect(v.vehicles, v.chosen ?? String(d.vehicle_id ?? ''), error)}</div>
<p class="hint">From now on its records are the chosen vehicle's; what it sent before stays with the vehicle it was on.</p>
<div class="actions"><button type="submit">Move to this vehicle</button></div></form></section>`
      : '';
  const revoke = live
    ? html`<section class="panel" aria-labelledby="revoke-title"><h2 id="revoke-title">Revoke</h2><p>The device's credential stops working, and its serial and vehicle are free for a replacement.</p>
<div class="actions"><a href="/console/devices/${d.id}/revoke" class="button danger">Revoke…</a></div></section>`
    : '';
  const body = html`<p class="crumbs"><a href="/console/devices">Devices</a></p><h1>${typeOf(d)} ${d.identifier}</h1>${notice(v.notice)}
<section class="panel" aria-labelledby="about-title"><h2 id="about-title">About</h2>${facts}</section>
${live && isPhone(d) ? phoneSettings(d.identifier, v.server) : ''}${assign}${revoke}`;
  return consolePage({
    title: `Device ${d.identifier}`,
    section: 'devices',
    user: v.user,
    csrf: v.csrf,
    body,
    styles: ['manage.css'],
    scripts: live && isPhone(d) ? ['copy.js'] : [],
  });
}
