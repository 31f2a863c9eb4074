/**
 * Reads of derived telemetry, tenant-scoped, with the filters and sort orders of docs/reference/wire.md §3.7 and
 * §9: driving periods (start_time descending), idle events (end_time ascending, window overlap), fault
 * codes, driver performance events and geofence events (id ascending).
 */
import { sql } from 'kysely';
import type { Db } from '../../storage/db.js';
import { countOf } from '../../storage/query.js';
import type { Tenant } from '../../domain/tenant.js';

export interface Window {
  start: Date;
  end: Date;
}

export interface PeriodFilters {
  window: Window;
  driverIds?: number[];
  vehicleIds?: number[];
  assignedToDriver?: boolean;
}

export async function listDrivingPeriods(db: Db, t: Tenant, f: PeriodFilters, limit: number, offset: number) {
  let base = db.kysely
    .selectFrom('driving_periods')
    .where('company_id', '=', t.companyId)
    .where('start_time', '>=', f.window.start.toISOString())
    .where('start_time', '<', f.window.end.toISOString());
  if (f.driverIds?.length) base = base.where('driver_id', 'in', f.driverIds);
  if (f.vehicleIds?.length) base = base.where('vehicle_id', 'in', f.vehicleIds);
  if (f.assignedToDriver !== undefined) base = base.where('driver_id', f.assignedToDriver ? 'is not' : 'is', null);
  const [rows, total] = await Promise.all([
    base.selectAll().orderBy('start_time', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    countOf(base.select('id')),
  ]);
  return { rows, total };
}

/** Idle events overlapping the window; without PTO idling when `excludePto` (IDLE_EXCLUDE_PTO). */
export async function listIdleEvents(
  db: Db,
  t: Tenant,
  f: PeriodFilters & { excludePto?: boolean },
  limit: number,
  offset: number,
) {
  let base = db.kysely
    .selectFrom('idle_events')
    .where('company_id', '=', t.companyId)
    .where('start_time', '<', f.window.end.toISOString())
    .where('end_time', '>', f.window.start.toISOString());
  if (f.excludePto) base = base.where('pto', '=', 0);
  if (f.driverIds?.length) base = base.where('driver_id', 'in', f.driverIds);
  if (f.vehicleIds?.length) base = base.where('vehicle_id', 'in', f.vehicleIds);
  const [rows, total] = await Promise.all([
    base.selectAll().orderBy('end_time').orderBy('id').limit(limit).offset(offset).execute(),
    countOf(base.select('id')),
  ]);
  return { rows, total };
}

export interface FaultFilters {
  updatedAfter?: Date;
  vehicleIds?: number[];
  status?: string;
}

export async function listFaultCodes(db: Db, t: Tenant, f: FaultFilters, limit: number, offset: number) {
  let base = db.kysely.selectFrom('fault_codes').where('company_id', '=', t.companyId);
  if (f.updatedAfter) base = base.where('updated_at', '>', f.updatedAfter.toISOString());
  if (f.vehicleIds?.length) base = base.where('vehicle_id', 'in', f.vehicleIds);
  if (f.status) base = base.where('status', '=', f.status);
  const [rows, total] = await Promise.all([
    base.selectAll().orderBy('id').limit(limit).offset(offset).execute(),
    countOf(base.select('id')),
  ]);
  return { rows, total };
}

export interface EventFilters {
  window?: Window;
  updatedAfter?: Date;
  driverIds?: number[];
  vehicleIds?: number[];
  types?: string[];
  geofenceIds?: number[];
}

export async function listPerformanceEvents(db: Db, t: Tenant, f: EventFilters, limit: number, offset: number) {
  let base = db.kysely.selectFrom('driver_performance_events').where('company_id', '=', t.companyId);
  if (f.window)
    base = base
      .where('start_time', '>=', f.window.start.toISOString())
      .where('start_time', '<', f.window.end.toISOString());
  if (f.updatedAfter) base = base.where('updated_at', '>', f.updatedAfter.toISOString());
  if (f.driverIds?.length) base = base.where('driver_id', 'in', f.driverIds);
  if (f.vehicleIds?.length) base = base.where('vehicle_id', 'in', f.vehicleIds);
  if (f.types?.length) base = base.where('type', 'in', f.types);
  const [rows, total] = await Promise.all([
    base.selectAll().orderBy('id').limit(limit).offset(offset).execute(),
    countOf(base.select('id')),
  ]);
  return { rows, total };
}

export async function listGeofenceEvents(db: Db, t: Tenant, f: EventFilters, limit: number, offset: number) {
  let base = db.kysely.selectFrom('geofence_events').where('company_id', '=', t.companyId);
  if (f.window)
    base = base
      .where('start_time', '>=', f.window.start.toISOString())
      .where('start_time', '<', f.window.end.toISOString());
  if (f.updatedAfter) base = base.where('updated_at', '>', f.updatedAfter.toISOString());
  if (f.driverIds?.length) {
    const ids = f.driverIds;
    base = base.where((eb) => eb.or([eb('start_driver_id', 'in', ids), eb('end_driver_id', 'in', ids)]));
  }
  if (f.vehicleIds?.length) base = base.where('vehicle_id', 'in', f.vehicleIds);
  if (f.geofenceIds?.length) base = base.where('geofence_id', 'in', f.geofenceIds);
  const [rows, total] = await Promise.all([
    base.selectAll().orderBy('id').limit(limit).offset(offset).execute(),
    countOf(base.select('id')),
  ]);
  return { rows, total };
}

/**
 * Observations of each (vehicle, fault key) pair over all its fault code records of the company, keyed
 * `vehicle_id:fault_key`: what a fault code's `num_observations` shows. Empty without keys.
 */
export async function faultObservationTotals(
  db: Db,
  t: Tenant,
  vehicleIds: number[],
  keys: string[],
): Promise<Map<string, number>> {
  const sums = keys.length
    ? await db.kysely
        .selectFrom('fault_codes')
        .select(['vehicle_id', 'fault_key', sql<number>`sum(num_observations)`.as('n')])
        .where('company_id', '=', t.companyId)
        .where('fault_key', 'in', keys)
        .where('vehicle_id', 'in', vehicleIds)
        .groupBy(['vehicle_id', 'fault_key'])
        .execute()
    : [];
  return new Map(sums.map((s) => [`${s.vehicle_id}:${s.fault_key}`, Number(s.n)]));
}
