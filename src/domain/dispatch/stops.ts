/**
 * The stops of a dispatch as one ordered list: the first stop is the shipper, the last the consignee,
 * any between are the additional "dispatch stops". Roles follow the order, so removing the shipper
 * makes the next stop the shipper. Pure: `planStops` turns the current list and a request into the new
 * list plus the state-machine triggers the change amounts to. Locations are resolved beforehand.
 *
 * Request semantics (docs/dispatch-states.md):
 * - `shipper` / `consignee` update the first / last stop (a new `vendor_id` renames it);
 * - `dispatch_stops`, when present, is the complete list of additional stops, in order: a listed
 *   `vendor_id` that exists keeps its stop (only the members sent change), a new one adds a stop, and an
 *   additional stop left out is removed (the real API's rule);
 * - `remove_stop_vendor_ids` removes the named stops, whatever their role, and nothing else.
 */
import { validation } from '../../core/errors.js';
import { stopMayMove, type StopStatus, type Trigger } from './state-machine.js';
import { STOP_DETAILS, stopDetailsOf, withDetails, type StopDetails } from './details.js';

export interface StopFields extends Partial<StopDetails> {
  type?: string | null;
  status?: StopStatus;
  /** Resolved dispatch_location_id. */
  location?: number;
  form_ids?: string[];
  early_date?: string | null;
  late_date?: string | null;
  driver_load?: boolean | null;
}

export interface MiddleStopInput extends StopFields {
  vendor_id: string;
  number?: number;
}

export interface EndStopInput extends StopFields {
  vendor_id?: string;
}

export interface StopsChange {
  shipper?: EndStopInput;
  consignee?: EndStopInput;
  dispatch_stops?: MiddleStopInput[];
  remove_stop_vendor_ids?: string[];
}

export interface Stop extends StopDetails {
  /** Null for a stop the change adds. */
  id: number | null;
  vendor_id: string;
  dispatch_location_id: number;
  type: string | null;
  status: StopStatus;
  driver_load: boolean | null;
  early_date: string | null;
  late_date: string | null;
  form_ids: string[];
  trip_id: number | null;
}

export interface StopsPlan {
  stops: Stop[];
  triggers: Trigger[];
}

type Role = 'shipper' | 'consignee';

/** Wire names of a stop's members, for error messages. */
interface Names {
  vendor_id: string;
  location: string;
  vendor_location: string;
  status: string;
}

const endNames = (role: Role): Names => ({
  vendor_id: `vendor_${role}_id`,
  location: `${role}_dispatch_location_id`,
  vendor_location: `vendor_${role}_dispatch_location_id`,
  status: `${role}_status`,
});

const middleNames = (i: number): Names => ({
  vendor_id: `dispatch_stops[${i}].vendor_id`,
  location: `dispatch_stops[${i}].dispatch_location_id`,
  vendor_location: `dispatch_stops[${i}].vendor_dispatch_location_id`,
  status: `dispatch_stops[${i}].status`,
});

const DETAIL_KEYS = [
  'vendor_id',
  'dispatch_location_id',
  'type',
  'driver_load',
  'early_date',
  'late_date',
  'form_ids',
  ...STOP_DETAILS,
] as const;

function newStop(input: EndStopInput, names: Names): Stop {
  if (!input.vendor_id) throw validation(names.vendor_id, 'is required: every stop has a vendor_id');
  if (input.location === undefined) {
    throw validation(
      names.location,
      `(or ${names.vendor_location}) is required: every stop refers to a dispatch location`,
    );
  }
  return {
    id: null,
    vendor_id: input.vendor_id,
    dispatch_location_id: input.location,
    type: input.type ?? null,
    status: 'available',
    driver_load: input.driver_load ?? null,
    early_date: input.early_date ?? null,
    late_date: input.late_date ?? null,
    form_ids: input.form_ids ?? [],
    ...stopDetailsOf(input),
    trip_id: null,
  };
}

/** The stop with the members the input sends; status is handled separately. */
function merged(stop: Stop, input: EndStopInput): Stop {
  const out = withDetails(STOP_DETAILS, stop, input);
  if (input.vendor_id !== undefined) out.vendor_id = input.vendor_id;
  if (input.location !== undefined) out.dispatch_location_id = input.location;
  if (input.type !== undefined) out.type = input.type;
  if (input.driver_load !== undefined) out.driver_load = input.driver_load;
  if (input.early_date !== undefined) out.early_date = input.early_date;
  if (input.late_date !== undefined) out.late_date = input.late_date;
  if (input.form_ids !== undefined) out.form_ids = input.form_ids;
  return out;
}

function ordered(inputs: MiddleStopInput[]): Array<[MiddleStopInput, number]> {
  const indexed = inputs.map((s, i) => [s, i] as [MiddleStopInput, number]);
  if (inputs.length > 0 && inputs.every((s) => s.number !== undefined))
    indexed.sort((a, b) => a[0].number! - b[0].number!);
  return indexed;
}

interface Draft {
  stop: Stop;
  names: Names;
  /** Requested status, applied after the list is settled. */
  status?: StopStatus;
}

export function planStops(current: Stop[], change: StopsChange): StopsPlan {
  const creating = current.length === 0;
  let drafts: Draft[];
  if (creating) {
    if (!change.shipper && !change.consignee) {
      throw validation(
        'vendor_shipper_id',
        'is required: a dispatch has at least two stops, a shipper and a consignee',
      );
    }
    const middle = ordered(change.dispatch_stops ?? []).map(([s, i]) => ({
      stop: newStop(s, middleNames(i)),
      names: middleNames(i),
      status: s.status,
    }));
    const end = (role: Role): Draft => ({
      stop: newStop(change[role] ?? {}, endNames(role)),
      names: endNames(role),
      status: change[role]?.status,
    });
    drafts = [end('shipper'), ...middle, end('consignee')];
  } else {
    const first = current[0];
    const last = current[current.length - 1];
    let middle: Draft[] = current.slice(1, -1).map((stop, i) => ({ stop, names: middleNames(i) }));
    if (change.dispatch_stops !== undefined) {
      const existing = new Map(middle.map((d) => [d.stop.vendor_id, d.stop]));
      middle = ordered(change.dispatch_stops).map(([s, i]) => {
        const names = middleNames(i);
        if (s.vendor_id === first.vendor_id || s.vendor_id === last.vendor_id) {
          const role = s.vendor_id === first.vendor_id ? 'shipper' : 'consignee';
          throw validation(
            names.vendor_id,
            `"${s.vendor_id}" is the ${role} stop; change it with the ${role}_* members`,
          );
        }
        const stop = existing.get(s.vendor_id);
        return { stop: stop ? merged(stop, s) : newStop(s, names), names, status: s.status };
      });
    }
    const end = (role: Role, stop: Stop): Draft => ({
      stop: change[role] ? merged(stop, change[role]!) : stop,
      names: endNames(role),
      status: change[role]?.status,
    });
    drafts = [end('shipper', first), ...middle, end('consignee', last)];
    (change.remove_stop_vendor_ids ?? []).forEach((vid, i) => {
      const at = drafts.findIndex((d) => d.stop.vendor_id === vid);
      if (at === -1) throw validation(`remove_stop_vendor_ids[${i}]`, `names no stop of this dispatch ("${vid}")`);
      drafts.splice(at, 1);
    });
  }

  const seen = new Set<string>();
  for (const d of drafts) {
    if (seen.has(d.stop.vendor_id))
      throw validation(d.names.vendor_id, `"${d.stop.vendor_id}" is used by another stop of this dispatch`);
    seen.add(d.stop.vendor_id);
  }
  if (drafts.length < 2) {
    throw validation(
      'remove_stop_vendor_ids',
      `would leave ${drafts.length} stop; a dispatch keeps at least two (a shipper and a consignee)`,
    );
  }

  const triggers: Trigger[] = [];
  if (!creating) {
    const before = current.map((s) => s.id).join(',');
    const after = drafts.map((d) => d.stop.id ?? 'new').join(',');
    if (before !== after) triggers.push('change_stops');
    const original = new Map(current.map((s) => [s.id, s]));
    const edited = drafts.some((d) => {
      const o = d.stop.id === null ? undefined : original.get(d.stop.id);
      return o !== undefined && DETAIL_KEYS.some((k) => JSON.stringify(o[k]) !== JSON.stringify(d.stop[k]));
    });
    if (edited) triggers.push('edit');
  }
  const progress: Trigger[] = [];
  drafts.forEach((d, i) => {
    const from = d.stop.status;
    const to = d.status ?? from;
    if (!stopMayMove(from, to)) throw validation(d.names.status, `cannot go back from ${from} to ${to}`);
    if (to === from) return;
    d.stop = { ...d.stop, status: to };
    progress.push(i === drafts.length - 1 && to === 'departed' ? 'consignee_departed' : 'stop_progress');
  });
  // The consignee departing ends the dispatch, so it is applied after every other stop has moved.
  progress.sort((a, b) => (a === b ? 0 : a === 'consignee_departed' ? 1 : -1));
  return { stops: drafts.map((d) => d.stop), triggers: [...triggers, ...progress] };
}
