/**
 * The dispatch form (new, and edit while planned): reference, driver and vehicle, and the stops in
 * order — pickup first, delivery last, any between. Without script, "Add a stop" and each "Remove"
 * send the form back to be drawn again with what was typed (nothing is saved); the form's first
 * button, the one Enter presses, is the save button. A refusal is the API's message for the same
 * body, above the form, which keeps what was typed.
 */
import { hidden, html, type Html } from '../../plumbing/html.js';
import { consolePage } from './layout.js';
import { formErrorBox, notice, fieldOfMessage, type FormError, type PageBase } from './forms.js';
import type { Choice, DispatchChoices, DispatchValues, StopValues } from '../data/dispatch-data.js';
import { dispatchPath } from './dispatch-board.js';

export interface DispatchFormView extends PageBase {
  /** The vendor_id of the dispatch being edited; none on the new form. */
  editing?: string;
  values: DispatchValues;
  choices: DispatchChoices;
  /** The company's zone, in which dates are typed. */
  zone: string;
  error?: string;
  notice?: string;
}

function select(
  id: string,
  name: string,
  label: string,
  choices: Choice[],
  value: string,
  invalid: FormError | undefined,
): Html {
  const options = choices.map(
    (c) => html`<option value="${c.id}"${String(c.id) === value ? html` selected` : ''}>${c.label}</option>`,
  );
  return html`<div class="form-field"><label for="${id}">${label}</label><select id="${id}" name="${name}" required${
    invalid ? html` aria-invalid="true" aria-describedby="${invalid.id}"` : ''
  }><option value="">—</option>${options}</select></div>`;
}

const roleOf = (i: number, n: number) => (i === 0 ? 'Pickup' : i === n - 1 ? 'Delivery' : `Stop ${i}`);

/** Which row a message of the API is about: `shipper_…` the first, `consignee_…` the last, `dispatch_stops[i]` row i + 1. */
function rowOfMessage(message: string, n: number): number | null {
  const word = message.split(/\s/, 1)[0] ?? '';
  const middle = /^dispatch_stops\[(\d+)\]/.exec(word);
  if (middle) return Number(middle[1]) + 1;
  if (/^(vendor_)?shipper_|^pickup_/.test(word)) return 0;
  if (/^(vendor_)?consignee_|^delivery_/.test(word)) return n - 1;
  return null;
}

function stopRow(s: StopValues, i: number, n: number, v: DispatchFormView, error: FormError | undefined): Html {
  const role = roleOf(i, n);
  const invalid = error && rowOfMessage(error.message, n) === i ? error : undefined;
  const id = (f: string) => `stop-${i}-${f}`;
  const attrs = (f: string) =>
    html` id="${id(f)}"${invalid ? html` aria-invalid="true" aria-describedby="${invalid.id}"` : ''}`;
  const removable = i > 0 && i < n - 1;
  return html`<fieldset class="form-field wide stop-row"><legend>${role}</legend>${hidden('stop_vendor_id', s.vendor_id)}
<div class="form-grid">${select(id('location'), 'stop_location', 'Location', v.choices.locations, s.location, invalid)}
<div class="form-field"><label for="${id('type')}">What happens</label><input type="text" name="stop_type"${attrs('type')} maxlength="64" value="${s.type}" placeholder="${i === 0 ? 'For example: Pickup' : i === n - 1 ? 'For example: Delivery' : 'For example: Drop trailer'}"></div>
<div class="form-field"><label for="${id('early')}">Earliest</label><input type="datetime-local" name="stop_early"${attrs('early')} value="${s.early}"></div>
<div class="form-field"><label for="${id('late')}">Latest</label><input type="datetime-local" name="stop_late"${attrs('late')} value="${s.late}"></div></div>
${removable ? html`<div class="actions"><button type="submit" name="step" value="remove-${i}" class="secondary" formnovalidate aria-label="Remove ${role.toLowerCase()}">Remove</button></div>` : ''}</fieldset>`;
}

export function dispatchFormPage(v: DispatchFormView): string {
  const error = v.error ? { message: v.error, id: 'dispatch-error' } : undefined;
  const about = (name: string) => (error && fieldOfMessage(error.message) === name ? error : undefined);
  const n = v.values.stops.length;
  const action = v.editing ? dispatchPath(v.editing) : '/console/dispatches';
  const save = v.editing ? 'Save changes' : 'Create dispatch';
  const reference = v.editing
    ? hidden('vendor_id', v.values.vendor_id)
    : html`<div class="form-field"><label for="vendor_id">Reference</label><input type="text" id="vendor_id" name="vendor_id" maxlength="255" value="${v.values.vendor_id}" spellcheck="false" autocomplete="off" aria-describedby="vendor_id-hint${about('vendor_id') ? html` ${error!.id}` : ''}"${about('vendor_id') ? html` aria-invalid="true"` : ''}><span class="hint" id="vendor_id-hint">The API's vendor_id, such as your load number; one is made up when empty</span></div>`;
  const noLocations = v.choices.locations.length
    ? ''
    : html`<p class="error" role="alert">The company has no dispatch locations yet: add them through <code>POST /v1/dispatch_locations</code>.</p>`;
  const form = html`<form method="post" action="${action}" class="record-form" aria-labelledby="dispatch-title">
<button type="submit" name="step" value="save" class="visually-hidden" tabindex="-1" aria-hidden="true">${save}</button>
${hidden('csrf_token', v.csrf)}${formErrorBox(error)}${noLocations}
<div class="form-grid">${reference}${select('driver_id', 'driver_id', 'Driver', v.choices.drivers, v.values.driver_id, about('driver_id'))}
${select('vehicle_id', 'vehicle_id', 'Vehicle', v.choices.vehicles, v.values.vehicle_id, about('vehicle_id'))}</div>
<h2>Stops</h2><p class="hint">In order. Dates are in the company's time zone (${v.zone}).</p>
${v.values.stops.map((s, i) => stopRow(s, i, n, v, error))}
<div class="actions"><button type="submit" name="step" value="add" class="secondary" formnovalidate>Add a stop</button></div>
<div class="actions"><button type="submit" name="step" value="save">${save}</button>
<a href="/console/dispatches" class="button secondary">Back to the board</a></div></form>`;
  const title = v.editing ? `Dispatch ${v.editing}` : 'New dispatch';
  const body = html`<p class="crumbs"><a href="/console/dispatches">Dispatches</a></p><h1 id="dispatch-title">${title}</h1>${notice(v.notice)}${form}`;
  return consolePage({ title, section: 'dispatches', user: v.user, csrf: v.csrf, body, styles: ['manage.css'] });
}
