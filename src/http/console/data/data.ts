/**
 * What the fleet console reads, always through the company of the signed-in fleet user and, for a
 * fleet manager whose group visibility is "limited", only the vehicles and drivers of their groups.
 */
import type { Db } from '../../../storage/db.js';
import type { Tenant } from '../../../domain/tenant.js';
import { vehicleHistory } from '../../../telemetry/queries/locations.js';
import { listDispatches, type DispatchView } from '../../../domain/dispatch/service.js';
import { findByVendorId } from '../../../domain/dispatch/repository.js';
import { locationPlaces } from '../../../domain/dispatch/locations.js';
import { groupMatesOf } from '../../../domain/groups/membership.js';
import { notFound } from '../../../core/errors.js';
import { groupVisibility } from '../../../domain/users/refs.js';
import { userSummaryRows } from '../../../domain/users/summaries.js';
import { vehicleSummaryRows } from '../../../domain/vehicles/summaries.js';

export interface Viewer extends Tenant {
  userId: number;
  role: string;
  /** Vehicle and driver ids the viewer may see; null when they see the whole company. */
  vehicleIds: Set<number> | null;
  driverIds: Set<number> | null;
}

export async function viewerOf(db: Db, user: { id: number; company_id: number; role: string }): Promise<Viewer> {
  const base = { companyId: user.company_id, userId: user.id, role: user.role };
  const visibility = await groupVisibility(db.kysely, user.id);
  if (user.role !== 'fleet_user' || visibility !== 'limited') return { ...base, vehicleIds: null, driverIds: null };
  const mates = await groupMatesOf(db.kysely, user.company_id, user.id);
  if (!mates) return { ...base, vehicleIds: new Set(), driverIds: new Set() };
  return { ...base, vehicleIds: mates.vehicleIds, driverIds: mates.userIds };
}

const sees = (set: Set<number> | null, id: number | null) => set === null || (id !== null && set.has(id));

/** Today's (UTC) track of one visible vehicle as [lat, lon] pairs; 404 for a vehicle the viewer cannot see. */
export async function todaysTrack(
  db: Db,
  v: Viewer,
  vehicleId: number,
  now = new Date(),
): Promise<Array<[number, number]>> {
  if (!sees(v.vehicleIds, vehicleId)) throw notFound(`vehicle ${vehicleId}`);
  const start = new Date(`${now.toISOString().slice(0, 10)}T00:00:00Z`);
  const rows = await vehicleHistory(db, v, vehicleId, start, new Date(now.getTime() + 60_000));
  return rows.filter((r) => r.lat !== null && r.lon !== null).map((r) => [r.lat!, r.lon!]);
}

export interface BoardDispatch {
  id: number;
  vendor_id: string | null;
  status: string;
  driver: string;
  vehicle: string;
  stops: Array<{ vendor_id: string; type: string | null; status: string; place: string }>;
}

/** The visible dispatches of the company with names for their driver, vehicle and stop places. */
export async function boardDispatches(db: Db, v: Viewer): Promise<BoardDispatch[]> {
  const views: DispatchView[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = await listDispatches(db, v, {}, 500, offset);
    views.push(...page.views);
    if (views.length >= page.total || page.views.length === 0 || offset >= 5000) break;
  }
  const visible = views.filter(
    (d) => v.vehicleIds === null || sees(v.vehicleIds, d.row.vehicle_id) || sees(v.driverIds, d.row.driver_id),
  );
  const [users, vehicles, places] = await Promise.all([
    userSummaryRows(
      db,
      v.companyId,
      visible.map((d) => d.row.driver_id),
    ),
    vehicleSummaryRows(
      db,
      v.companyId,
      visible.map((d) => d.row.vehicle_id),
    ),
    locationPlaces(
      db.kysely,
      v.companyId,
      visible.flatMap((d) => d.stops.map((s) => s.dispatch_location_id)),
    ),
  ]);
  const user = new Map([...users.values()].map((u) => [u.id, `${u.first_name} ${u.last_name}`]));
  const vehicle = new Map([...vehicles.values()].map((x) => [x.id, x.number]));
  return visible.map((d) => ({
    id: d.row.id,
    vendor_id: d.row.vendor_id,
    status: d.status,
    driver: user.get(d.row.driver_id) ?? `driver ${d.row.driver_id}`,
    vehicle: vehicle.get(d.row.vehicle_id) ?? `vehicle ${d.row.vehicle_id}`,
    stops: d.stops.map((s) => ({
      vendor_id: s.vendor_id,
      type: s.type,
      status: s.status,
      place: places.get(s.dispatch_location_id) ?? '',
    })),
  }));
}

/** The visible dispatch named by vendor_id, or 404 — the same answer as a dispatch of another company. */
export async function assertDispatchVisible(db: Db, v: Viewer, vendorId: string): Promise<void> {
  const row = await findByVendorId(db.kysely, db.kind, v.companyId, vendorId, false);
  if (!row || !(v.vehicleIds === null || sees(v.vehicleIds, row.vehicle_id) || sees(v.driverIds, row.driver_id))) {
    throw notFound(`dispatch with vendor_id "${vendorId}"`);
  }
}
