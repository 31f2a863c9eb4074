/** The eld_device object of /v1/eld_devices (docs/reference/wire.md §4.11): the device and the vehicle it is bound to. */
import { Type } from 'typebox';
import type { Db } from '../storage/db.js';
import { VehicleSummary, vehicleSummary } from './summaries.js';
import { vehicleSummaryRows } from '../domain/vehicles/summaries.js';
import type { DeviceRow } from '../domain/devices/service.js';

export const EldDeviceItem = Type.Object({
  id: Type.Integer(),
  identifier: Type.String(),
  model: Type.String(),
  vehicle: VehicleSummary,
});

/** A page of devices on the wire, their vehicles loaded in one query. */
export async function eldDevicesWire(db: Db, companyId: number, rows: DeviceRow[]) {
  const byId = await vehicleSummaryRows(
    db,
    companyId,
    rows.map((d) => d.vehicle_id),
  );
  return rows.map((d) => {
    // An ELD is always bound to a vehicle of its company (devices/service.ts).
    return { id: d.id, identifier: d.identifier, model: d.model, vehicle: vehicleSummary(byId.get(d.vehicle_id!)!) };
  });
}
