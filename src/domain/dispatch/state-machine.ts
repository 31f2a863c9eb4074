/**
 * The dispatch state machine: four states, a closed set of triggers, one transition table.
 * Pure: no database, no clock. The service derives the triggers of a request (status asked for, driver
 * or vehicle changed, stops added or removed, details edited, stops progressing) and runs them through
 * `apply` in order; the first trigger the table does not allow fails the whole request.
 * docs/dispatch-states.md shows the same table.
 */
export const DISPATCH_STATUSES = ['planned', 'active', 'cancelled', 'completed'] as const;
export type DispatchStatus = (typeof DISPATCH_STATUSES)[number];

export const TRIGGERS = [
  /** PUT status "planned". */
  'plan',
  /** PUT status "active". */
  'activate',
  /** PUT status "cancelled" (v2: every trip cancelled). */
  'cancel',
  /** PUT status "completed" (v2: every trip completed). */
  'complete',
  /** driver_id or vehicle_id changes. */
  'reassign',
  /** A stop is added or removed, or the order of the stops changes. */
  'change_stops',
  /** Any other detail changes: stop details, forms, auto_complete_forms, vendor ids. */
  'edit',
  /** A stop other than the consignee (last) stop becomes in_progress or departed. */
  'stop_progress',
  /** The consignee (last) stop departs: the dispatch is done. */
  'consignee_departed',
] as const;
export type Trigger = (typeof TRIGGERS)[number];

export type Outcome = { ok: true; next: DispatchStatus } | { ok: false; reason: string };

/** The transition table: state → trigger → next state. A missing entry is not allowed. */
export const TRANSITIONS: Record<DispatchStatus, Partial<Record<Trigger, DispatchStatus>>> = {
  planned: {
    plan: 'planned',
    activate: 'active',
    cancel: 'cancelled',
    reassign: 'planned',
    change_stops: 'planned',
    edit: 'planned',
  },
  active: {
    activate: 'active',
    cancel: 'cancelled',
    complete: 'completed',
    edit: 'active',
    stop_progress: 'active',
    consignee_departed: 'completed',
  },
  cancelled: {},
  completed: {},
};

/** Why a trigger is refused in a state: every cell missing from TRANSITIONS has a sentence here. */
function refusal(state: DispatchStatus, trigger: Trigger): string {
  if (state === 'cancelled' || state === 'completed') {
    return `the dispatch is ${state}, and a ${state} dispatch cannot change`;
  }
  if (state === 'active') {
    switch (trigger) {
      case 'plan':
        return 'an active dispatch cannot return to planned';
      case 'reassign':
        return 'the driver and vehicle of an active dispatch cannot be changed';
      case 'change_stops':
        return 'stops can only be added, removed or reordered while the dispatch is planned; it is active';
      default:
        break; // the general sentence below
    }
  }
  if (state === 'planned') {
    switch (trigger) {
      case 'complete':
        return 'a planned dispatch cannot be completed; activate it first';
      case 'stop_progress':
      case 'consignee_departed':
        return 'stops can only progress while the dispatch is active; it is planned';
      default:
        break; // the general sentence below
    }
  }
  return `the dispatch is ${state}; "${trigger}" is not allowed`;
}

export function transition(state: DispatchStatus, trigger: Trigger): Outcome {
  const next = TRANSITIONS[state][trigger];
  return next ? { ok: true, next } : { ok: false, reason: refusal(state, trigger) };
}

/** Runs the triggers in order from `state`; stops at the first refusal. */
export function apply(state: DispatchStatus, triggers: readonly Trigger[]): Outcome {
  let current = state;
  for (const t of triggers) {
    const o = transition(current, t);
    if (!o.ok) return o;
    current = o.next;
  }
  return { ok: true, next: current };
}

/** The trigger that asks for `status` (the `status` member of a PUT body). */
export function triggerFor(status: DispatchStatus): Trigger {
  return ({ planned: 'plan', active: 'activate', cancelled: 'cancel', completed: 'complete' } as const)[status];
}

/** A dispatch is created planned or active; other statuses need an existing dispatch. */
export function initialStatus(requested: DispatchStatus | undefined): Outcome {
  const s = requested ?? 'planned';
  if (s === 'planned' || s === 'active') return { ok: true, next: s };
  return { ok: false, reason: `a dispatch is created planned or active, not ${s}` };
}

/** Stop statuses (docs/reference/wire.md §4.21, docs dispatches-overview), in the only order they may move. */
export const STOP_STATUSES = ['available', 'in_progress', 'departed'] as const;
export type StopStatus = (typeof STOP_STATUSES)[number];

/** True when a stop may move from `from` to `to` (forward or staying put). */
export function stopMayMove(from: StopStatus, to: StopStatus): boolean {
  return STOP_STATUSES.indexOf(to) >= STOP_STATUSES.indexOf(from);
}
