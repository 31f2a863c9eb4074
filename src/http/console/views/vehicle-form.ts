/**
 * The vehicle form of the console (add and edit) with, for a vehicle that exists, its availability
 * (out of service and back) and its status (deactivate, reactivate). The fields are those of
 * `POST/PUT /v1/vehicles` (docs/vehicles.md); what the form sends becomes the API's body
 * (`vehicleBody`, `availabilityBody`) and is checked and stored by the same service, so a refusal
 * carries the API's message, shown above the form that was sent, which keeps what was typed.
 */
import type { VehicleRow } from '../../../domain/vehicles/service.js';
import { FUEL_TYPES, VEHICLE_MAX_LENGTH } from '../../../domain/vehicles/fields.js';
import { hidden, html, type Html } from '../../plumbing/html.js';
import { consolePage } from './layout.js';
import {
  control,
  formErrorBox,
  groupsFieldset,
  notice,
  fieldOfMessage,
  utcMinute,
  type Control,
  type FormError,
  type PageBase,
} from './forms.js';
import type { GroupChoice } from '../data/vehicles-data.js';

const TEXT = VEHICLE_MAX_LENGTH.text;

export const DETAILS: Control[] = [
  { name: 'number', label: 'Number', required: true, maxLength: VEHICLE_MAX_LENGTH.number, code: true },
  { name: 'year', label: 'Year', maxLength: VEHICLE_MAX_LENGTH.year, inputMode: 'numeric' },
  { name: 'make', label: 'Make', maxLength: TEXT },
  { name: 'model', label: 'Model', maxLength: TEXT },
  { name: 'vin', label: 'VIN', maxLength: TEXT, code: true },
  { name: 'license_plate_number', label: 'License plate', maxLength: TEXT, code: true },
  {
    name: 'license_plate_state',
    label: 'Plate state or province',
    maxLength: TEXT,
    code: true,
    hint: 'For example IL or ON',
  },
  { name: 'fuel_type', label: 'Fuel type', kind: 'select', options: FUEL_TYPES },
  { name: 'notes', label: 'Notes', kind: 'textarea', maxLength: TEXT },
];

export const OUT_OF_SERVICE: Control[] = [
  { name: 'out_of_service_reason', label: 'Reason', maxLength: TEXT, hint: 'For example: brake repair' },
  { name: 'custom_driver_app_warning_prompt', label: 'Warning in the driver app', maxLength: TEXT },
  { name: 'additional_note', label: 'Note', kind: 'textarea', maxLength: TEXT },
];

/** What a form holds, as typed: text by field name, and the chosen group ids. */
export interface VehicleValues {
  fields: Record<string, string>;
  groupIds: string[];
}

export function valuesOfVehicle(row: VehicleRow, groupIds: number[]): VehicleValues {
  const fields: Record<string, string> = {};
  for (const c of DETAILS) fields[c.name] = String(row[c.name as keyof VehicleRow] ?? '');
  return { fields, groupIds: groupIds.map(String) };
}

const orNull = (s: string | undefined) => (s === undefined || s.trim() === '' ? null : s.trim());

/** The API body of a details form: every field, an empty one clearing it; the number as typed. */
export function vehicleBody(v: VehicleValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const c of DETAILS) body[c.name] = c.name === 'number' ? (v.fields.number ?? '') : orNull(v.fields[c.name]);
  body.group_ids = v.groupIds.map((g) => (/^\d{1,10}$/.test(g) ? Number(g) : g));
  return body;
}

/** The API body of an availability form: the nested availability_details of the real API. */
export function availabilityBody(status: string, f: Record<string, string>): Record<string, unknown> {
  const details: Record<string, unknown> = { availability_status: status };
  for (const c of OUT_OF_SERVICE) details[c.name] = orNull(f[c.name]);
  return { availability_details: details };
}

export interface VehicleFormView extends PageBase {
  /** The vehicle being edited; none on the add form. */
  vehicle?: VehicleRow;
  values: VehicleValues;
  groups: GroupChoice[];
  /** A limited manager must keep the vehicle in one of their groups. */
  groupsRequired: boolean;
  error?: string;
  /** The availability form as typed, and its refusal. */
  outOfService?: { fields: Record<string, string>; error: string };
  notice?: string;
}

function detailsForm(v: VehicleFormView): Html {
  const error = v.error ? { message: v.error, id: 'details-error' } : undefined;
  const action = v.vehicle ? `/console/vehicles/${v.vehicle.id}` : '/console/vehicles';
  return html`<form method="post" action="${action}" class="record-form" aria-labelledby="details-title">
${hidden('csrf_token', v.csrf)}${formErrorBox(error)}
<div class="form-grid">${DETAILS.map((c) => control(c, v.values.fields[c.name] ?? '', error))}${groupsFieldset({ groups: v.groups, chosen: v.values.groupIds, required: v.groupsRequired }, error)}</div>
<div class="actions"><button type="submit">${v.vehicle ? 'Save changes' : 'Create vehicle'}</button>
<a href="/console/vehicles" class="button secondary">Cancel</a></div></form>`;
}

function availabilitySection(v: VehicleFormView, row: VehicleRow): Html {
  const action = `/console/vehicles/${row.id}/availability`;
  const csrf = hidden('csrf_token', v.csrf);
  const typed = v.outOfService;
  const error = typed ? { message: typed.error, id: 'availability-error' } : undefined;
  let content: Html;
  if ((row.availability_status ?? 'in_service') === 'out_of_service') {
    const since = utcMinute(row.availability_updated_at);
    content = html`<p><strong>Out of service</strong>${row.out_of_service_reason ? html`: ${row.out_of_service_reason}` : ''}${
      since ? html` <span class="muted">(since ${since})</span>` : ''
    }</p>${row.availability_prompt ? html`<p>Driver app warning: ${row.availability_prompt}</p>` : ''}${
      row.availability_note ? html`<p>Note: ${row.availability_note}</p>` : ''
    }${formErrorBox(error)}<form method="post" action="${action}" class="actions">${csrf}<input type="hidden" name="availability_status" value="in_service"><button type="submit">Back in service</button></form>`;
  } else {
    content = html`<p>In service.</p>
<form method="post" action="${action}" class="record-form">${csrf}<input type="hidden" name="availability_status" value="out_of_service">${formErrorBox(error)}
<div class="form-grid">${OUT_OF_SERVICE.map((c) => control(c, typed?.fields[c.name] ?? '', error, 'oos-'))}</div>
<div class="actions"><button type="submit" class="danger">Mark out of service</button></div></form>`;
  }
  return html`<section class="panel" aria-labelledby="availability-title"><h2 id="availability-title">Availability</h2>${content}</section>`;
}

const STATUS_TEXT: Record<string, string> = {
  active: 'Active: on the map and in the live list.',
  inactive: 'Inactive.',
  deactivated: 'Deactivated: off the map and the live list, kept with its history.',
};

function statusSection(row: VehicleRow): Html {
  const deactivated = row.status === 'deactivated';
  const link = deactivated
    ? html`<a href="/console/vehicles/${row.id}/reactivate" class="button secondary">Reactivate…</a>`
    : html`<a href="/console/vehicles/${row.id}/deactivate" class="button danger">Deactivate…</a>`;
  return html`<section class="panel" aria-labelledby="status-title"><h2 id="status-title">Status</h2>
<p>${STATUS_TEXT[row.status] ?? row.status}</p><div class="actions">${link}</div></section>`;
}

export function vehicleFormPage(v: VehicleFormView): string {
  const row = v.vehicle;
  const title = row ? `Vehicle ${row.number}` : 'Add a vehicle';
  const body = html`<p class="crumbs"><a href="/console/vehicles">Vehicles</a></p><h1>${title}</h1>${notice(v.notice)}
<section class="panel" aria-labelledby="details-title"><h2 id="details-title">Details</h2>${detailsForm(v)}</section>
${row ? html`${availabilitySection(v, row)}${statusSection(row)}` : ''}`;
  return consolePage({ title, section: 'vehicles', user: v.user, csrf: v.csrf, body, styles: ['manage.css'] });
}
