/**
 * The time zone that forms the days of a request's date parameters: X-Time-Zone when the request sends
 * one, else the company's own zone (company-local days, docs/reference/wire.md §9).
 */
import type { Db } from '../../storage/db.js';
import { requestTimeZone, TIME_ZONES, type WithHeaders } from '../../core/time-zone.js';
import { companyTimeZone } from './service.js';

/** The zone of the request's days. */
export async function companyZone(req: WithHeaders, db: Db, companyId: number): Promise<string> {
  if (req.headers['x-time-zone']) return requestTimeZone(req);
  return (await companyTimeZone(db, companyId))?.zone ?? 'UTC';
}

/** The zone of the request's days and the name an IFTA answer sends back for it. */
export async function reportZone(
  req: WithHeaders,
  db: Db,
  companyId: number,
): Promise<{ zone: string; label: string }> {
  const raw = req.headers['x-time-zone'];
  const header = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (header) {
    const zone = requestTimeZone(req);
    return { zone, label: TIME_ZONES[header] || zone === header ? header : 'UTC' };
  }
  const c = await companyTimeZone(db, companyId);
  return c ? { zone: c.zone, label: c.name } : { zone: 'UTC', label: 'UTC' };
}
