/**
 * The load details of a dispatch on the wire (domain/dispatch/details.ts): flat on the dispatch for
 * its ends (`shipper_refno`, `consignee_pallets`, …, `shipper_driver_load`, and the ends' dates as
 * `pickup_early_date`/`pickup_late_date` and `delivery_early_date`/`delivery_late_date`), plain on the
 * dispatch stops between (`refno`, `pallets`, …), and the dispatch's own (`additional_pickups`,
 * `additional_drops`, `pickup_number`, `loaded_miles`). docs/dispatch-states.md, "Load details". What a
 * request may send of them is the area's (src/domain/dispatch/input.ts), as are the ends' wire names
 * (`endName`).
 */
import type { TSchema } from 'typebox';
import { NBool, NDateTime, NInt, NNum, NStr } from './types.js';
import { wireTime } from '../storage/values.js';
import { DISPATCH_DETAILS, STOP_DETAILS, type DispatchDetails, type StopDetails } from '../domain/dispatch/details.js';
import type { Stop } from '../domain/dispatch/stops.js';
import { endName } from '../domain/dispatch/input.js';

type Role = 'shipper' | 'consignee';

const STOP_OUT: Record<keyof StopDetails, () => TSchema> = {
  bill_of_lading: NStr,
  refno: NStr,
  pallets: NInt,
  pieces: NInt,
  weight: NNum,
  volume: NNum,
  comments: NStr,
};
const DISPATCH_OUT: Record<keyof DispatchDetails, () => TSchema> = {
  additional_pickups: NInt,
  additional_drops: NInt,
  pickup_number: NStr,
  loaded_miles: NNum,
};

const map = <K extends string>(keys: readonly K[], f: (k: K) => [string, TSchema]) => Object.fromEntries(keys.map(f));

/** Response members. */
export const stopDetailsOut = () => map(STOP_DETAILS, (k) => [k, STOP_OUT[k]()]);
export const endDetailsOut = (role: Role) => ({
  ...map(STOP_DETAILS, (k) => [endName(role, k), STOP_OUT[k]()]),
  [endName(role, 'driver_load')]: NBool(),
  [endName(role, 'early_date')]: NDateTime(),
  [endName(role, 'late_date')]: NDateTime(),
});
export const dispatchDetailsOut = () => map(DISPATCH_DETAILS, (k) => [k, DISPATCH_OUT[k]()]);

/** Answers. */
export const stopDetailsWire = (s: Stop) => Object.fromEntries(STOP_DETAILS.map((k) => [k, s[k]]));
export const endDetailsWire = (role: Role, s: Stop) => ({
  ...Object.fromEntries(STOP_DETAILS.map((k) => [endName(role, k), s[k]])),
  [endName(role, 'driver_load')]: s.driver_load,
  [endName(role, 'early_date')]: wireTime(s.early_date),
  [endName(role, 'late_date')]: wireTime(s.late_date),
});
export const dispatchDetailsWire = (r: DispatchDetails) => Object.fromEntries(DISPATCH_DETAILS.map((k) => [k, r[k]]));
