/** The eld_device object of /v1/eld_devices (wire-format §4.11): the device and the vehicle it is bound to. */
import { Type } from 'typebox';
import type { Db } from '../storage/db.js';
import { VEHICLE_SUMMARY_COLUMNS, VehicleSummary, vehicleSummary } from './summaries.js';
import type { DeviceRow } from '../domain/devices/service.js';

export const EldDeviceItem = Type.Object({
  id: Type.Integer(),
  identifier: Type.String(),
  model: Type.String(),
  vehicle: VehicleSummary,
});

/** A page of devices on the wire, their vehicles loaded in one query. */
export async function eldDevicesWire(db: Db, companyId: number, rows: DeviceRow[]) {
  const ids = [...new Set(rows.map((d) => d.vehicle_id).filter((x): x is number => x !== null))];
  const vehicles = ids.length
    ? await db.kysely.selectFrom('vehicles').select([...VEHICLE_SUMMARY_COLUMNS]).where('company_id', '=', companyId).where('id', 'in', ids).execute()
    : [];
  const byId = new Map(vehicles.map((v) => [v.id, v]));
  return rows.map((d) => {
    // An ELD is always bound to a vehicle of its company (devices/service.ts).
    return { id: d.id, identifier: d.identifier, model: d.model, vehicle: vehicleSummary(byId.get(d.vehicle_id!)!) };
  });
}
