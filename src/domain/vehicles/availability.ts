/**
 * A vehicle's availability (docs/vehicles.md): in or out of service, and while out of service why,
 * with a note and the warning the driver app shows. Clients set it nested, as the real API documents
 * (`availability_details: {availability_status, out_of_service_reason, additional_note,
 * custom_driver_app_warning_prompt}`), or with the flat `availability_status` this server took first.
 */
import { validation } from '../../core/errors.js';
import type { AvailabilityInput } from './input.js';

/** The stored availability columns of a vehicle. */
export interface AvailabilityColumns {
  availability_status: string | null;
  out_of_service_reason: string | null;
  availability_note: string | null;
  availability_prompt: string | null;
}

const FIELDS = {
  out_of_service_reason: 'out_of_service_reason',
  additional_note: 'availability_note',
  custom_driver_app_warning_prompt: 'availability_prompt',
} as const;

const text = (v: string | null | undefined) =>
  v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim();

/** The nested and the flat form as one input; both naming a status must name the same one. */
export function availabilityInput(
  flat: AvailabilityInput['availability_status'],
  nested: AvailabilityInput | undefined,
): AvailabilityInput | undefined {
  if (flat === undefined && nested === undefined) return undefined;
  const status = nested?.availability_status;
  if (flat !== undefined && status !== undefined && flat !== status) {
    throw validation(
      'availability_status',
      `"${flat}" contradicts availability_details.availability_status "${status}"`,
    );
  }
  return { ...nested, availability_status: status ?? flat };
}

/**
 * The columns a change sets, or undefined when it changes nothing (then the availability keeps its
 * updated_at and updated_by). A change of status replaces the whole availability: what the request
 * leaves out is cleared. An in-service vehicle has no reason and no warning prompt: they are dropped,
 * not refused, so that a client may send back what it read with only the status changed.
 */
export function availabilityChange(
  current: AvailabilityColumns | undefined,
  input: AvailabilityInput,
): AvailabilityColumns | undefined {
  const was = current?.availability_status ?? 'in_service';
  const status = input.availability_status ?? was;
  const base: AvailabilityColumns =
    status !== was || !current
      ? { availability_status: status, out_of_service_reason: null, availability_note: null, availability_prompt: null }
      : { ...current, availability_status: status };
  const next = { ...base };
  for (const [wire, col] of Object.entries(FIELDS) as Array<
    [keyof typeof FIELDS, (typeof FIELDS)[keyof typeof FIELDS]]
  >) {
    const v = text(input[wire]);
    if (v !== undefined) next[col] = v;
  }
  if (status === 'in_service') {
    next.out_of_service_reason = null;
    next.availability_prompt = null;
  }
  const same =
    current &&
    (Object.keys(next) as Array<keyof AvailabilityColumns>).every(
      (k) => next[k] === (current[k] ?? (k === 'availability_status' ? 'in_service' : null)),
    );
  return same ? undefined : next;
}
