/**
 * Delivery bodies. A body is the flat wire object (docs/reference/wire.md §7.4): `action`, then `trigger` when
 * the event has one, then the object's fields as the REST API shows them, rendered by the same wire
 * mappers the routes use.
 *
 * When: once, by the worker, when it turns the event into deliveries (usually within a second of the
 * commit). The object's own fields come from the snapshot the event recorded in the transaction of the
 * change, so a body shows the object as it was at the event, not as it is later; embedded summaries and
 * lists the mappers look up (a driver's name, group ids) are read at that moment. The bytes are stored
 * and every attempt sends and signs exactly them.
 *
 * An action without a renderer here sends its snapshot as it is, flat: an area whose snapshot already
 * is the wire object needs nothing more (register one with `registerRenderer` otherwise).
 */
import type { Db } from '../../storage/db.js';
import { fromJson, json } from '../../storage/values.js';
import { userWire } from '../../wire/user.js';

import { dispatchLocationWire } from '../../wire/dispatch-location.js';
import { formEntryWire, formWire } from '../../wire/dispatch-forms.js';
import { geofenceWire } from '../../wire/geofence.js';

import { groupIdsOf } from '../../domain/users/service.js';
import {
  dispatchesWire,
  documentsWire,
  fuelPurchasesWire,
  inspectionReportsWire,
  messagesWire,
  vehiclesWire,
} from '../../wire/pages.js';

export interface EventForPayload {
  id: number;
  company_id: number;
  action: string;
  trigger: string | null;
  subject_id: string;
  occurred_at: string;
  /** The parsed snapshot. */
  data: any;
}

export interface RenderContext {
  db: Db;
  publicUrl: string;
}

/** Renders the wire objects of several events of one company and one action, in order. */
export type Renderer = (ctx: RenderContext, companyId: number, events: EventForPayload[]) => Promise<object[]>;

const one =
  (f: (e: EventForPayload) => object): Renderer =>
  async (_ctx, _c, events) =>
    events.map(f);

const dispatchView = (d: any) => {
  const { stops, trips, ...row } = d;
  return { row, status: row.status, stops, trips };
};

const users: Renderer = async ({ db }, _c, events) => {
  const groups = await groupIdsOf(
    db,
    events.map((e) => e.data.id),
  );
  return events.map((e) => userWire(e.data, groups.get(e.data.id) ?? []));
};

const renderers = new Map<string, Renderer>([
  ['user_upserted', users],
  ['user_duty_status_updated', users],
  [
    'vehicle_upserted',
    ({ db }, c, events) =>
      vehiclesWire(
        db,
        c,
        events.map((e) => e.data),
      ),
  ],
  [
    'dispatch_upserted',
    ({ db }, c, events) =>
      dispatchesWire(
        db,
        c,
        events.map((e) => dispatchView(e.data)),
        2,
      ),
  ],
  [
    'dispatch_status_changed',
    async ({ db }, c, events) => {
      const wires = await dispatchesWire(
        db,
        c,
        events.map((e) => dispatchView(e.data.dispatch)),
        2,
      );
      return wires.map((w, i) => ({ previous_status: events[i].data.from, ...w }));
    },
  ],
  ['dispatch_location_upserted', one((e) => dispatchLocationWire(e.data))],
  ['dispatch_location_deleted', one((e) => dispatchLocationWire(e.data))],
  [
    'form_upserted',
    one((e) =>
      formWire({
        company_id: e.company_id,
        version: 1,
        created_at: e.occurred_at,
        updated_at: e.occurred_at,
        ...e.data,
        external_ids: json(e.data.external_ids ?? []),
        fields: json(e.data.fields ?? []),
      }),
    ),
  ],
  [
    'form_entry_created',
    one((e) =>
      formEntryWire({ ...e.data, entry: typeof e.data.entry === 'string' ? e.data.entry : json(e.data.entry ?? {}) }),
    ),
  ],
  ['geofence_upserted', one((e) => geofenceWire(e.data))],
  ['geofence_deleted', one((e) => geofenceWire(e.data))],
  [
    'inspection_report_upserted',
    async ({ db }, c, events) => {
      const rows = events.map((e) => ({ ...e.data, trailer_nums: json(e.data.trailer_nums ?? []) }));
      const wires = await inspectionReportsWire(db, c, rows);
      // Defects and external ids as they were at the event.
      return wires.map((w, i) => ({
        ...w,
        defects: (events[i].data.defects ?? []).map((d: any) => ({
          defect: { id: d.id, area: d.area, category: d.category, notes: d.notes },
        })),
        external_ids: events[i].data.external_ids ?? [],
      }));
    },
  ],
  [
    'message_created',
    ({ db }, c, events) =>
      messagesWire(
        db,
        c,
        events.map((e) => e.data),
      ),
  ],
  [
    'message_updated',
    ({ db }, c, events) =>
      messagesWire(
        db,
        c,
        events.map((e) => e.data),
      ),
  ],
  [
    'fuel_purchase_upserted',
    ({ db, publicUrl }, c, events) =>
      fuelPurchasesWire(
        db,
        c,
        publicUrl,
        events.map((e) => e.data),
      ),
  ],
  [
    'fuel_purchase_deleted',
    ({ db, publicUrl }, c, events) =>
      fuelPurchasesWire(
        db,
        c,
        publicUrl,
        events.map((e) => e.data),
      ),
  ],
  [
    'document_upserted',
    ({ db, publicUrl }, c, events) =>
      documentsWire(
        db,
        c,
        publicUrl,
        events.map((e) => e.data),
      ),
  ],
  [
    'document_deleted',
    ({ db, publicUrl }, c, events) =>
      documentsWire(
        db,
        c,
        publicUrl,
        events.map((e) => e.data),
      ),
  ],
]);

/** Lets an area render its action's body (call at module load, before the worker runs). */
export function registerRenderer(action: string, renderer: Renderer): void {
  renderers.set(action, renderer);
}

export const renderedActions = () => [...renderers.keys()];

/** The snapshot as it is, less anything that looks like a stored credential (`*_hash`, `secret`). */
function flatSnapshot(e: EventForPayload): object {
  if (e.data === null || typeof e.data !== 'object' || Array.isArray(e.data)) return { data: e.data };
  return Object.fromEntries(Object.entries(e.data).filter(([k]) => !/(_hash|^secret|_secret)$/.test(k)));
}

/** `{"action": …, "trigger": …, …fields}` serialized: the exact body every attempt sends. */
export function bodyOf(e: Pick<EventForPayload, 'action' | 'trigger'>, wire: object): string {
  const { action: _a, trigger: _t, ...fields } = wire as Record<string, unknown>;
  return JSON.stringify(
    e.trigger === null ? { action: e.action, ...fields } : { action: e.action, trigger: e.trigger, ...fields },
  );
}

/**
 * The bodies of a batch of events (any companies and actions), by event id. A renderer that fails
 * (say, on a snapshot older than its mapper) falls back to the flat snapshot rather than holding up
 * the outbox; `onFallback` hears about it.
 */
export async function renderBodies(
  ctx: RenderContext,
  events: EventForPayload[],
  onFallback: (action: string, err: unknown) => void = () => {},
): Promise<Map<number, string>> {
  const groups = new Map<string, EventForPayload[]>();
  for (const e of events) {
    const key = `${e.company_id}\u0000${e.action}`;
    const list = groups.get(key);
    if (list) list.push(e);
    else groups.set(key, [e]);
  }
  const out = new Map<number, string>();
  for (const list of groups.values()) {
    const { company_id: companyId, action } = list[0];
    const renderer = renderers.get(action);
    let wires: object[] | null = null;
    if (renderer) {
      try {
        wires = await renderer(ctx, companyId, list);
      } catch (err) {
        onFallback(action, err);
      }
    }
    list.forEach((e, i) => out.set(e.id, bodyOf(e, wires?.[i] ?? flatSnapshot(e))));
  }
  return out;
}

/** Parses a stored snapshot (JSON text). */
export const snapshotOf = (data: string) => fromJson<unknown>(data, null);
