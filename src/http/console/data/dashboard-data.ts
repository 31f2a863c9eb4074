/**
 * What the console's dashboard counts, for the viewer's company and only what the viewer may see, each
 * through the owner the matching page or API endpoint reads:
 * - vehicles by state: the map's fleet view (../views/fleet.ts), states and units as it computes them;
 * - drivers on duty and near a limit: the clocks of /v1/available_time and the HOS page
 *   (domain/hos/queries.ts), at the same instant;
 * - open fault codes: /v1/fault_codes' query (telemetry/queries/derived.ts);
 * - today's distance and idle share: /v2/vehicle_utilization's rollup (telemetry/queries/utilization.ts)
 *   over today's window in the company's time zone, as that endpoint computes a day.
 * Fault codes and utilization cover the active vehicles the fleet view shows, so every card speaks of
 * the same vehicles.
 */
import type { Db } from '../../../storage/db.js';
import { availableTime } from '../../../domain/hos/queries.js';
import { companyTimeZone } from '../../../domain/companies/service.js';
import { listFaultCodes } from '../../../telemetry/queries/derived.js';
import { vehicleUtilization } from '../../../telemetry/queries/utilization.js';
import { faultText } from '../../../telemetry/fault-dictionary.js';
import { dayWindow, localDate } from '../../../core/time-zone.js';
import { KM_PER_MI } from '../../../telemetry/units.js';
import { fleetView, type FleetState } from '../views/fleet.js';
import type { Viewer } from './data.js';

const H = 3_600_000;
/** A driver with less than this of drive, shift or cycle time left is near a limit. */
export const NEAR_LIMIT_MS = H;
/** Rows per owner call; ids per `in (…)` list. */
const PAGE = 1000;
/** Drivers per clock evaluation, as the HOS page reads them. */
const DRIVER_PAGE = 200;

export type LimitClock = 'drive' | 'shift' | 'cycle';

export interface Dashboard {
  /** The instant the figures are of (epoch ms). */
  at: number;
  /** The company's day: its date, the zone's name, and the local time of `at` (HH:MM). */
  day: { date: string; zone: string; time: string };
  vehicles: { total: number; byState: Record<FleetState, number> };
  drivers: {
    total: number;
    onDuty: number;
    /** Least time left first. */
    nearLimit: Array<{ id: number; name: string; clock: LimitClock; remainingMs: number }>;
  };
  faults: {
    open: number;
    /** The three most recently opened (first observed), newest first. */
    recent: Array<{ id: number; code: string; description: string; vehicle: string; since: string }>;
  };
  today: {
    /** In the company's distance unit. */
    distance: number;
    unit: 'mi' | 'km';
    drivingS: number;
    idleS: number;
  };
}

const chunks = <T>(xs: T[], n: number): T[][] =>
  Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, (i + 1) * n));

/** The clock closest to its limit; on a tie the one that binds (effective drive is the least of the three). */
function tightest(c: { driveMs: number; shiftMs: number; cycleMs: number }): [LimitClock, number] {
  const order: Array<[LimitClock, number]> = [
    ['cycle', c.cycleMs],
    ['shift', c.shiftMs],
    ['drive', c.driveMs],
  ];
  return order.reduce((best, x) => (x[1] < best[1] ? x : best));
}

async function drivers(db: Db, v: Viewer, now: number): Promise<Dashboard['drivers']> {
  const out: Dashboard['drivers'] = { total: 0, onDuty: 0, nearLimit: [] };
  if (v.driverIds !== null && v.driverIds.size === 0) return out;
  // As the HOS page: a limited manager's group members (drivers among them), else every active driver.
  const ids = v.driverIds === null ? undefined : [...v.driverIds];
  for (let offset = 0; ; offset += DRIVER_PAGE) {
    const { items, total } = await availableTime(db, v, ids, DRIVER_PAGE, offset, now);
    for (const { driver, evaluation } of items) {
      out.total++;
      // Driving or on duty (yard moves are on duty); oil-field waiting is not on duty (docs/hos.md).
      if (evaluation.status === 'D' || evaluation.status === 'ON') out.onDuty++;
      const [clock, remainingMs] = tightest(evaluation.clocks);
      if (remainingMs < NEAR_LIMIT_MS)
        out.nearLimit.push({ id: driver.id, name: `${driver.first_name} ${driver.last_name}`, clock, remainingMs });
    }
    if (offset + DRIVER_PAGE >= total || items.length === 0) break;
  }
  out.nearLimit.sort((a, b) => a.remainingMs - b.remainingMs || a.name.localeCompare(b.name));
  return out;
}

async function faults(db: Db, v: Viewer, numbers: Map<number, string>): Promise<Dashboard['faults']> {
  const rows = [];
  for (const vehicleIds of chunks([...numbers.keys()], PAGE)) {
    for (let offset = 0; ; offset += PAGE) {
      const page = await listFaultCodes(db, v, { vehicleIds, status: 'open' }, PAGE, offset);
      rows.push(...page.rows);
      if (page.rows.length < PAGE) break;
    }
  }
  const recent = rows
    .sort((a, b) => Date.parse(b.first_observed_at) - Date.parse(a.first_observed_at) || b.id - a.id)
    .slice(0, 3)
    .map((f) => {
      const text = faultText(f);
      return {
        id: f.id,
        code: text.code_label,
        description: text.code_description,
        vehicle: numbers.get(f.vehicle_id)!,
        since: f.first_observed_at,
      };
    });
  return { open: rows.length, recent };
}

async function today(
  db: Db,
  v: Viewer,
  vehicleIds: number[],
  window: { start: Date; end: Date },
  unit: 'mi' | 'km',
  excludePto: boolean,
): Promise<Dashboard['today']> {
  let km = 0;
  let drivingS = 0;
  let idleS = 0;
  for (const ids of chunks(vehicleIds, PAGE)) {
    const { rows } = await vehicleUtilization(db, v, window, ids, ids.length, 0, excludePto);
    for (const { totals } of rows) {
      km += totals.distance_km;
      drivingS += totals.driving_s;
      idleS += totals.idle_s;
    }
  }
  return { distance: unit === 'km' ? km : km / KM_PER_MI, unit, drivingS, idleS };
}

/** Everything the dashboard shows, at `now`. */
export async function dashboardData(
  db: Db,
  v: Viewer,
  opts: { offlineAfterMin: number; excludePto: boolean },
  now = Date.now(),
): Promise<Dashboard> {
  const [fleet, zone] = await Promise.all([
    fleetView(db, v, opts.offlineAfterMin, now),
    companyTimeZone(db, v.companyId),
  ]);
  const iana = zone?.zone ?? 'UTC';
  const date = localDate(now, iana);
  const byState: Record<FleetState, number> = { moving: 0, idling: 0, stopped: 0, offline: 0, never_reported: 0 };
  for (const x of fleet.vehicles) byState[x.state]++;
  const numbers = new Map(fleet.vehicles.map((x) => [x.id, x.number]));
  const [drv, flt, day] = await Promise.all([
    drivers(db, v, now),
    faults(db, v, numbers),
    today(db, v, [...numbers.keys()], dayWindow(date, date, iana), fleet.units.distance, opts.excludePto),
  ]);
  const time = new Intl.DateTimeFormat('en-GB', { timeZone: iana, hour: '2-digit', minute: '2-digit' }).format(now);
  return {
    at: now,
    day: { date, zone: zone?.name ?? 'UTC', time },
    vehicles: { total: fleet.vehicles.length, byState },
    drivers: drv,
    faults: flt,
    today: day,
  };
}
