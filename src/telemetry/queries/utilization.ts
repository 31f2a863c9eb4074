/**
 * Utilization over a window (docs/reference/wire.md §4.17, docs/reference/domain-rules.md §4.4): sums of the 15-minute buckets per
 * vehicle (every vehicle of the company is listed, zeros when idle) or per driver (every driver).
 * utilization % = driving_time / (driving_time + idle_time) × 100. With `excludePto` (IDLE_EXCLUDE_PTO)
 * idle time and idle fuel leave out what was idled with the power take-off engaged.
 */
import { sql } from 'kysely';
import type { Db } from '../../storage/db.js';
import { countOf } from '../../storage/query.js';
import type { Tenant } from '../../domain/tenant.js';
import type { Window } from './derived.js';
import { driversQuery } from '../../domain/users/repository.js';
import { vehiclesQuery } from '../../domain/vehicles/repository.js';

export interface Totals {
  driving_s: number;
  idle_s: number;
  driving_fuel_l: number;
  idle_fuel_l: number;
  distance_km: number;
}

const ZERO: Totals = { driving_s: 0, idle_s: 0, driving_fuel_l: 0, idle_fuel_l: 0, distance_km: 0 };

/** The summed columns of a group of buckets; idle without the PTO part when `excludePto`. */
const totalsColumns = (excludePto: boolean) => [
  sql<number>`sum(driving_s)`.as('driving_s'),
  (excludePto ? sql<number>`sum(idle_s - pto_idle_s)` : sql<number>`sum(idle_s)`).as('idle_s'),
  sql<number>`sum(driving_fuel_l)`.as('driving_fuel_l'),
  (excludePto ? sql<number>`sum(idle_fuel_l - pto_idle_fuel_l)` : sql<number>`sum(idle_fuel_l)`).as('idle_fuel_l'),
  sql<number>`sum(distance_km)`.as('distance_km'),
];

/** A row of those sums as numbers, whatever type the database answered them in. */
const totalsOf = (r: Record<keyof Totals, unknown>): Totals => ({
  driving_s: Number(r.driving_s),
  idle_s: Number(r.idle_s),
  driving_fuel_l: Number(r.driving_fuel_l),
  idle_fuel_l: Number(r.idle_fuel_l),
  distance_km: Number(r.distance_km),
});

async function sums(
  db: Db,
  t: Tenant,
  w: Window,
  by: 'vehicle_id' | 'driver_id',
  ids: number[],
  excludePto: boolean,
): Promise<Map<number, Totals>> {
  const out = new Map<number, Totals>();
  if (ids.length === 0) return out;
  const rows = await db.kysely
    .selectFrom('utilization_buckets')
    .select([by, ...totalsColumns(excludePto)])
    .where('company_id', '=', t.companyId)
    .where('bucket_start', '>=', w.start.toISOString())
    .where('bucket_start', '<', w.end.toISOString())
    .where(by, 'in', ids)
    .groupBy(by)
    .execute();
  for (const r of rows) {
    out.set(Number(r[by]), totalsOf(r));
  }
  return out;
}

export async function vehicleUtilization(
  db: Db,
  t: Tenant,
  w: Window,
  vehicleIds: number[] | undefined,
  limit: number,
  offset: number,
  excludePto = false,
) {
  const base = vehiclesQuery(db.kysely, t.companyId, { ids: vehicleIds });
  const [vehicles, total] = await Promise.all([
    base.selectAll().orderBy('id').limit(limit).offset(offset).execute(),
    countOf(base.select('id')),
  ]);
  const ids = vehicles.map((v) => v.id);
  const [totals, latest] = await Promise.all([
    sums(db, t, w, 'vehicle_id', ids, excludePto),
    ids.length
      ? db.kysely
          .selectFrom('vehicle_locations_latest')
          .select(['vehicle_id', 'located_at'])
          .where('vehicle_id', 'in', ids)
          .execute()
      : Promise.resolve([]),
  ]);
  const lastAt = new Map(latest.map((l) => [l.vehicle_id, l.located_at]));
  return {
    total,
    rows: vehicles.map((v) => ({
      vehicle: v,
      totals: totals.get(v.id) ?? ZERO,
      lastLocatedAt: lastAt.get(v.id) ?? null,
    })),
  };
}

export async function driverUtilization(
  db: Db,
  t: Tenant,
  w: Window,
  driverIds: number[] | undefined,
  limit: number,
  offset: number,
  excludePto = false,
) {
  const base = driversQuery(db.kysely, t.companyId, driverIds);
  const [drivers, total] = await Promise.all([
    base.selectAll().orderBy('id').limit(limit).offset(offset).execute(),
    countOf(base.select('id')),
  ]);
  const totals = await sums(
    db,
    t,
    w,
    'driver_id',
    drivers.map((d) => d.id),
    excludePto,
  );
  return { total, rows: drivers.map((d) => ({ driver: d, totals: totals.get(d.id) ?? ZERO })) };
}

export function utilizationPct(x: Totals): number {
  const on = x.driving_s + x.idle_s;
  return on === 0 ? 0 : Math.round((x.driving_s / on) * 10_000) / 100;
}

/**
 * The same sums per vehicle within each of `windows` (consecutive and ascending, such as the local days of
 * a report) in one query: each bucket counts in the window it starts in. Entry i holds window i's totals
 * by vehicle id, only vehicles with a bucket there.
 */
export async function vehicleUtilizationByWindow(
  db: Db,
  t: Tenant,
  windows: Window[],
  vehicleIds: number[],
  excludePto = false,
): Promise<Array<Map<number, Totals>>> {
  const out = windows.map(() => new Map<number, Totals>());
  if (windows.length === 0 || vehicleIds.length === 0) return out;
  const which = sql<number>`case ${sql.join(
    windows.map((w, i) => sql`when bucket_start < ${w.end.toISOString()} then ${sql.lit(i)}`),
    sql` `,
  )} end`;
  const rows = await db.kysely
    .selectFrom('utilization_buckets')
    .select(['vehicle_id', which.as('w'), ...totalsColumns(excludePto)])
    .where('company_id', '=', t.companyId)
    .where('bucket_start', '>=', windows[0].start.toISOString())
    .where('bucket_start', '<', windows[windows.length - 1].end.toISOString())
    .where('vehicle_id', 'in', vehicleIds)
    .groupBy(['vehicle_id', sql.ref('w')]) // the alias: the bound times of `which` would differ
    .execute();
  for (const r of rows) {
    out[Number(r.w)]?.set(Number(r.vehicle_id), totalsOf(r));
  }
  return out;
}
