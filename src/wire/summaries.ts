/** Embedded summaries shared by many objects (docs/reference/wire.md §4.1). */
import { Type } from 'typebox';
import { NStr } from './types.js';
import { fromBool } from '../storage/values.js';
import { userSummaryFields, type UserSummaryRow } from '../domain/users/summaries.js';
import type { VehicleSummaryRow } from '../domain/vehicles/summaries.js';

export const UserSummary = Type.Object({
  id: Type.Integer(),
  first_name: Type.String(),
  last_name: Type.String(),
  username: NStr(),
  email: NStr(),
  driver_company_id: NStr(),
  status: Type.String(),
  role: Type.String(),
});

/** A user summary on the wire is its summary fields as they are. */
export function userSummary(u: UserSummaryRow): UserSummaryRow {
  return userSummaryFields(u);
}

export const VehicleSummary = Type.Object({
  id: Type.Integer(),
  number: Type.String(),
  year: NStr(),
  make: NStr(),
  model: NStr(),
  vin: NStr(),
  metric_units: Type.Boolean(),
});

export function vehicleSummary(v: VehicleSummaryRow) {
  return {
    id: v.id,
    number: v.number,
    year: v.year,
    make: v.make,
    model: v.model,
    vin: v.vin,
    metric_units: fromBool(v.metric_units),
  };
}

/**
 * The summary of a vehicle that is not (or no longer) in the company's fleet, for telemetry objects whose
 * schema requires a vehicle: its id, and empty values.
 */
export function unknownVehicle(id: number) {
  return { id, number: '', year: null, make: null, model: null, vin: null, metric_units: false };
}
