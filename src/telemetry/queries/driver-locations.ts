/**
 * Drivers' current locations, tenant-scoped: a page of the company's drivers, each with the vehicle
 * they are logged into (by its latest fix) and that fix, or else the vehicle naming them its current
 * driver and where that vehicle is (`GET /v1/driver_locations`).
 */
import type { Db } from '../../storage/db.js';
import { countOf } from '../../storage/query.js';
import type { Tenant } from '../../domain/tenant.js';
import type { LatestLocationRow } from '../../domain/freight/locations.js';
import { driversQuery } from '../../domain/users/repository.js';
import { vehiclesByIds, vehiclesDrivenBy } from '../../domain/vehicles/repository.js';

/** A page of the company's drivers with the vehicle each is logged into (by latest fix) and its fix. */
export async function driverLocations(
  db: Db,
  t: Tenant,
  driverIds: number[] | undefined,
  limit: number,
  offset: number,
) {
  const base = driversQuery(db.kysely, t.companyId, driverIds);
  const [users, total] = await Promise.all([
    base.selectAll().orderBy('id').limit(limit).offset(offset).execute(),
    countOf(base.select('id')),
  ]);
  const ids = users.map((u) => u.id);
  const [fixes, assigned] = ids.length
    ? await Promise.all([
        db.kysely
          .selectFrom('vehicle_locations_latest')
          .selectAll()
          .where('company_id', '=', t.companyId)
          .where('driver_id', 'in', ids)
          .execute(),
        vehiclesDrivenBy(db.kysely, t.companyId, ids),
      ])
    : [[], []];
  const fixOf = new Map<number, LatestLocationRow>();
  for (const f of fixes) {
    const was = fixOf.get(f.driver_id!);
    if (!was || f.located_at > was.located_at) fixOf.set(f.driver_id!, f);
  }
  const vehicleIds = [...new Set([...fixOf.values()].map((f) => f.vehicle_id))];
  // A driver logged in nowhere is shown with the vehicle naming them its current driver, and where that vehicle is.
  const fallback = assigned.filter((v) => !fixOf.has(v.current_driver_id!)).map((v) => v.id);
  const [vehicles, fallbackFixes] = await Promise.all([
    vehiclesByIds(db.kysely, vehicleIds),
    fallback.length
      ? db.kysely.selectFrom('vehicle_locations_latest').selectAll().where('vehicle_id', 'in', fallback).execute()
      : [],
  ]);
  const byId = new Map([...vehicles, ...assigned].map((v) => [v.id, v]));
  const fixOfVehicle = new Map(fallbackFixes.map((f) => [f.vehicle_id, f]));
  return {
    total,
    rows: users.map((u) => {
      const stamped = fixOf.get(u.id);
      if (stamped) return { user: u, fix: stamped, vehicle: byId.get(stamped.vehicle_id) ?? null };
      const vehicle = assigned.find((v) => v.current_driver_id === u.id) ?? null;
      return { user: u, fix: vehicle ? (fixOfVehicle.get(vehicle.id) ?? null) : null, vehicle };
    }),
  };
}
