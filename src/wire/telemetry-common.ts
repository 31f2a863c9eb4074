/**
 * Shared by the telemetry wire mappers: embedded summaries loaded once per page, location-point ids,
 * the company-local time zone of date parameters, and unit conversion to the wire (mph, miles, gallons).
 */
import { Type } from 'typebox';
import type { Db } from '../storage/db.js';
import { requestTimeZone, type WithHeaders } from '../core/time-zone.js';
import { companyTimeZone } from '../domain/companies/service.js';
export { pointId } from '../telemetry/point-id.js';

export const EldDeviceSummary = Type.Object({ id: Type.Integer(), identifier: Type.String(), model: Type.String() });

/**
 * The zone of date parameters: X-Time-Zone when the request sends one, else the company's time zone
 * (company-local days, docs/reference/wire.md §9).
 */
export async function companyZone(req: WithHeaders, db: Db, companyId: number): Promise<string> {
  if (req.headers['x-time-zone']) return requestTimeZone(req);
  return (await companyTimeZone(db, companyId))?.zone ?? 'UTC';
}

/** Wire units and their rounding, shared with the telemetry store (the current location rounds as the history). */
export { coord, gallons, miles, mph, roundOrNull as rounded } from '../telemetry/units.js';
