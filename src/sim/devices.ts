/**
 * The simulator's devices and drivers. Each simulated vehicle gets an ELD named `SIM-<company>-<vehicle>`,
 * provisioned through the devices service (a credential is shown only once, so a new run revokes the
 * previous run's device and provisions a fresh one). Vehicles with another live ELD are left alone, and
 * so are vehicles whose simulator ELD is in use: the server received its records within the last
 * SIM_IN_USE_S (another `fleet simulate`, or the demo server's own trucks). Revoking that credential
 * would stop the other simulator for good.
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
import { activeDriverIds } from '../domain/users/repository.js';
import { vehicleDrivers } from '../domain/vehicles/repository.js';
import { liveVehicleDevices } from '../domain/devices/live.js';
import { lastLocationRecord, lastReceived } from '../telemetry/queries/last-seen.js';

export const simIdentifier = (companyId: number, vehicleId: number) => `SIM-${companyId}-${vehicleId}`;

/**
 * A simulator sends at least every few wall seconds while it runs (one round a second; at speedup 1 a
 * truck at rest still reports every 60 s): an ELD silent for this long belongs to a run that ended.
 */
export const SIM_IN_USE_S = 180;

/** The vehicles (of `vehicleIds`) whose records the server received within SIM_IN_USE_S of `nowMs`. */
async function recentlyReporting(db: Db, t: Tenant, vehicleIds: number[], nowMs: number): Promise<Set<number>> {
  if (vehicleIds.length === 0) return new Set();
  const rows = await lastReceived(db, t.companyId, vehicleIds);
  const since = nowMs - SIM_IN_USE_S * 1000;
  return new Set(
    rows.filter((r) => r.vehicle_id !== null && Date.parse(r.last_received_at) > since).map((r) => r.vehicle_id!),
  );
}

export interface SimDeviceChoice {
  devices: SimDevice[];
  /** Vehicles left alone because another simulator is driving them now. */
  busy: number[];
}

export async function simDevices(db: Db, t: Tenant, count: number, nowMs = Date.now()): Promise<SimDeviceChoice> {
  const vehicles = await vehicleDrivers(db.kysely, t.companyId, { activeOnly: true });
  const live = await liveVehicleDevices(db.kysely, t.companyId);
  const drivers = (await activeDriverIds(db.kysely, t.companyId)).map((id) => ({ id }));
  const taken = new Set(
    vehicles.flatMap((v) => [v.permanent_driver_id, v.current_driver_id]).filter((x): x is number => x !== null),
  );
  const spare = drivers.map((d) => d.id).filter((id) => !taken.has(id));
  const simulated = live.filter((d) => d.identifier.startsWith('SIM-')).map((d) => d.vehicle_id!);
  const inUse = await recentlyReporting(db, t, simulated, nowMs);
  const out: SimDevice[] = [];
  const busy: number[] = [];
  for (const v of vehicles) {
    if (out.length >= count) break;
    const existing = live.find((d) => d.vehicle_id === v.id);
    if (existing && !existing.identifier.startsWith('SIM-')) continue;
    if (existing && inUse.has(v.id)) {
      busy.push(v.id);
      continue;
    }
    if (existing) await revokeDevice(db, t, existing.id);
    const device = await provisionDevice(db, t, {
      identifier: simIdentifier(t.companyId, v.id),
      vehicleId: v.id,
      model: 'sim-eld-1',
    });
    out.push({
      deviceId: device.id,
      vehicleId: v.id,
      driverId: v.permanent_driver_id ?? v.current_driver_id ?? spare.shift() ?? null,
      token: device.device_token,
      resume: await lastFix(db, v.id),
    });
  }
  return { devices: out, busy };
}

/**
 * Revokes the devices a run provisioned, when it stops cleanly: their credentials are not used again
 * (a new run provisions new ones), and the vehicles are at once free for the next run.
 */
export async function releaseSimDevices(db: Db, t: Tenant, devices: SimDevice[]): Promise<void> {
  for (const d of devices) await revokeDevice(db, t, d.deviceId).catch(() => {});
}

/** Where the vehicle was last seen, from its stored records (any device's): a new run goes on from there. */
async function lastFix(db: Db, vehicleId: number): Promise<SimResume | null> {
  const r = await lastLocationRecord(db, vehicleId);
  if (!r || r.lat === null || r.lon === null) return null;
  return {
    t: Date.parse(r.fix_time),
    lat: r.lat,
    lon: r.lon,
    place: r.description ?? `${r.lat.toFixed(4)}, ${r.lon.toFixed(4)}`,
    odometerKm: r.odometer_km,
    engineHours: r.engine_hours,
    fuelUsedL: r.fuel_used_l,
    fuelPct: r.fuel_level_pct,
  };
}

/** Demo data: a terminal geofence (3 km circle) around each of the simulator's 12 largest cities, so trucks cross them. */
export async function seedTelemetryDemo(db: Db, t: Tenant): Promise<void> {
  for (const c of simCities().slice(0, 12)) {
    await createGeofence(
      db,
      t,
      {
        name: `${c.name} terminal`,
        category: 'Terminal',
        address: `${c.name}, ${c.region}`,
        center: { lat: c.lat, lon: c.lon },
        radius_m: 3000,
      },
      { circularOnly: true },
    );
  }
}
