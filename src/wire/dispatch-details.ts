/**
 * The load details of a dispatch on the wire (domain/dispatch/details.ts): flat on the dispatch for
 * its ends (`shipper_refno`, `consignee_pallets`, …, `shipper_driver_load`, and the ends' dates as
 * `pickup_early_date`/`pickup_late_date` and `delivery_early_date`/`delivery_late_date`), plain on the
 * dispatch stops between (`refno`, `pallets`, …), and the dispatch's own (`additional_pickups`,
 * `additional_drops`, `pickup_number`, `loaded_miles`). docs/dispatch-states.md, "Load details".
 */
import { Type, type TSchema } from 'typebox';
import { NBool, NDateTime, NInt, NNum, NStr } from './types.js';
import { toIso, wireTime } from '../storage/values.js';
import { DISPATCH_DETAILS, STOP_DETAILS, type DispatchDetails, type StopDetails } from '../domain/dispatch/details.js';
import type { EndStopInput, Stop } from '../domain/dispatch/stops.js';
import { Nullable } from '../core/schema.js';

type Role = 'shipper' | 'consignee';
const opt = Type.Optional;
const Count = () => Type.Integer({ minimum: 0, maximum: 2147483647 });
const Amount = () => Type.Number({ minimum: 0, maximum: 1e12 });
const Text = (maxLength: number) => Type.String({ maxLength });

/** The dates of the shipper and consignee stops carry the real API's pickup/delivery names. */
const DATES: Record<Role, string> = { shipper: 'pickup', consignee: 'delivery' };

const STOP_OUT: Record<keyof StopDetails, () => TSchema> = {
  bill_of_lading: NStr,
  refno: NStr,
  pallets: NInt,
  pieces: NInt,
  weight: NNum,
  volume: NNum,
  comments: NStr,
};
const STOP_IN: Record<keyof StopDetails, () => TSchema> = {
  bill_of_lading: () => Text(255),
  refno: () => Text(255),
  pallets: Count,
  pieces: Count,
  weight: Amount,
  volume: Amount,
  comments: () => Text(2000),
};
const DISPATCH_OUT: Record<keyof DispatchDetails, () => TSchema> = {
  additional_pickups: NInt,
  additional_drops: NInt,
  pickup_number: NStr,
  loaded_miles: NNum,
};
const DISPATCH_IN: Record<keyof DispatchDetails, () => TSchema> = {
  additional_pickups: Count,
  additional_drops: Count,
  pickup_number: () => Text(255),
  loaded_miles: Amount,
};

const map = <K extends string>(keys: readonly K[], f: (k: K) => [string, TSchema]) => Object.fromEntries(keys.map(f));

export const dateOf = (v: unknown) =>
  v === undefined || v === null ? (v as null | undefined) : toIso(new Date(String(v)));

/** Response members. */
export const stopDetailsOut = () => map(STOP_DETAILS, (k) => [k, STOP_OUT[k]()]);
export const endDetailsOut = (role: Role) => ({
  ...map(STOP_DETAILS, (k) => [`${role}_${k}`, STOP_OUT[k]()]),
  [`${role}_driver_load`]: NBool(),
  [`${DATES[role]}_early_date`]: NDateTime(),
  [`${DATES[role]}_late_date`]: NDateTime(),
});
export const dispatchDetailsOut = () => map(DISPATCH_DETAILS, (k) => [k, DISPATCH_OUT[k]()]);

/** Request members (all optional; null clears). */
export const stopDetailsIn = () => map(STOP_DETAILS, (k) => [k, opt(Nullable(STOP_IN[k]()))]);
export const endDetailsIn = (role: Role) => ({
  ...map(STOP_DETAILS, (k) => [`${role}_${k}`, opt(Nullable(STOP_IN[k]()))]),
  [`${role}_driver_load`]: opt(Nullable(Type.Boolean())),
  [`${DATES[role]}_early_date`]: opt(Nullable(Type.String({ format: 'date-time' }))),
  [`${DATES[role]}_late_date`]: opt(Nullable(Type.String({ format: 'date-time' }))),
});
export const dispatchDetailsIn = () => map(DISPATCH_DETAILS, (k) => [k, opt(Nullable(DISPATCH_IN[k]()))]);

/** What a body sends for one end, as stop input members. */
export function endDetailsInput(b: Record<string, unknown>, role: Role): Partial<EndStopInput> {
  const out: Record<string, unknown> = {};
  for (const k of STOP_DETAILS) if (b[`${role}_${k}`] !== undefined) out[k] = b[`${role}_${k}`];
  if (b[`${role}_driver_load`] !== undefined) out.driver_load = b[`${role}_driver_load`];
  for (const which of ['early', 'late'] as const) {
    const v = b[`${DATES[role]}_${which}_date`];
    if (v !== undefined) out[`${which}_date`] = dateOf(v);
  }
  return out;
}

export function dispatchDetailsInput(b: Record<string, unknown>): Partial<DispatchDetails> {
  return Object.fromEntries(DISPATCH_DETAILS.filter((k) => b[k] !== undefined).map((k) => [k, b[k]]));
}

/** Answers. */
export const stopDetailsWire = (s: Stop) => Object.fromEntries(STOP_DETAILS.map((k) => [k, s[k]]));
export const endDetailsWire = (role: Role, s: Stop) => ({
  ...Object.fromEntries(STOP_DETAILS.map((k) => [`${role}_${k}`, s[k]])),
  [`${role}_driver_load`]: s.driver_load,
  [`${DATES[role]}_early_date`]: wireTime(s.early_date),
  [`${DATES[role]}_late_date`]: wireTime(s.late_date),
});
export const dispatchDetailsWire = (r: DispatchDetails) => Object.fromEntries(DISPATCH_DETAILS.map((k) => [k, r[k]]));
