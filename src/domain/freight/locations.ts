/**
 * What a shipper sees of shared vehicles: the live subscriptions with their vehicle's current location
 * and driver (`/v1/freight_visibility/vehicle_locations`), and a carrier's vehicles shared right now
 * (`/v1/freight_visibility/vehicle_association`). Locations come from the vehicle_locations_latest read
 * model, and only through ./visibility.ts: a fix outside the visible window is never returned.
 */
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../storage/db.js';
import { nowIso } from '../../storage/values.js';
import { countOf } from '../../storage/query.js';
import type { Tenant } from '../tenant.js';
import { activeCarrierVehicles } from '../vehicles/carriers.js';
import { vehiclesByIds } from '../vehicles/repository.js';
import type { VehicleLocationsLatestTable } from './tables.js';
import { resolveCarrier, type CarrierRef } from './parties.js';
import { sharesOfVehicles } from './shares.js';
import { distanceMi, fixVisible, visibleWindow } from './visibility.js';

export type LatestLocationRow = Selectable<VehicleLocationsLatestTable>;

async function latestOf(db: Db, vehicleIds: number[]): Promise<Map<number, LatestLocationRow>> {
  const out = new Map<number, LatestLocationRow>();
  if (vehicleIds.length === 0) return out;
  const rows = await db.kysely
    .selectFrom('vehicle_locations_latest')
    .selectAll()
    .where('vehicle_id', 'in', vehicleIds)
    .execute();
  for (const r of rows) out.set(r.vehicle_id, r);
  return out;
}

/** The caller's live subscriptions (paginated, id order), each with what may be shown of its vehicle. */
export async function liveVehicleLocations(db: Db, t: Tenant, limit: number, offset: number) {
  const now = nowIso();
  const base = db.kysely
    .selectFrom('freight_subscriptions as s')
    .where('s.shipper_company_id', '=', t.companyId)
    .where('s.cancelled_at', 'is', null)
    .where('s.start_time', '<=', now)
    .where('s.end_time', '>', now)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('freight_shares as sh')
          .innerJoin('freight_share_vehicles as sv', 'sv.share_id', 'sh.id')
          .select(sql`1`.as('one'))
          .whereRef('sh.shipper_company_id', '=', 's.shipper_company_id')
          .whereRef('sv.vehicle_id', '=', 's.vehicle_id')
          .where('sh.revoked_at', 'is', null)
          .where('sh.starts_at', '<=', now)
          .where('sh.ends_at', '>', now),
      ),
    );
  const [subs, total] = await Promise.all([
    base.selectAll('s').orderBy('s.id').limit(limit).offset(offset).execute(),
    countOf(base.select('s.id')),
  ]);
  const vehicleIds = [...new Set(subs.map((s) => s.vehicle_id))];
  const [vehicles, shares, latest] = await Promise.all([
    vehiclesByIds(db.kysely, vehicleIds),
    sharesOfVehicles(db, t.companyId, vehicleIds),
    latestOf(db, vehicleIds),
  ]);
  const byId = new Map(vehicles.map((v) => [v.id, v]));
  const nowMs = Date.parse(now);
  const rows = subs.map((s) => {
    const w = visibleWindow(
      s,
      shares.filter((sh) => sh.vehicle_id === s.vehicle_id),
      nowMs,
    );
    const fix = latest.get(s.vehicle_id);
    return {
      subscription: s,
      vehicle: byId.get(s.vehicle_id)!,
      location: fix && fixVisible(fix.located_at, w) ? fix : null,
    };
  });
  return { rows, total };
}

export interface AssociationQuery extends CarrierRef {
  lat?: number;
  lon?: number;
}

/**
 * A carrier's active vehicles in a share to the caller that is live now, nearest first when lat/lon are
 * given. The distance is known only for vehicles the caller has a live subscription to with a visible fix.
 */
export async function vehicleAssociation(db: Db, t: Tenant, q: AssociationQuery) {
  const now = nowIso();
  const nowMs = Date.parse(now);
  const carrier = await resolveCarrier(db, t.companyId, q, now);
  const vehicles = await activeCarrierVehicles(db.kysely, carrier.id)
    .where('id', 'in', (s) =>
      s
        .selectFrom('freight_share_vehicles as sv')
        .innerJoin('freight_shares as sh', 'sh.id', 'sv.share_id')
        .select('sv.vehicle_id')
        .where('sh.shipper_company_id', '=', t.companyId)
        .where('sh.carrier_company_id', '=', carrier.id)
        .where('sh.revoked_at', 'is', null)
        .where('sh.starts_at', '<=', now)
        .where('sh.ends_at', '>', now),
    )
    .orderBy('id')
    .execute();
  const ids = vehicles.map((v) => v.id);
  const [shares, latest, subs] = await Promise.all([
    sharesOfVehicles(db, t.companyId, ids),
    latestOf(db, ids),
    ids.length
      ? db.kysely
          .selectFrom('freight_subscriptions')
          .selectAll()
          .where('shipper_company_id', '=', t.companyId)
          .where('vehicle_id', 'in', ids)
          .where('cancelled_at', 'is', null)
          .execute()
      : Promise.resolve([]),
  ]);
  const rows = vehicles.map((v) => {
    const mine = shares.filter((sh) => sh.vehicle_id === v.id);
    const fix = latest.get(v.id);
    const visible =
      !!fix && subs.some((s) => s.vehicle_id === v.id && fixVisible(fix.located_at, visibleWindow(s, mine, nowMs)));
    const distance =
      visible && q.lat !== undefined && q.lon !== undefined ? distanceMi(q.lat, q.lon, fix!.lat, fix!.lon) : null;
    return { vehicle: v, distance_mi: distance === null ? null : Math.round(distance * 10) / 10 };
  });
  rows.sort((a, b) => (a.distance_mi ?? Infinity) - (b.distance_mi ?? Infinity) || a.vehicle.id - b.vehicle.id);
  return { carrier, rows };
}
