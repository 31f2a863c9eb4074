/** The form and form_entry objects (wire-format §4.22). Form ids are UUID strings. */
import { Type } from 'typebox';
import { DateTime, NInt, NStr } from './types.js';
import { fromJson, wireTime } from '../../storage/values.js';
import type { ExternalId, FormEntryRow, FormField, FormRow } from '../../domain/dispatch/forms.js';

const ExternalIdOut = Type.Object({ external_id: Type.String(), integration_name: Type.String() });

const FormFieldOut = Type.Object({
  name: Type.String(),
  label: Type.String(),
  type: Type.String(),
  required: Type.Boolean(),
});

export const Form = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  version: Type.Integer(),
  external_ids: Type.Array(ExternalIdOut),
  form_fields: Type.Array(Type.Object({ form_field: FormFieldOut })),
  created_at: DateTime(),
  updated_at: DateTime(),
});

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

export function formWire(f: FormRow) {
  return {
    id: f.id,
    name: f.name,
    version: f.version,
    external_ids: fromJson<ExternalId[]>(f.external_ids, []),
    form_fields: fromJson<FormField[]>(f.fields, []).map((x) => ({
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
