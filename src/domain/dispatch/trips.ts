/**
 * Dispatch trips (v2): a dispatch split into trips, each holding some of its stops; a stop belongs to
 * at most one trip. Trips share the dispatch's driver, vehicle and state machine: a trip's status is
 * derived from the dispatch's status and its stops, and trip statuses sent by a client translate into
 * dispatch triggers. Pure.
 */
import { validation } from '../../core/errors.js';
import type { DispatchStatus, StopStatus, Trigger } from './state-machine.js';
import type { TripInput } from './input.js';

export const TRIP_STATUSES = ['not_started', 'in_progress', 'completed', 'cancelled'] as const;
export type TripStatus = (typeof TRIP_STATUSES)[number];

export interface Trip {
  id: number | null;
  vendor_id: string;
  stop_vendor_ids: string[];
}

/**
 * The trips after a change. `input` undefined keeps the trips; otherwise it is the complete list: a
 * listed trip without `vendor_stop_ids` keeps its stops, a trip left out is removed. Stops the change
 * removed leave their trip.
 */
export function planTrips(current: Trip[], input: TripInput[] | undefined, stopVendorIds: string[]): Trip[] {
  const stops = new Set(stopVendorIds);
  if (input === undefined)
    return current.map((t) => ({ ...t, stop_vendor_ids: t.stop_vendor_ids.filter((s) => stops.has(s)) }));
  const byVendor = new Map(current.map((t) => [t.vendor_id, t]));
  const owner = new Map<string, string>();
  const seen = new Set<string>();
  return input.map((t, i) => {
    if (seen.has(t.vendor_id)) throw validation(`dispatch_trips[${i}].vendor_id`, `"${t.vendor_id}" appears twice`);
    seen.add(t.vendor_id);
    const existing = byVendor.get(t.vendor_id);
    const ids = t.vendor_stop_ids ?? existing?.stop_vendor_ids.filter((s) => stops.has(s)) ?? [];
    ids.forEach((s, j) => {
      const field = `dispatch_trips[${i}].vendor_stop_ids[${j}]`;
      if (!stops.has(s)) throw validation(field, `names no stop of this dispatch ("${s}")`);
      const other = owner.get(s);
      if (other !== undefined) {
        throw validation(field, `"${s}" is already in trip "${other}"; a stop belongs to at most one trip`);
      }
      owner.set(s, t.vendor_id);
    });
    return { id: existing?.id ?? null, vendor_id: t.vendor_id, stop_vendor_ids: ids };
  });
}

/**
 * The driver and vehicle the trips name. A dispatch has one driver and one vehicle, so every trip that
 * names one must name the same one, and it must agree with the top-level member when both are sent.
 */
export function tripAssignment(
  input: TripInput[] | undefined,
  top: { driver_id?: number; vehicle_id?: number },
): { driver_id?: number; vehicle_id?: number } {
  const out = { ...top };
  for (const key of ['driver_id', 'vehicle_id'] as const) {
    (input ?? []).forEach((t, i) => {
      const v = t[key];
      if (v === undefined) return;
      if (out[key] === undefined) out[key] = v;
      else if (out[key] !== v) {
        throw validation(
          `dispatch_trips[${i}].${key}`,
          `must be ${out[key]}: every trip of a dispatch has the dispatch's one driver and vehicle`,
        );
      }
    });
  }
  return out;
}

/**
 * The dispatch trigger that trip statuses ask for, when the body sends no dispatch `status`: every
 * trip cancelled cancels the dispatch (the real API's advice), every trip completed completes it, a
 * trip in progress activates it; `not_started` asks for nothing.
 */
export function tripTrigger(
  input: TripInput[] | undefined,
): Extract<Trigger, 'cancel' | 'complete' | 'activate'> | null {
  const statuses = (input ?? []).map((t) => t.status).filter((s): s is TripStatus => s !== undefined);
  if (statuses.length === 0) return null;
  if (statuses.length === (input ?? []).length && statuses.every((s) => s === 'cancelled')) return 'cancel';
  if (statuses.length === (input ?? []).length && statuses.every((s) => s === 'completed')) return 'complete';
  if (statuses.includes('in_progress')) return 'activate';
  return null;
}

/**
 * A trip's status: cancelled or completed with its dispatch; not_started while the dispatch is planned;
 * while it is active, a trip whose stops have all departed is completed, the first other trip is in
 * progress and the rest have not started.
 */
export function tripStatuses(
  dispatch: DispatchStatus,
  trips: Trip[],
  stopStatus: Map<string, StopStatus>,
): TripStatus[] {
  if (dispatch === 'cancelled') return trips.map(() => 'cancelled');
  if (dispatch === 'completed') return trips.map(() => 'completed');
  if (dispatch === 'planned') return trips.map(() => 'not_started');
  let current = false;
  return trips.map((t) => {
    const done = t.stop_vendor_ids.length > 0 && t.stop_vendor_ids.every((s) => stopStatus.get(s) === 'departed');
    if (done) return 'completed';
    if (!current) {
      current = true;
      return 'in_progress';
    }
    return 'not_started';
  });
}
