/**
 * The load details of stops and dispatches that the real API carries and nothing here acts on: stored
 * as given, answered as stored, and a change to one is an `edit` (docs/dispatch-states.md, "Load
 * details"). One list per level, so that the service, the repository and the wire name them once.
 */

/** A stop's details (on the wire `<name>` in dispatch_stops, `shipper_<name>` / `consignee_<name>` for the ends). */
export const STOP_DETAILS = ['bill_of_lading', 'refno', 'pallets', 'pieces', 'weight', 'volume', 'comments'] as const;

export interface StopDetails {
  bill_of_lading: string | null;
  refno: string | null;
  pallets: number | null;
  pieces: number | null;
  weight: number | null;
  volume: number | null;
  comments: string | null;
}

/** A dispatch's own details. */
export const DISPATCH_DETAILS = ['additional_pickups', 'additional_drops', 'pickup_number', 'loaded_miles'] as const;

export interface DispatchDetails {
  additional_pickups: number | null;
  additional_drops: number | null;
  pickup_number: string | null;
  loaded_miles: number | null;
}

type Keys<T> = readonly (keyof T)[];

function pick<T>(keys: Keys<T>, from: object): T {
  return Object.fromEntries(keys.map((k) => [k, (from as Record<string, unknown>)[k as string] ?? null])) as T;
}

/** A stop's details from a row or an input, null where absent (a new stop). */
export const stopDetailsOf = (from: object): StopDetails => pick<StopDetails>(STOP_DETAILS, from);

/** A dispatch's details from a row or an input, null where absent (a new dispatch). */
export const dispatchDetailsOf = (from: object): DispatchDetails => pick<DispatchDetails>(DISPATCH_DETAILS, from);

/** `current` with the details `input` sends (null clears one). */
export function withDetails<T>(keys: Keys<T>, current: T, input: Partial<T>): T {
  const out = { ...current };
  for (const k of keys) if (input[k] !== undefined) out[k] = input[k] as T[keyof T];
  return out;
}

/** Whether `input` sends a detail that differs from `current`. */
export function detailsChange<T>(keys: Keys<T>, current: T, input: Partial<T>): boolean {
  return keys.some((k) => input[k] !== undefined && input[k] !== current[k]);
}
