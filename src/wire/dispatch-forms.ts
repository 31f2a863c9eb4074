/**
 * The form and form_entry objects (docs/reference/wire.md §4.22; docs/dispatch-forms.md). A form has an integer
 * `id` and a UUID `form_id`; stops and /v2 entries name forms by the UUID, /v1 entries by the integer.
 */
import { Type } from 'typebox';
import { DateTime, NInt, NStr } from './types.js';
import { fromBool, fromJson, wireTime } from '../storage/values.js';
import type { ExternalId, FormEntryRow, FormField, FormRow, ListedFormEntry } from '../domain/dispatch/forms.js';
import { Nullable } from '../core/schema.js';

const NOT_RECORDED = 'Not recorded with form entries: null';
const Unrecorded = () => Nullable(Type.Number({ description: NOT_RECORDED }));

const ExternalIdOut = Type.Object({ external_id: Type.String(), integration_name: Type.String() });

const FormFieldOut = Type.Object({
  name: Type.String(),
  label: Type.String(),
  type: Type.String(),
  required: Type.Boolean(),
});

const DefinitionField = Type.Object({
  label: Type.String(),
  name: Type.String(),
  position: Type.Integer(),
  type: Type.String(),
  length: NInt(),
  required: Type.Boolean(),
  default_value: NStr(),
});

export const Form = Type.Object({
  id: Type.Integer(),
  form_id: Type.String({ format: 'uuid' }),
  version: Type.Integer(),
  title: Type.String(),
  name: Type.String(),
  available_for_driver: Type.Boolean(),
  definition: Type.Array(DefinitionField),
  external_ids: Type.Array(ExternalIdOut),
  form_fields: Type.Array(Type.Object({ form_field: FormFieldOut }), {
    description: 'The fields as this server answered them before `definition`',
  }),
  created_at: DateTime(),
  updated_at: DateTime(),
});

/** The entry of /v2/form_entries (and of the form_entry_created webhook). */
export const FormEntry = Type.Object({
  id: Type.Integer(),
  form_id: Type.String({ format: 'uuid' }),
  form_version: Type.Integer(),
  dispatch_id: NInt(),
  vendor_dispatch_id: NStr(),
  vendor_stop_id: NStr(),
  driver_id: Type.Integer(),
  vehicle_id: NInt(),
  entry: Type.Object({}, { additionalProperties: true, description: 'The answers, by form field name' }),
  submitted_at: DateTime(),
  created_at: DateTime(),
});

/** The entry of /v1/form_entries: `form_id` is the form's integer id. */
export const FormEntryV1 = Type.Object({
  id: Type.Integer(),
  form_id: Type.Integer({ description: "The form's integer id (its UUID is /v2's form_id)" }),
  driver_id: Type.Integer(),
  vehicle_id: NInt(),
  dispatch_id: NInt(),
  dispatch_stop_id: NInt(),
  dispatch_trip_id: NInt(),
  bearing: Unrecorded(),
  city: Nullable(Type.String({ description: NOT_RECORDED })),
  created_at: DateTime(),
  entered_at: DateTime(),
  lat: Unrecorded(),
  lon: Unrecorded(),
  odometer: Unrecorded(),
  rg_brg: Unrecorded(),
  form_version: Type.Integer(),
  vendor_dispatch_id: NStr(),
  vendor_stop_id: NStr(),
  entry: Type.Object({}, { additionalProperties: true, description: 'The answers, by form field name' }),
  submitted_at: DateTime(),
});

export function formWire(f: FormRow) {
  const fields = fromJson<FormField[]>(f.fields, []);
  return {
    id: f.seq,
    form_id: f.id,
    version: f.version,
    title: f.title ?? f.name,
    name: f.name,
    available_for_driver: fromBool(f.available_for_driver),
    definition: fields.map((x, i) => ({
      label: x.label,
      name: x.name,
      position: x.position ?? i + 1,
      type: x.type,
      length: x.length ?? null,
      required: !!x.required,
      default_value: x.default_value ?? null,
    })),
    external_ids: fromJson<ExternalId[]>(f.external_ids, []),
    form_fields: fields.map((x) => ({
      form_field: { name: x.name, label: x.label, type: x.type, required: !!x.required },
    })),
    created_at: wireTime(f.created_at)!,
    updated_at: wireTime(f.updated_at)!,
  };
}

export function formEntryWire(e: FormEntryRow) {
  return {
    id: e.id,
    form_id: e.form_id,
    form_version: e.form_version,
    dispatch_id: e.dispatch_id,
    vendor_dispatch_id: e.vendor_dispatch_id,
    vendor_stop_id: e.vendor_stop_id,
    driver_id: e.driver_id,
    vehicle_id: e.vehicle_id,
    entry: fromJson<Record<string, unknown>>(e.entry, {}),
    submitted_at: wireTime(e.submitted_at)!,
    created_at: wireTime(e.created_at)!,
  };
}

export function formEntryV1Wire(e: ListedFormEntry) {
  const submitted = wireTime(e.submitted_at)!;
  return {
    id: e.id,
    form_id: e.form_seq,
    driver_id: e.driver_id,
    vehicle_id: e.vehicle_id,
    dispatch_id: e.dispatch_id,
    dispatch_stop_id: e.dispatch_stop_id,
    dispatch_trip_id: e.dispatch_trip_id,
    bearing: null,
    city: null,
    created_at: wireTime(e.created_at)!,
    entered_at: submitted,
    lat: null,
    lon: null,
    odometer: null,
    rg_brg: null,
    form_version: e.form_version,
    vendor_dispatch_id: e.vendor_dispatch_id,
    vendor_stop_id: e.vendor_stop_id,
    entry: fromJson<Record<string, unknown>>(e.entry, {}),
    submitted_at: submitted,
  };
}
