/** Embedded summaries shared by many objects (wire-format §4.1). */
import { Type } from 'typebox';
import { NStr } from './types.js';
import { fromBool } from '../storage/values.js';

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

export interface UserSummaryRow {
  id: number;
  first_name: string;
  last_name: string;
  username: string | null;
  email: string | null;
  driver_company_id: string | null;
  status: string;
  role: string;
}

export const USER_SUMMARY_COLUMNS = [
  'id',
  'first_name',
  'last_name',
  'username',
  'email',
  'driver_company_id',
  'status',
  'role',
] as const;

export function userSummary(u: UserSummaryRow) {
  return {
    id: u.id,
    first_name: u.first_name,
    last_name: u.last_name,
    username: u.username,
    email: u.email,
    driver_company_id: u.driver_company_id,
    status: u.status,
    role: u.role,
  };
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

export interface VehicleSummaryRow {
  id: number;
  number: string;
  year: string | null;
  make: string | null;
  model: string | null;
  vin: string | null;
  metric_units: number;
}

export const VEHICLE_SUMMARY_COLUMNS = ['id', 'number', 'year', 'make', 'model', 'vin', 'metric_units'] as const;

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
