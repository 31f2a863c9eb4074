/**
 * Which daily logs exist: one per driver and log day of the driver's home-terminal zone, from the day of
 * the driver's first duty-status record through today. Lists are ordered by date, then driver id, and
 * filtered by the `status` of docs/reference/wire.md §9 (all, compliant, hos, form_and_manner, missing_dvirs).
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { nowIso } from '../../storage/values.js';
import { validation } from '../../core/errors.js';
import type { Tenant } from '../tenant.js';
import { Days } from './engine/days.js';
import { hosDrivers, type HosDriver } from './drivers.js';
import { driversQuery } from '../users/repository.js';

type Trx = Kysely<Database>;

export const LOG_STATUSES = ['all', 'compliant', 'hos', 'form_and_manner', 'missing_dvirs'] as const;
export type LogStatus = (typeof LOG_STATUSES)[number];

export interface LogQuery {
  driverIds?: number[];
  /** Inclusive log days (YYYY-MM-DD) in each driver's home-terminal zone; default the last 7 days. */
  startDate?: string;
  endDate?: string;
}

export interface LogKey {
  driver: HosDriver;
  date: string;
  /** The log day's boundaries (epoch ms) in the driver's zone. */
  start: number;
  end: number;
}

export const DEFAULT_DAYS = 7;
const MAX_DAYS = 366;

function checkDate(field: string, v: string | undefined): void {
  if (v !== undefined && (!/^\d{4}-\d{2}-\d{2}$/.test(v) || Days.date(Days.number(v)) !== v))
    throw validation(field, `is not a valid date (${v})`);
}

/** Every log of the query, in list order. */
export async function logKeys(db: Trx, t: Tenant, q: LogQuery, now: number): Promise<LogKey[]> {
  checkDate('start_date', q.startDate);
  checkDate('end_date', q.endDate);
  if (q.startDate && q.endDate && q.endDate < q.startDate)
    throw validation('end_date', 'must not be before start_date');
  if (q.startDate && q.endDate && Days.number(q.endDate) - Days.number(q.startDate) >= MAX_DAYS)
    throw validation('end_date', `must be at most ${MAX_DAYS} days after start_date`);
  let ids = q.driverIds;
  if (!ids) {
    const rows = await driversQuery(db, t.companyId).select('id').execute();
    ids = rows.map((r) => r.id);
  }
  const drivers = await hosDrivers(db, t.companyId, ids);
  const first = new Map<number, number>();
  for (const part of chunk([...drivers.keys()], 500)) {
    const rows = await db
      .selectFrom('hos_events')
      .select(['driver_id', sql<string>`min(occurred_at)`.as('first')])
      .where('company_id', '=', t.companyId)
      .where('driver_id', 'in', part)
      .where('kind', '=', 'duty_status')
      .where('record_status', '=', 1)
      .groupBy('driver_id')
      .execute();
    for (const r of rows) first.set(r.driver_id, Date.parse(r.first));
  }
  const keys: LogKey[] = [];
  for (const d of drivers.values()) {
    const f = first.get(d.id);
    if (f === undefined) continue;
    const days = new Days(d.ruleset.zone, d.ruleset.dayStartHour);
    const today = days.dayOf(now);
    const end = Math.min(today, q.endDate ? Days.number(q.endDate) : today);
    const start = Math.max(
      days.dayOf(f),
      q.startDate ? Days.number(q.startDate) : (q.endDate ? Days.number(q.endDate) : today) - (DEFAULT_DAYS - 1),
    );
    for (let n = start; n <= end; n++)
      keys.push({ driver: d, date: Days.date(n), start: days.start(n), end: days.start(n + 1) });
  }
  return keys.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.driver.id - b.driver.id));
}

export function chunk<T>(xs: T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

/** The logs' ids (rows created on first use), keyed `driverId|date`. */
export async function logIds(
  db: Trx,
  t: Tenant,
  keys: LogKey[],
): Promise<Map<string, { id: number; row: Record<string, unknown> }>> {
  const out = new Map<string, { id: number; row: Record<string, unknown> }>();
  if (keys.length === 0) return out;
  const now = nowIso();
  const values = keys.map((k) => ({
    company_id: t.companyId,
    driver_id: k.driver.id,
    log_date: k.date,
    created_at: now,
    updated_at: now,
  }));
  for (const part of chunk(values, 200)) {
    await db
      .insertInto('hos_logs')
      .values(part)
      .onConflict((oc) => oc.columns(['driver_id', 'log_date']).doNothing())
      .execute();
  }
  const driverIds = [...new Set(keys.map((k) => k.driver.id))];
  const dates = [...new Set(keys.map((k) => k.date))];
  const rows = await db
    .selectFrom('hos_logs')
    .selectAll()
    .where('company_id', '=', t.companyId)
    .where('driver_id', 'in', driverIds)
    .where('log_date', 'in', dates)
    .execute();
  for (const r of rows) out.set(`${r.driver_id}|${r.log_date}`, { id: r.id, row: r });
  return out;
}
