/**
 * What the reports page and its CSV downloads read: the report asked for, a range of the company's days
 * (at most 31, as /v1/driving_periods allows: end_date at most 30 days after start_date), and a vehicle
 * or group filter, checked against what the viewer may see. A fleet manager whose group visibility is
 * "limited" gets only their groups' vehicles and drivers, and chooses among their own groups only.
 * The tables themselves are built in ./reports-tables.ts from the owners the API reads.
 */
import type { Db } from '../../../storage/db.js';
import { fromBool } from '../../../storage/values.js';
import { addDays, localDate, TIME_ZONES } from '../../../core/time-zone.js';
import { companyTimeZone, getCompany } from '../../../domain/companies/service.js';
import { listVehicles, vehicleGroupIds } from '../../../domain/vehicles/service.js';
import { listUsers } from '../../../domain/users/repository.js';
import { dateRange } from '../../../wire/telemetry-dates.js';
import { assignableGroups, type GroupChoice } from './vehicles-data.js';
import { buildReport, type ReportTable } from '../views/reports-tables.js';
import type { Viewer } from './data.js';

export const REPORTS = [
  ['trips', 'Trips and stops'],
  ['idle', 'Idle time'],
  ['speeding', 'Speeding'],
  ['distance', 'Distance per vehicle'],
  ['utilization', 'Utilization per day'],
  ['drivers', 'Driver performance'],
] as const;
export type ReportName = (typeof REPORTS)[number][0];
export const isReport = (s: string): s is ReportName => REPORTS.some(([n]) => n === s);
export const reportTitle = (n: ReportName) => REPORTS.find(([k]) => k === n)![1];

/** The longest report in days, both ends included (the API's driving periods: end − start ≤ 30). */
export const MAX_DAYS = 31;
const DEFAULT_DAYS = 7;
/** The earliest day a report starts on, as the hours-of-service day picker. */
const FIRST_DAY = '2000-01-01';
/** More vehicles than a report's vehicle list offers; a larger fleet narrows by group. */
const MAX_VEHICLES = 5000;
const MAX_DRIVERS = 5000;

/** The query as given (strings from the URL), before checking. */
export interface ReportQueryText {
  report?: string;
  start_date?: string;
  end_date?: string;
  vehicle?: string;
  group?: string;
}

export interface ReportFilters {
  report: ReportName;
  startDate: string;
  endDate: string;
  vehicleId: number | null;
  groupId: number | null;
}

/** Whom a report covers: vehicle ids, and driver ids (undefined: every driver of the company). */
export interface ReportScope {
  vehicleIds: number[];
  driverIds: number[] | undefined;
}

export interface ReportContext {
  zone: { name: string; iana: string };
  metric: boolean;
  excludePto: boolean;
  window: { start: Date; end: Date };
  days: string[];
  filters: ReportFilters;
  /** When the report was read (epoch ms): trips still under way at that instant have no end yet. */
  now: number;
}

export interface ReportView {
  status: number;
  error?: string;
  zone: { name: string; iana: string };
  metric: boolean;
  today: string;
  filters: ReportFilters;
  vehicles: Array<{ id: number; number: string }>;
  groups: GroupChoice[];
  table: ReportTable | null;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (s: string) => DAY.test(s) && addDays(s, 0) === s;
const span = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / 86_400_000) + 1;

/** The filters of the query, or the first thing wrong with it (the page says it, with a 400). */
export function checkQuery(text: ReportQueryText, today: string): { filters: ReportFilters; error?: string } {
  const filters: ReportFilters = {
    report: 'distance',
    endDate: today,
    startDate: addDays(today, -(DEFAULT_DAYS - 1)),
    vehicleId: null,
    groupId: null,
  };
  const fail = (error: string) => ({ filters, error });
  if (text.report) {
    if (!isReport(text.report))
      return fail(`report must be one of ${REPORTS.map(([n]) => n).join(', ')} (got "${text.report}")`);
    filters.report = text.report;
  }
  const start = text.start_date?.trim() || undefined;
  const end = text.end_date?.trim() || undefined;
  for (const [key, day] of [
    ['start_date', start],
    ['end_date', end],
  ] as const) {
    if (day === undefined) continue;
    if (!isDay(day)) return fail(`${key} must be a day written YYYY-MM-DD (got "${day}")`);
    if (day > today) return fail(`${key} must not be after today (${today})`);
    if (day < FIRST_DAY) return fail(`${key} must not be before ${FIRST_DAY}`);
  }
  // One end given: the range runs the default length from it, as the API's windows do.
  filters.endDate = end ?? (start ? min(addDays(start, DEFAULT_DAYS - 1), today) : today);
  filters.startDate = start ?? addDays(filters.endDate, -(DEFAULT_DAYS - 1));
  if (filters.endDate < filters.startDate) return fail('end_date must not be before start_date');
  const days = span(filters.startDate, filters.endDate);
  if (days > MAX_DAYS)
    return fail(
      `A report covers at most ${MAX_DAYS} days; ${filters.startDate} to ${filters.endDate} is ${days} days.`,
    );
  for (const key of ['vehicle', 'group'] as const) {
    const raw = text[key]?.trim();
    if (!raw) continue;
    if (!/^\d{1,12}$/.test(raw)) return fail(`${key} must be a ${key} id (got "${raw}")`);
    filters[key === 'vehicle' ? 'vehicleId' : 'groupId'] = Number(raw);
  }
  return { filters };
}
const min = (a: string, b: string) => (a < b ? a : b);

/** The viewer's vehicles (by number) and groups, and the vehicles and drivers the filters leave. */
async function scopeOf(db: Db, v: Viewer, f: ReportFilters) {
  const ids = v.vehicleIds === null ? undefined : [...v.vehicleIds];
  const [{ rows }, groups] = await Promise.all([
    listVehicles(db, v, ids ? { ids } : {}, MAX_VEHICLES, 0),
    assignableGroups(db, v),
  ]);
  const vehicles = rows
    .map((r) => ({ id: r.id, number: r.number }))
    .sort((a, b) => a.number.localeCompare(b.number, 'en', { numeric: true }) || a.id - b.id);
  let vehicleIds = vehicles.map((x) => x.id);
  let driverIds = v.driverIds === null ? undefined : [...v.driverIds];
  let error: string | undefined;
  if (f.groupId !== null) {
    if (!groups.some((g) => g.id === f.groupId)) error = `group ${f.groupId} is not one of your groups`;
    else {
      const memberships = await vehicleGroupIds(db, vehicleIds);
      vehicleIds = vehicleIds.filter((id) => memberships.get(id)?.includes(f.groupId!));
      const members = await listUsers(db.kysely, v.companyId, { role: 'driver', group_id: f.groupId }, MAX_DRIVERS, 0);
      const mine = members.rows.map((u) => u.id);
      driverIds = driverIds === undefined ? mine : mine.filter((id) => v.driverIds!.has(id));
    }
  }
  if (!error && f.vehicleId !== null) {
    if (!vehicles.some((x) => x.id === f.vehicleId)) error = `vehicle ${f.vehicleId} is not one of your vehicles`;
    else if (!vehicleIds.includes(f.vehicleId)) error = `vehicle ${f.vehicleId} is not in group ${f.groupId}`;
    else vehicleIds = [f.vehicleId];
  }
  return { vehicles, groups, scope: { vehicleIds, driverIds } as ReportScope, error };
}

/** Everything the page shows, or the CSV holds, for the query. */
export async function reportView(
  db: Db,
  v: Viewer,
  text: ReportQueryText,
  opts: { excludePto: boolean },
  now = Date.now(),
): Promise<ReportView> {
  const [tz, company] = await Promise.all([companyTimeZone(db, v.companyId), getCompany(db, v.companyId)]);
  const zone = tz ? { name: tz.name, iana: tz.zone } : { name: 'UTC', iana: TIME_ZONES.UTC };
  const today = localDate(now, zone.iana);
  const metric = fromBool(company.metric_units);
  const { filters, error } = checkQuery(text, today);
  const view: ReportView = { status: 200, zone, metric, today, filters, vehicles: [], groups: [], table: null };
  if (error) return { ...view, status: 400, error };
  const s = await scopeOf(db, v, filters);
  Object.assign(view, { vehicles: s.vehicles, groups: s.groups });
  if (s.error) return { ...view, status: 400, error: s.error };
  const days = Array.from({ length: span(filters.startDate, filters.endDate) }, (_, i) =>
    addDays(filters.startDate, i),
  );
  const ctx: ReportContext = {
    zone,
    metric,
    excludePto: opts.excludePto,
    window: dateRange({ start_date: filters.startDate, end_date: filters.endDate }, zone.iana, {
      defaultDays: DEFAULT_DAYS,
      maxDays: MAX_DAYS - 1,
    }),
    days,
    filters,
    now,
  };
  const numbers = new Map(s.vehicles.map((x) => [x.id, x.number]));
  const built = await buildReport(db, v, { ...ctx, numbers }, s.scope);
  if ('error' in built) return { ...view, status: 400, error: built.error };
  return { ...view, table: built };
}
