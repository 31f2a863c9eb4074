/**
 * The shapes of the two records other areas own: an `inspection` (createInspectionReport) and a
 * `form_entry` (recordFormEntry). They are checked when the record is parsed, with the rest of the
 * record, so that a wrong type (`"defects": "x"`) is that record's rejection naming the field, never a
 * failure inside the service after the batch's other records were stored. Fields not listed here are
 * ignored, as the services ignore them (every field is optional but form_id); what needs the database (the form exists, the log belongs to
 * the driver) is the services' own check.
 */
import { Ajv, type ErrorObject } from 'ajv';
import { Type } from 'typebox';
import { INSPECTION_TYPES } from '../domain/inspections/create.js';
import { INT32_MAX } from '../storage/portable-values.js';

const Text = (max: number) => Type.Union([Type.String({ maxLength: max }), Type.Null()]);
const Id = Type.Integer({ minimum: 1, maximum: INT32_MAX });

const INSPECTION = Type.Partial(
  Type.Object({
    inspection_type: Type.Unsafe<string | null>({ enum: [...INSPECTION_TYPES, null] }),
    odometer: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
    carrier_name: Text(255),
    trailer_nums: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 20 }),
    location: Text(255),
    city: Text(128),
    state: Text(64),
    defects: Type.Array(
      Type.Object({
        area: Type.String({ maxLength: 64 }),
        category: Type.String({ maxLength: 128 }),
        notes: Type.Optional(Text(2000)),
      }),
      { maxItems: 200 },
    ),
    driver_signed_at: Type.Union([Type.String(), Type.Null()]),
    driver_signature_url: Text(2000),
    log_id: Type.Union([Id, Type.Null()]),
    external_ids: Type.Array(
      Type.Object({ external_id: Type.String({ maxLength: 255 }), integration_name: Type.String({ maxLength: 255 }) }),
      { maxItems: 20 },
    ),
  }),
);

const FORM_ENTRY = Type.Object({
  form_id: Type.Union([Type.String({ minLength: 1, maxLength: 255 }), Id]),
  entry: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  dispatch_id: Type.Optional(Id),
  vendor_dispatch_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  vendor_stop_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
});

const ajv = new Ajv({ allErrors: false, strict: false, coerceTypes: false });
const checks = {
  inspection: ajv.compile(INSPECTION),
  form_entry: ajv.compile(FORM_ENTRY),
};

/** `/defects/0/area` → `defects[0].area`. */
function fieldOf(e: ErrorObject): string {
  const parts = e.instancePath.split('/').slice(1);
  if (e.keyword === 'required') parts.push(String((e.params as { missingProperty: string }).missingProperty));
  return parts.reduce((out, p) => (/^\d+$/.test(p) ? `${out}[${p}]` : out ? `${out}.${p}` : p), '');
}

function messageOf(e: ErrorObject): string {
  const field = fieldOf(e);
  switch (e.keyword) {
    case 'required':
      return `${field} is required`;
    case 'maxLength':
      return `${field} must be at most ${(e.params as { limit: number }).limit} characters long`;
    case 'minLength':
      return `${field} must not be empty`;
    case 'type':
      return `${field} must be ${/^[aeiou]/.test(String(e.params.type)) ? 'an' : 'a'} ${e.params.type}`;
    case 'enum':
      return `${field} must be one of: ${(e.params as { allowedValues: unknown[] }).allowedValues.filter((v) => v !== null).join(', ')}`;
    case 'minimum':
      return `${field} must be at least ${(e.params as { limit: number }).limit}`;
    case 'maximum':
      return `${field} must be at most ${(e.params as { limit: number }).limit}`;
    case 'maxItems':
      return `${field} must have at most ${(e.params as { limit: number }).limit} items`;
    default:
      return `${field} ${e.message ?? 'is not valid'}`;
  }
}

/**
 * The message naming the first wrong field of an inspection or form entry record, or null when its
 * shape is right. A field that may also be null is named by its main type ("location must be a
 * string").
 */
export function serviceRecordError(type: 'inspection' | 'form_entry', fields: Record<string, unknown>): string | null {
  const check = checks[type];
  if (check(fields)) return null;
  const errors = check.errors ?? [];
  // For a union, ajv lists each branch's complaint and then "must match a schema in anyOf"; the
  // first complaint names the field and the expected main type.
  return errors.length ? messageOf(errors[0]) : `${type} record is not valid`;
}
