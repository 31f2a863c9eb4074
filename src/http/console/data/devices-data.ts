/**
 * What the devices pages read for the signed-in viewer, through the devices and vehicles areas: the
 * company's ELDs, phone trackers and asset gateways with the vehicle each reports for and when it was
 * last heard from, and the vehicles a device may be put on. A fleet manager whose group visibility is
 * "limited" sees and manages only the devices of their groups' vehicles (never asset gateways).
 */
import type { Db } from '../../../storage/db.js';
import { notFound } from '../../../core/errors.js';
import { getDevice, listDevices, type SeenDevice } from '../../../domain/devices/service.js';
import { listVehicles } from '../../../domain/vehicles/service.js';
import { companyTimeZone } from '../../../domain/companies/service.js';
import type { Viewer } from './data.js';

/** Devices listed on the page; `fleet device list` pages through more. */
export const DEVICES_SHOWN = 500;
/** Vehicles offered in a device's vehicle list; a bigger fleet assigns through `fleet device`. */
const VEHICLE_CHOICES = 2000;

export interface VehicleChoice {
  id: number;
  number: string;
  /** The live ELD already on it, if any. */
  deviceId: number | null;
}

export interface DeviceListRow {
  device: SeenDevice;
  /** The vehicle's number, for a device on a vehicle. */
  vehicle: string | null;
}

/** The company's IANA zone, in which the console writes times; UTC when it has none. */
export const zoneOf = async (db: Db, companyId: number) => (await companyTimeZone(db, companyId))?.zone ?? 'UTC';

const seesDevice = (v: Viewer, d: SeenDevice) =>
  v.vehicleIds === null || (d.vehicle_id !== null && v.vehicleIds.has(d.vehicle_id));

/** The viewer's vehicles (active first is no concern here: every status), in number order, with their ELD. */
export async function vehicleChoices(db: Db, v: Viewer): Promise<VehicleChoice[]> {
  const filters = v.vehicleIds === null ? {} : { ids: [...v.vehicleIds] };
  const [{ rows }, devices] = await Promise.all([
    listVehicles(db, v, filters, VEHICLE_CHOICES, 0),
    listDevices(db, v, {}, 100_000, 0),
  ]);
  const onVehicle = new Map(devices.rows.filter((d) => d.vehicle_id !== null).map((d) => [d.vehicle_id!, d.id]));
  return rows
    .map((r) => ({ id: r.id, number: r.number, deviceId: onVehicle.get(r.id) ?? null }))
    .sort((a, b) => a.number.localeCompare(b.number, 'en', { numeric: true }));
}

/** The devices the viewer may see (with `revoked`, the revoked ones too), with vehicle numbers. */
export async function deviceList(
  db: Db,
  v: Viewer,
  revoked: boolean,
): Promise<{ rows: DeviceListRow[]; total: number; zone: string }> {
  const [{ rows, total }, zone] = await Promise.all([
    listDevices(db, v, { revoked }, DEVICES_SHOWN, 0),
    zoneOf(db, v.companyId),
  ]);
  const visible = rows.filter((d) => seesDevice(v, d));
  const ids = [...new Set(visible.flatMap((d) => (d.vehicle_id === null ? [] : [d.vehicle_id])))];
  const numbers = ids.length
    ? new Map((await listVehicles(db, v, { ids }, ids.length, 0)).rows.map((r) => [r.id, r.number]))
    : new Map<number, string>();
  return {
    rows: visible.map((device) => ({
      device,
      vehicle: device.vehicle_id === null ? null : (numbers.get(device.vehicle_id) ?? `vehicle ${device.vehicle_id}`),
    })),
    total: v.vehicleIds === null ? total : visible.length,
    zone,
  };
}

/** A device the viewer may see, or 404 — the same answer as a device of another company. */
export async function visibleDevice(db: Db, v: Viewer, id: number): Promise<SeenDevice> {
  const d = await getDevice(db, v, id);
  if (!seesDevice(v, d)) throw notFound(`device ${id}`);
  return d;
}

/** A vehicle the viewer may put a device on, or 404. */
export function assertVehicleChoice(v: Viewer, vehicleId: number): void {
  if (v.vehicleIds !== null && !v.vehicleIds.has(vehicleId)) throw notFound(`vehicle ${vehicleId}`);
}
