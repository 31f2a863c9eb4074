/**
 * Shared by the telemetry wire mappers: embedded summaries loaded once per page, location-point ids,
 * the company-local time zone of date parameters, and unit conversion to the wire (mph, miles, gallons).
 */
import { Type } from 'typebox';
import type { Db } from '../storage/db.js';
import { userSummaryRows } from '../domain/users/summaries.js';
import { requestTimeZone, TIME_ZONES, type WithHeaders } from '../core/time-zone.js';
import { VEHICLE_SUMMARY_COLUMNS, userSummary, vehicleSummary, type VehicleSummaryRow } from './summaries.js';
export { pointId } from '../telemetry/point-id.js';

export const EldDeviceSummary = Type.Object({ id: Type.Integer(), identifier: Type.String(), model: Type.String() });

export interface Embeds {
  user(id: number | null | undefined): ReturnType<typeof userSummary> | null;
  vehicle(id: number): ReturnType<typeof vehicleSummary>;
  device(id: number | null | undefined): { id: number; identifier: string; model: string } | null;
}

/** Loads the users, vehicles and devices a page embeds, one query each. */
export async function loadEmbeds(db: Pick<Db, 'kysely'>, companyId: number, ids: { users?: Array<number | null>; vehicles?: number[]; devices?: Array<number | null> }): Promise<Embeds> {
  const vIds = [...new Set(ids.vehicles ?? [])];
  const dIds = [...new Set((ids.devices ?? []).filter((x): x is number => typeof x === 'number'))];
  const [users, vehicles, devices] = await Promise.all([
    userSummaryRows(db, companyId, ids.users ?? []),
    vIds.length
      ? db.kysely.selectFrom('vehicles').select([...VEHICLE_SUMMARY_COLUMNS]).where('company_id', '=', companyId).where('id', 'in', vIds).execute()
      : Promise.resolve([] as VehicleSummaryRow[]),
    dIds.length
      ? db.kysely.selectFrom('devices').select(['id', 'identifier', 'model']).where('company_id', '=', companyId).where('id', 'in', dIds).execute()
      : Promise.resolve([]),
  ]);
  const vById = new Map(vehicles.map((v) => [v.id, v]));
  const dById = new Map(devices.map((d) => [d.id, d]));
  return {
    user: (id) => {
      const u = id === null || id === undefined ? undefined : users.get(id);
      return u ? userSummary(u) : null;
    },
    vehicle: (id) => {
      const v = vById.get(id);
      return v ? vehicleSummary(v) : { id, number: '', year: null, make: null, model: null, vin: null, metric_units: false };
    },
    device: (id) => (id === null || id === undefined ? null : (dById.get(id) ?? null)),
  };
}

/**
 * The zone of date parameters: X-Time-Zone when the request sends one, else the company's time zone
 * (company-local days, wire-format §9).
 */
export async function companyZone(req: WithHeaders, db: Db, companyId: number): Promise<string> {
  if (req.headers['x-time-zone']) return requestTimeZone(req);
  const c = await db.kysely.selectFrom('companies').select('time_zone').where('id', '=', companyId).executeTakeFirst();
  return (c && TIME_ZONES[c.time_zone]) || 'UTC';
}

/** Wire units and their rounding, shared with the telemetry store (the current location rounds as the history). */
export { coord, gallons, miles, mph, roundOrNull as rounded } from '../telemetry/units.js';
