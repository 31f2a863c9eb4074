/**
 * The simulator's devices and drivers. Each simulated vehicle gets an ELD named `SIM-<company>-<vehicle>`,
 * provisioned through the devices service (a credential is shown only once, so a new run revokes the
 * previous run's device and provisions a fresh one). Vehicles with another live ELD are left alone.
 * Drivers: the vehicle's permanent or current driver, else a driver no other vehicle uses. A vehicle
 * with stored fixes resumes from its last one (SimResume).
 */
import type { Db } from '../storage/db.js';
import { provisionDevice, revokeDevice } from '../domain/devices/service.js';
import { createGeofence } from '../domain/geofences/service.js';
import type { Tenant } from '../domain/tenant.js';
import type { SimDevice } from './runner.js';
import { simCities } from './route.js';
import type { SimResume } from './vehicle.js';

export const simIdentifier = (companyId: number, vehicleId: number) => `SIM-${companyId}-${vehicleId}`;

export async function simDevices(db: Db, t: Tenant, count: number): Promise<SimDevice[]> {
  const vehicles = await db.kysely
    .selectFrom('vehicles')
    .select(['id', 'permanent_driver_id', 'current_driver_id'])
    .where('company_id', '=', t.companyId)
    .where('status', '=', 'active')
    .orderBy('id')
    .execute();
  const live = await db.kysely
    .selectFrom('devices')
    .select(['id', 'vehicle_id', 'identifier'])
    .where('company_id', '=', t.companyId)
    .where('revoked_at', 'is', null)
    .where('vehicle_id', 'is not', null)
    .execute();
  const drivers = await db.kysely
    .selectFrom('users')
    .select('id')
    .where('company_id', '=', t.companyId)
    .where('role', '=', 'driver')
    .where('status', '=', 'active')
    .orderBy('id')
    .execute();
  const taken = new Set(vehicles.flatMap((v) => [v.permanent_driver_id, v.current_driver_id]).filter((x): x is number => x !== null));
  const spare = drivers.map((d) => d.id).filter((id) => !taken.has(id));
  const out: SimDevice[] = [];
  for (const v of vehicles) {
    if (out.length >= count) break;
    const existing = live.find((d) => d.vehicle_id === v.id);
    if (existing && !existing.identifier.startsWith('SIM-')) continue;
    if (existing) await revokeDevice(db, t, existing.id);
    const device = await provisionDevice(db, t, { identifier: simIdentifier(t.companyId, v.id), vehicleId: v.id, model: 'sim-eld-1' });
    out.push({
      vehicleId: v.id, driverId: v.permanent_driver_id ?? v.current_driver_id ?? spare.shift() ?? null, token: device.device_token,
      resume: await lastFix(db, v.id),
    });
  }
  return out;
}

/** Where the vehicle was last seen, from its stored records (any device's): a new run goes on from there. */
async function lastFix(db: Db, vehicleId: number): Promise<SimResume | null> {
  const r = await db.kysely
    .selectFrom('telemetry_records')
    .select(['fix_time', 'lat', 'lon', 'description', 'odometer_km', 'engine_hours', 'fuel_used_l', 'fuel_level_pct'])
    .where('vehicle_id', '=', vehicleId)
    .where('type', '=', 'location')
    .orderBy('fix_time', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!r || r.lat === null || r.lon === null) return null;
  return {
    t: Date.parse(r.fix_time), lat: r.lat, lon: r.lon, place: r.description ?? `${r.lat.toFixed(4)}, ${r.lon.toFixed(4)}`,
    odometerKm: r.odometer_km, engineHours: r.engine_hours, fuelUsedL: r.fuel_used_l, fuelPct: r.fuel_level_pct,
  };
}

/** Demo data: a terminal geofence (3 km circle) around each of the simulator's 12 largest cities, so trucks cross them. */
export async function seedTelemetryDemo(db: Db, t: Tenant): Promise<void> {
  for (const c of simCities().slice(0, 12)) {
    await createGeofence(db, t, {
      name: `${c.name} terminal`, category: 'Terminal', address: `${c.name}, ${c.region}`,
      center: { lat: c.lat, lon: c.lon }, radius_m: 3000,
    }, { circularOnly: true });
  }
}
