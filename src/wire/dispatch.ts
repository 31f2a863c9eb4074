/**
 * The dispatch object (docs/reference/wire.md §4.21), for /v1 and /v2. One ordered list of stops is
 * mapped to the v1 shape: the first stop is the shipper (`vendor_shipper_id`,
 * `shipper_dispatch_location_id`, …), the last the consignee, the ones between are `dispatch_stops`.
 * v2 adds `dispatch_trips`. Nested collections use the single-key wrapper (§3.2). The request bodies
 * and their conversion into the service's input are the area's (src/domain/dispatch/input.ts).
 */
import { Type } from 'typebox';
import { fromBool, wireTime } from '../storage/values.js';
import { DateTime, NBool, NDateTime, NStr } from './types.js';
import { UserSummary, VehicleSummary, userSummary, vehicleSummary } from './summaries.js';
import type { VehicleSummaryRow } from '../domain/vehicles/summaries.js';
import type { UserSummaryRow } from '../domain/users/summaries.js';
import { DISPATCH_STATUSES, STOP_STATUSES } from '../domain/dispatch/state-machine.js';
import { TRIP_STATUSES, tripStatuses } from '../domain/dispatch/trips.js';
import type { DispatchView, Stop } from '../domain/dispatch/service.js';
import {
  dispatchDetailsOut,
  dispatchDetailsWire,
  endDetailsOut,
  endDetailsWire,
  stopDetailsOut,
  stopDetailsWire,
} from './dispatch-details.js';
import { Nullable } from '../core/schema.js';

const Enum = (values: readonly string[]) => Type.String({ enum: [...values] });

const StopOut = Type.Object({
  id: Type.Integer(),
  vendor_id: Type.String(),
  number: Type.Integer({ description: '1-based position among the dispatch stops' }),
  type: NStr(),
  status: Enum(STOP_STATUSES),
  dispatch_location_id: Type.Integer(),
  vendor_dispatch_location_id: NStr(),
  form_ids: Type.Array(Type.String()),
  early_date: NDateTime(),
  late_date: NDateTime(),
  driver_load: NBool(),
  ...stopDetailsOut(),
});

const endOut = (role: 'shipper' | 'consignee') => ({
  [`vendor_${role}_id`]: Type.String(),
  [`${role}_dispatch_location_id`]: Type.Integer(),
  [`vendor_${role}_dispatch_location_id`]: NStr(),
  [`${role}_type`]: NStr(),
  [`${role}_status`]: Enum(STOP_STATUSES),
  [`${role}_form_ids`]: Type.Array(Type.String()),
  ...endDetailsOut(role),
});

const dispatchOut = {
  id: Type.Integer(),
  vendor_id: NStr(),
  status: Enum(DISPATCH_STATUSES),
  driver_id: Type.Integer(),
  vehicle_id: Type.Integer(),
  auto_complete_forms: Type.Boolean(),
  ...endOut('shipper'),
  ...endOut('consignee'),
  ...dispatchDetailsOut(),
  driver: Nullable(UserSummary),
  vehicle: Nullable(VehicleSummary),
  dispatch_stops: Type.Array(Type.Object({ dispatch_stop: StopOut })),
  created_at: DateTime(),
  updated_at: DateTime(),
};

export const DispatchV1 = Type.Object(dispatchOut);

const TripOut = Type.Object({
  id: Type.Integer(),
  vendor_id: Type.String(),
  driver_id: Type.Integer(),
  vehicle_id: Type.Integer(),
  status: Enum(TRIP_STATUSES),
  vendor_stop_ids: Type.Array(Type.String()),
});

export const DispatchV2 = Type.Object({
  ...dispatchOut,
  dispatch_trips: Type.Array(Type.Object({ dispatch_trip: TripOut })),
});

/** The dispatch locations a dispatch's stops name (./pages.ts loads them with its driver and vehicle). */
export const dispatchLocationIds = (v: DispatchView) => v.stops.map((s) => s.dispatch_location_id);

/** What a page of dispatches embeds: the client's ids of their locations, drivers and vehicles. */
export interface DispatchPage {
  locVendor: Map<number, string | null>;
  drivers: Map<number, UserSummaryRow>;
  vehicles: Map<number, VehicleSummaryRow>;
}

export function dispatchWire(
  v: DispatchView,
  { locVendor, drivers, vehicles: vehicleRows }: DispatchPage,
  version: 1 | 2,
) {
  const stop = (s: Stop, number: number) => ({
    id: s.id!,
    vendor_id: s.vendor_id,
    number,
    type: s.type,
    status: s.status,
    dispatch_location_id: s.dispatch_location_id,
    vendor_dispatch_location_id: locVendor.get(s.dispatch_location_id) ?? null,
    form_ids: s.form_ids,
    early_date: wireTime(s.early_date),
    late_date: wireTime(s.late_date),
    driver_load: s.driver_load,
    ...stopDetailsWire(s),
  });
  const end = (role: 'shipper' | 'consignee', s: Stop) => ({
    [`vendor_${role}_id`]: s.vendor_id,
    [`${role}_dispatch_location_id`]: s.dispatch_location_id,
    [`vendor_${role}_dispatch_location_id`]: locVendor.get(s.dispatch_location_id) ?? null,
    [`${role}_type`]: s.type,
    [`${role}_status`]: s.status,
    [`${role}_form_ids`]: s.form_ids,
    ...endDetailsWire(role, s),
  });
  const r = v.row;
  const driver = drivers.get(r.driver_id);
  const vehicle = vehicleRows.get(r.vehicle_id);
  const out: Record<string, unknown> = {
    id: r.id,
    vendor_id: r.vendor_id,
    status: v.status,
    driver_id: r.driver_id,
    vehicle_id: r.vehicle_id,
    auto_complete_forms: fromBool(r.auto_complete_forms),
    ...end('shipper', v.stops[0]),
    ...end('consignee', v.stops[v.stops.length - 1]),
    ...dispatchDetailsWire(r),
    driver: driver ? userSummary(driver) : null,
    vehicle: vehicle ? vehicleSummary(vehicle) : null,
    dispatch_stops: v.stops.slice(1, -1).map((s, i) => ({ dispatch_stop: stop(s, i + 1) })),
    created_at: wireTime(r.created_at)!,
    updated_at: wireTime(r.updated_at)!,
  };
  if (version === 2) {
    const statuses = tripStatuses(v.status, v.trips, new Map(v.stops.map((s) => [s.vendor_id, s.status])));
    out.dispatch_trips = v.trips.map((t, i) => ({
      dispatch_trip: {
        id: t.id!,
        vendor_id: t.vendor_id,
        driver_id: r.driver_id,
        vehicle_id: r.vehicle_id,
        status: statuses[i],
        vendor_stop_ids: t.stop_vendor_ids,
      },
    }));
  }
  return out;
}
