/**
 * What a stored batch says about positions, written in the batch's transaction because it does not
 * depend on processing order:
 * - a vehicle's current location (vehicle_locations_latest) when the batch brings a newer fix;
 * - `vehicle_location_received` for every location record the batch stored, in fix-time order, and
 *   `vehicle_location_updated` when the current location moved, but each only while an enabled webhook
 *   of the company subscribes to it (docs/webhooks.md): nothing else reads them, and an event row per
 *   batch was a third of the pages a small batch writes on SQLite (docs/telemetry.md, Performance);
 * - an asset's positions (asset_locations).
 */
import { randomUUID } from 'node:crypto';
import type { CompiledQuery } from 'kysely';
import { recordEvent } from '../../events/outbox.js';
import { subscribedActions } from '../../events/webhooks/repository.js';
import type { DevicePrincipal } from '../../domain/devices/service.js';
import type { Db } from '../../storage/db.js';
import { pointId } from '../point-id.js';
import { coord, gallons, kphToMph, miles, mph, roundOrNull } from '../units.js';
import { locationPayload, type LatestRow } from './payloads.js';
import type { FreshRow } from './ingest.js';
import type { Trx } from './tx.js';
import { prepared } from '../../storage/prepared.js';

/** Asset positions keep mph to 0.01. */
const convert = (v: number | null | undefined, f: (x: number) => number) =>
  v === null || v === undefined ? null : Math.round(f(v) * 100) / 100;

const CHUNK = 500;

/**
 * A location record as the current-location read model and the location events show it: in wire units
 * rounded as the history shows the same point (vehicle-location.ts), so a point has one set of values.
 */
function latestOf(vehicleId: number, r: FreshRow): LatestRow {
  return {
    vehicle_id: vehicleId,
    id: pointId(r.id),
    located_at: r.fix_time,
    lat: coord(r.lat!),
    lon: coord(r.lon!),
    bearing: r.bearing_deg ?? null,
    speed: mph(r.speed_kph),
    description: r.description ?? null,
    odometer: miles(r.odometer_km),
    engine_hours: roundOrNull(r.engine_hours, 2),
    fuel: gallons(r.fuel_used_l),
    type: r.point_type ?? null,
    driver_id: r.driver_id ?? null,
  };
}

/**
 * `driver`: who is logged in on the device from `at` on, when the batch changed it. The current
 * location then names that driver (null after a logout, so the lists fall back to the vehicle's
 * assigned driver) unless a later fix is already there: a parked truck sends no further fix.
 *
 * With `defer` (PostgreSQL, and only when nothing else in the batch's transaction touches the current
 * location), the current-location upsert is returned instead of run, for the caller to send along with
 * the state row's update (storage/along.ts) — unless a webhook listens for `vehicle_location_updated`,
 * which needs to know at once whether the upsert wrote.
 */
export async function vehicleLocations(
  db: Db,
  trx: Trx,
  d: DevicePrincipal,
  fresh: FreshRow[],
  driver: { id: number | null; at: string } | null,
  defer = false,
): Promise<CompiledQuery | null> {
  const deferred = await currentLocation(db, trx, d, fresh, defer && !driver);
  if (driver) {
    await trx
      .updateTable('vehicle_locations_latest')
      .set({ driver_id: driver.id })
      .where('vehicle_id', '=', d.vehicleId!)
      .where('located_at', '<=', driver.at)
      .execute();
  }
  return deferred;
}

/**
 * Makes a fix the current location unless a newer one is already there, in one statement: the upsert
 * updates only when the stored fix is older, and returns a row only when it wrote (prepared once: it runs
 * for nearly every batch).
 */
const upsertLatest = prepared(
  (
    db,
    _kind,
    vehicleId: number,
    companyId: number,
    id: string,
    locatedAt: string,
    lat: number,
    lon: number,
    bearing: number | null,
    speed: number | null,
    description: string | null,
    odometer: number | null,
    engineHours: number | null,
    fuel: number | null,
    type: string | null,
    driverId: number | null,
    updatedAt: string,
  ) => {
    const values = {
      company_id: companyId,
      id,
      located_at: locatedAt,
      lat,
      lon,
      bearing,
      speed,
      description,
      odometer,
      engine_hours: engineHours,
      fuel,
      type,
      driver_id: driverId,
      updated_at: updatedAt,
    };
    return db
      .insertInto('vehicle_locations_latest')
      .values({ vehicle_id: vehicleId, ...values })
      .onConflict((oc) =>
        oc
          .column('vehicle_id')
          .doUpdateSet(values)
          .where('vehicle_locations_latest.located_at', '<', (eb) => eb.ref('excluded.located_at')),
      )
      .returning('vehicle_id');
  },
);

async function currentLocation(
  db: Db,
  trx: Trx,
  d: DevicePrincipal,
  fresh: FreshRow[],
  defer: boolean,
): Promise<CompiledQuery | null> {
  const vehicleId = d.vehicleId!;
  const fixes = fresh.filter((r) => r.type === 'location');
  if (fixes.length === 0) return null;
  const listened = await subscribedActions(db, trx, d.companyId);
  if (listened.has('vehicle_location_received')) {
    fixes.sort((a, b) => (a.fix_time < b.fix_time ? -1 : a.fix_time > b.fix_time ? 1 : a.id - b.id));
    await recordEvent(
      trx,
      fixes.map((r) => ({
        companyId: d.companyId,
        action: 'vehicle_location_received',
        subject: { type: 'vehicle', id: vehicleId },
        data: locationPayload(latestOf(vehicleId, r), r),
      })),
    );
  }
  let newest = fixes[0];
  for (const r of fixes) if (r.fix_time > newest.fix_time) newest = r;
  const l = latestOf(vehicleId, newest);
  const upsert = upsertLatest.compiled(
    trx,
    db.kind,
    vehicleId,
    d.companyId,
    l.id,
    l.located_at,
    l.lat,
    l.lon,
    l.bearing,
    l.speed,
    l.description,
    l.odometer,
    l.engine_hours,
    l.fuel,
    l.type,
    l.driver_id,
    newest.received_at,
  );
  const announce = listened.has('vehicle_location_updated');
  if (defer && !announce) return upsert;
  const wrote = await trx.executeQuery(upsert);
  if (wrote.rows.length === 0 || !announce) return null;
  await recordEvent(trx, {
    companyId: d.companyId,
    action: 'vehicle_location_updated',
    subject: { type: 'vehicle', id: vehicleId },
    data: locationPayload(l, newest),
  });
  return null;
}

export async function assetLocations(trx: Trx, d: DevicePrincipal, fresh: FreshRow[], now: string): Promise<void> {
  const rows = fresh
    .filter((r) => r.type === 'location')
    .map((r) => ({
      id: randomUUID(),
      company_id: d.companyId,
      asset_id: d.assetId!,
      located_at: r.fix_time,
      lat: r.lat!,
      lon: r.lon!,
      bearing: r.bearing_deg ?? null,
      speed: convert(r.speed_kph, kphToMph),
      description: r.description ?? null,
      battery_voltage: r.battery_v ?? null,
      created_at: now,
    }));
  for (let i = 0; i < rows.length; i += CHUNK)
    await trx
      .insertInto('asset_locations')
      .values(rows.slice(i, i + CHUNK))
      .execute();
}
