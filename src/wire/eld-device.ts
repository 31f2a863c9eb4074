/** The eld_device object of /v1/eld_devices (docs/reference/wire.md §4.11): the device and the vehicle it is bound to. */
import { Type } from 'typebox';
import { VehicleSummary, vehicleSummary } from './summaries.js';
import type { VehicleSummaryRow } from '../domain/vehicles/summaries.js';
import type { DeviceRow } from '../domain/devices/service.js';

export const EldDeviceItem = Type.Object({
  id: Type.Integer(),
  identifier: Type.String(),
  model: Type.String(),
  vehicle: VehicleSummary,
});

/** A device and the vehicle it is bound to (the page's vehicles loaded by ./pages.ts). */
export function eldDeviceWire(d: DeviceRow, vehicles: Map<number, VehicleSummaryRow>) {
  // An ELD is always bound to a vehicle of its company (devices/service.ts).
  return { id: d.id, identifier: d.identifier, model: d.model, vehicle: vehicleSummary(vehicles.get(d.vehicle_id!)!) };
}
