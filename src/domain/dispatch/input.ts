/**
 * What a client may send to create or change a dispatch: the bodies of `POST` and `PUT /v1/dispatches`
 * and `/v2/dispatches`, which the console's dispatch form is checked against too
 * (src/http/console/dispatches.ts), and the version-neutral input of the dispatch services, derived from
 * them. On the wire the first stop (the shipper) and the last (the consignee) are flat members of the
 * dispatch (`vendor_shipper_id`, `consignee_refno`, `pickup_early_date` …), the ones between are
 * `dispatch_stops`; v2 adds `dispatch_trips`. docs/dispatch-states.md, "Load details", for the details.
 */
import { Type, type Static, type TObject, type TOptional, type TSchema, type TString } from 'typebox';
import { Enum, Nullable } from '../../core/schema.js';
import { toIso } from '../../storage/values.js';
import { DISPATCH_STATUSES, STOP_STATUSES } from './state-machine.js';
import { TRIP_STATUSES } from './trips.js';
import type { DISPATCH_DETAILS, DispatchDetails, StopDetails } from './details.js';

type Role = 'shipper' | 'consignee';
const opt = Type.Optional;
const VendorId = (description: string) => Type.String({ minLength: 1, maxLength: 255, description });
const FormIds = (description: string) =>
  Type.Array(Type.Union([Type.String({ format: 'uuid' }), Type.Integer({ minimum: 1, maximum: 2147483647 })]), {
    maxItems: 50,
    description: `${description}: UUIDs (form_id), or integer ids, answered as UUIDs`,
  });
const Count = () => Type.Integer({ minimum: 0, maximum: 2147483647 });
const Amount = () => Type.Number({ minimum: 0, maximum: 1e12 });
const Text = (maxLength: number) => Type.String({ maxLength });
const DateIn = () => opt(Nullable(Type.String({ format: 'date-time' })));

/** A stop's load details (null clears one). */
const stopDetails = () =>
  ({
    bill_of_lading: opt(Nullable(Text(255))),
    refno: opt(Nullable(Text(255))),
    pallets: opt(Nullable(Count())),
    pieces: opt(Nullable(Count())),
    weight: opt(Nullable(Amount())),
    volume: opt(Nullable(Amount())),
    comments: opt(Nullable(Text(2000))),
  }) satisfies Record<keyof StopDetails, TSchema>;

/** The dispatch's own load details (null clears one). */
const dispatchDetails = () =>
  ({
    additional_pickups: opt(Nullable(Count())),
    additional_drops: opt(Nullable(Count())),
    pickup_number: opt(Nullable(Text(255))),
    loaded_miles: opt(Nullable(Amount())),
  }) satisfies Record<keyof DispatchDetails, TSchema>;

const StopBody = Type.Object({
  vendor_id: VendorId('The stop: an existing vendor_id keeps that stop, a new one adds a stop'),
  number: opt(
    Type.Integer({
      minimum: 1,
      description: 'Order among the dispatch stops; when every stop has one they are sorted by it',
    }),
  ),
  type: opt(Nullable(Type.String({ maxLength: 64 }))),
  status: opt(Enum(STOP_STATUSES)),
  dispatch_location_id: opt(Type.Integer({ minimum: 1 })),
  vendor_dispatch_location_id: opt(Nullable(VendorId('The dispatch location, by its vendor_id (null: not given)'))),
  form_ids: opt(FormIds('Forms the driver fills in at this stop')),
  early_date: DateIn(),
  late_date: DateIn(),
  driver_load: opt(Nullable(Type.Boolean())),
  ...stopDetails(),
});

/** The shipper's or the consignee's members, under the names a dispatch stop has. */
const endFields = (role: Role) => ({
  vendor_id: opt(VendorId(`The ${role} stop's vendor_id (a new value renames it)`)),
  dispatch_location_id: opt(Type.Integer({ minimum: 1 })),
  vendor_dispatch_location_id: opt(
    Nullable(VendorId(`The ${role} stop's dispatch location, by its vendor_id (null: not given)`)),
  ),
  type: opt(Nullable(Type.String({ maxLength: 64 }))),
  status: opt(Enum(STOP_STATUSES)),
  form_ids: opt(FormIds(`Forms the driver fills in at the ${role} stop`)),
  ...stopDetails(),
  driver_load: opt(Nullable(Type.Boolean())),
  early_date: DateIn(),
  late_date: DateIn(),
});

/** The dates of the shipper and consignee stops carry the real API's pickup/delivery names. */
const DATES = { shipper: 'pickup', consignee: 'delivery' } as const;

/** The wire name of an end stop's member `K`: `vendor_shipper_id`, `consignee_refno`, `pickup_early_date` … */
export type EndName<R extends Role, K extends string> = K extends 'vendor_id'
  ? `vendor_${R}_id`
  : K extends 'vendor_dispatch_location_id'
    ? `vendor_${R}_dispatch_location_id`
    : K extends 'early_date' | 'late_date'
      ? `${(typeof DATES)[R]}_${K}`
      : `${R}_${K}`;

export function endName<R extends Role, K extends string>(role: R, key: K): EndName<R, K> {
  if (key === 'vendor_id' || key === 'vendor_dispatch_location_id')
    return `vendor_${role}_${key.slice('vendor_'.length)}` as EndName<R, K>;
  if (key === 'early_date' || key === 'late_date') return `${DATES[role]}_${key}` as EndName<R, K>;
  return `${role}_${key}` as EndName<R, K>;
}

/** An end's members under their wire names, keeping each name in the static type. */
function endBody<R extends Role>(role: R) {
  const fields = endFields(role);
  type Fields = typeof fields;
  return Object.fromEntries(Object.entries(fields).map(([k, schema]) => [endName(role, k), schema])) as {
    [K in keyof Fields & string as EndName<R, K>]: Fields[K];
  };
}

const TripBody = Type.Object({
  vendor_id: VendorId('The trip: an existing vendor_id keeps that trip, a new one adds a trip'),
  driver_id: opt(Type.Integer({ minimum: 1 })),
  vehicle_id: opt(Type.Integer({ minimum: 1 })),
  vendor_stop_ids: opt(
    Type.Array(Type.String({ maxLength: 255 }), { maxItems: 200, description: 'The stops of this trip (any role)' }),
  ),
  status: opt(Enum(TRIP_STATUSES)),
});

const dispatchFields = <V extends TSchema>(vendorId: V) => ({
  vendor_id: vendorId,
  status: opt(Enum(DISPATCH_STATUSES)),
  driver_id: opt(Type.Integer({ minimum: 1 })),
  vehicle_id: opt(Type.Integer({ minimum: 1 })),
  auto_complete_forms: opt(Type.Boolean()),
  ...endBody('shipper'),
  ...endBody('consignee'),
  ...dispatchDetails(),
  dispatch_stops: opt(
    Type.Array(StopBody, {
      maxItems: 200,
      description:
        'PUT: the complete list of dispatch stops (between shipper and consignee); stops left out are removed',
    }),
  ),
  remove_stop_vendor_ids: opt(
    Type.Array(Type.String({ maxLength: 255 }), {
      maxItems: 200,
      description: 'PUT: stops to remove, of any role; nothing else need be sent',
    }),
  ),
});

/** v2 only. */
const tripFields = () => ({
  dispatch_trips: opt(
    Type.Array(TripBody, {
      maxItems: 100,
      description: 'PUT: the complete list of trips; trips left out are removed',
    }),
  ),
});

function body<V extends TSchema>(version: 1 | 2, vendorId: V) {
  const fields = dispatchFields(vendorId);
  return version === 2 ? Type.Object({ ...fields, ...tripFields() }) : Type.Object(fields);
}

export const CreateBody = (version: 1 | 2) =>
  body(version, opt(VendorId("The client's identifier of the dispatch, unique in the company")));
export const UpdateBody = (version: 1 | 2) => body(version, VendorId('Names the dispatch to change'));

/** The collections a body may send wrapped (`{"dispatch_stop": {...}}`). */
export const WRAPPED = { dispatch_stops: 'dispatch_stop', dispatch_trips: 'dispatch_trip' };

/** A body of either version and either method (v1 sends no trips; PUT names its dispatch). */
export type DispatchBody = Static<
  TObject<ReturnType<typeof dispatchFields<TOptional<TString>>> & ReturnType<typeof tripFields>>
>;
type MiddleStopBody = Static<typeof StopBody>;
type EndStopBody = Static<TObject<ReturnType<typeof endFields>>>;
export type TripInput = Static<typeof TripBody>;

/** A stop as the service takes it: a dispatch location sent as null is one not given. */
type StopIn<T extends { vendor_dispatch_location_id?: string | null }> = Omit<T, 'vendor_dispatch_location_id'> & {
  vendor_dispatch_location_id?: string;
};

/** The input of the dispatch services: the body, with its ends as stops (`shipper`, `consignee`). */
export type DispatchInput = Pick<
  DispatchBody,
  | 'vendor_id'
  | 'status'
  | 'driver_id'
  | 'vehicle_id'
  | 'auto_complete_forms'
  | (typeof DISPATCH_DETAILS)[number]
  | 'remove_stop_vendor_ids'
  | 'dispatch_trips'
> & {
  shipper?: StopIn<EndStopBody>;
  consignee?: StopIn<EndStopBody>;
  dispatch_stops?: StopIn<MiddleStopBody>[];
};

const dateOf = (v: string | null | undefined) => (v === undefined || v === null ? v : toIso(new Date(v)));

const END_FIELDS = Object.keys(endFields('shipper'));

/** What a body sends for one end, under the stop's names; undefined when it sends nothing. */
function endInput(b: DispatchBody, role: Role): StopIn<EndStopBody> | undefined {
  const wire: Record<string, unknown> = b;
  const out: Record<string, unknown> = {};
  for (const k of END_FIELDS) if (wire[endName(role, k)] !== undefined) out[k] = wire[endName(role, k)];
  if (out.vendor_dispatch_location_id === null) delete out.vendor_dispatch_location_id;
  for (const k of ['early_date', 'late_date'] as const) if (k in out) out[k] = dateOf(b[endName(role, k)]);
  // The members are the end's own, each with the schema of the same stop member: the body was validated.
  return Object.keys(out).length ? (out as StopIn<EndStopBody>) : undefined;
}

/** The version-neutral input of the dispatch service. */
export function dispatchInput(b: DispatchBody): DispatchInput {
  return {
    vendor_id: b.vendor_id,
    status: b.status,
    driver_id: b.driver_id,
    vehicle_id: b.vehicle_id,
    auto_complete_forms: b.auto_complete_forms,
    additional_pickups: b.additional_pickups,
    additional_drops: b.additional_drops,
    pickup_number: b.pickup_number,
    loaded_miles: b.loaded_miles,
    shipper: endInput(b, 'shipper'),
    consignee: endInput(b, 'consignee'),
    dispatch_stops: b.dispatch_stops?.map((s) => ({
      ...s,
      vendor_dispatch_location_id: s.vendor_dispatch_location_id ?? undefined,
      early_date: dateOf(s.early_date),
      late_date: dateOf(s.late_date),
    })),
    remove_stop_vendor_ids: b.remove_stop_vendor_ids,
    dispatch_trips: b.dispatch_trips,
  };
}
