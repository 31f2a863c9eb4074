/**
 * The reads behind the HOS endpoints. Before answering, drivers whose stored result may have changed by
 * now without a new record (a limit reached while driving) are re-evaluated, so lists of violations and
 * logs are current; available time is always computed at the instant of the request.
 */
import type { Db } from '../../storage/db.js';
import { countOf } from '../../storage/query.js';
import { toIso } from '../../storage/values.js';
import type { Tenant } from '../tenant.js';
import { listUsers } from '../users/repository.js';
import { evaluateDrivers, refreshDue, type Evaluated } from './evaluation.js';
import { hosDrivers, type HosDriver } from './drivers.js';
import { logIds, logKeys, type LogKey, type LogQuery, type LogStatus } from './log-days.js';
import { logDetails, type LogDetail } from './logs.js';

export async function availableTime(
  db: Db,
  t: Tenant,
  driverIds: number[] | undefined,
  limit: number,
  offset: number,
  now: number,
): Promise<{ items: Evaluated[]; total: number }> {
  const f = driverIds ? { role: 'driver', ids: driverIds } : { role: 'driver', status: 'active' };
  const { rows, total } = await listUsers(db.kysely, t.companyId, f, limit, offset);
  const evaluated = await evaluateDrivers(
    db.kysely,
    t,
    rows.map((r) => r.id),
    now,
  );
  return { items: rows.map((r) => evaluated.get(r.id)!).filter(Boolean), total };
}

export interface ViolationFilters {
  driverIds?: number[];
  types?: string[];
  /** Inclusive lower and exclusive upper bound of start_time (epoch ms). */
  min: number;
  max: number;
}

export async function listViolations(
  db: Db,
  t: Tenant,
  f: ViolationFilters,
  limit: number,
  offset: number,
  now: number,
) {
  await refreshDue(db, t, now);
  let q = db.kysely
    .selectFrom('hos_violations')
    .where('company_id', '=', t.companyId)
    .where('withdrawn_at', 'is', null)
    .where('start_at', '>=', toIso(f.min))
    .where('start_at', '<', toIso(f.max));
  if (f.driverIds) q = q.where('driver_id', 'in', f.driverIds.length ? f.driverIds : [0]);
  if (f.types) q = q.where('type', 'in', f.types.length ? f.types : ['']);
  const [rows, total] = await Promise.all([
    q.selectAll().orderBy('start_at').orderBy('id').limit(limit).offset(offset).execute(),
    countOf(q.select('id')),
  ]);
  const drivers = await hosDrivers(db.kysely, t.companyId, [...new Set(rows.map((r) => r.driver_id))]);
  return { items: rows.map((r) => ({ row: r, driver: drivers.get(r.driver_id)! })).filter((x) => x.driver), total };
}

export interface LogPage {
  items: Array<{ id: number; meta: Record<string, unknown>; detail: LogDetail }>;
  total: number;
}

function matches(d: LogDetail, status: LogStatus): boolean {
  switch (status) {
    case 'all':
      return true;
    case 'hos':
      return d.violations.length > 0;
    case 'form_and_manner':
      return d.formAndManner.length > 0;
    case 'compliant':
      return d.violations.length === 0 && d.formAndManner.length === 0;
    case 'missing_dvirs':
      return d.missingDvir;
  }
}

/** A page of daily logs (also the rows of /v1/hours_of_service). */
export async function listLogs(
  db: Db,
  t: Tenant,
  q: LogQuery,
  status: LogStatus,
  limit: number,
  offset: number,
  now: number,
): Promise<LogPage> {
  await refreshDue(db, t, now);
  const keys = await logKeys(db.kysely, t, q, now);
  let page: LogDetail[];
  let total: number;
  if (status === 'all') {
    total = keys.length;
    page = await logDetails(db.kysely, t, keys.slice(offset, offset + limit), now);
  } else {
    const all: LogDetail[] = [];
    for (let i = 0; i < keys.length; i += 200)
      all.push(...(await logDetails(db.kysely, t, keys.slice(i, i + 200), now)));
    const kept = all.filter((d) => matches(d, status));
    total = kept.length;
    page = kept.slice(offset, offset + limit);
  }
  const ids = await logIds(
    db.kysely,
    t,
    page.map((d) => d.key),
  );
  return {
    items: page.map((detail) => {
      const x = ids.get(`${detail.key.driver.id}|${detail.key.date}`)!;
      return { id: x.id, meta: x.row, detail };
    }),
    total,
  };
}

export type { HosDriver, LogKey };
