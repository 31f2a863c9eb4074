/**
 * The batch loaders of the wire objects that embed other rows: each loads what a page of rows embeds,
 * one query per kind from the areas that own the rows (users, vehicles, devices, groups, documents,
 * dispatch locations), and maps every row with its object's mapper. The mappers (./asset.ts,
 * ./vehicle.ts …) are pure and synchronous; REST routes, webhook payloads and the CLI call these.
 */
import type { Db } from '../storage/db.js';
import { loadEmbeds } from './embeds.js';
import { uploaderRows, userSummaryRows } from '../domain/users/summaries.js';
import { vehicleSummaryRows } from '../domain/vehicles/summaries.js';
import { vehicleExternalIds, vehicleGroupIds } from '../domain/vehicles/service.js';
import { assetExternalIds, assetGroupIds, type AssetRow } from '../domain/assets/service.js';
import { boundDevices, type DeviceRow } from '../domain/devices/service.js';
import { reportDefects, reportExternalIds, type ReportRow } from '../domain/inspections/service.js';
import { receiptRows } from '../domain/documents/repository.js';
import type { DocumentRow } from '../domain/documents/service.js';
import type { FuelPurchaseRow } from '../domain/fuel/service.js';
import type { MessageRow } from '../domain/messages/service.js';
import { locationVendorIds } from '../domain/dispatch/locations.js';
import type { DispatchView } from '../domain/dispatch/service.js';
import { assetWire } from './asset.js';
import { vehicleWire, type VehicleWithIds } from './vehicle.js';
import { eldDeviceWire } from './eld-device.js';
import { inspectionReportWire } from './inspection-report.js';
import { documentWire } from './document.js';
import { fuelPurchaseWire } from './fuel-purchase.js';
import { messageEmbeds, messageWire } from './message.js';
import { dispatchLocationIds, dispatchWire } from './dispatch.js';

export async function vehiclesWire(db: Db, companyId: number, rows: VehicleWithIds[]) {
  const ids = rows.map((v) => v.id);
  const [users, groups, devices, external] = await Promise.all([
    userSummaryRows(
      db,
      companyId,
      rows.flatMap((v) => [v.permanent_driver_id, v.current_driver_id, v.availability_updated_by]),
    ),
    vehicleGroupIds(db, ids),
    boundDevices(db, 'vehicle_id', ids),
    // A webhook's snapshot carries its own external ids.
    vehicleExternalIds(
      db,
      rows.filter((v) => !v.external_ids).map((v) => v.id),
    ),
  ]);
  return rows.map((v) => vehicleWire(v, { users, groups, devices, external }));
}

export async function assetsWire(db: Db, companyId: number, rows: AssetRow[]) {
  const ids = rows.map((a) => a.id);
  const [groups, external, gateways, users] = await Promise.all([
    assetGroupIds(db, ids),
    assetExternalIds(db, ids),
    boundDevices(db, 'asset_id', ids),
    userSummaryRows(
      db,
      companyId,
      rows.map((a) => a.availability_updated_by),
    ),
  ]);
  return rows.map((a) => assetWire(a, { groups, external, gateways, users }));
}

export async function eldDevicesWire(db: Db, companyId: number, rows: DeviceRow[]) {
  const vehicles = await vehicleSummaryRows(
    db,
    companyId,
    rows.map((d) => d.vehicle_id),
  );
  return rows.map((d) => eldDeviceWire(d, vehicles));
}

export async function inspectionReportsWire(db: Db, companyId: number, rows: ReportRow[]) {
  const ids = rows.map((r) => r.id);
  const [defects, external, embeds] = await Promise.all([
    reportDefects(db, ids),
    reportExternalIds(db, ids),
    loadEmbeds(db, companyId, {
      users: rows.flatMap((r) => [r.driver_id, r.mechanic_id]),
      vehicles: rows.map((r) => r.vehicle_id),
    }),
  ]);
  return rows.map((r) => inspectionReportWire(r, { defects, external, embeds }));
}

export async function documentsWire(
  db: Db,
  companyId: number,
  publicUrl: string,
  rows: DocumentRow[],
  upload?: { id: number; token: string },
) {
  const [embeds, uploaders] = await Promise.all([
    loadEmbeds(db, companyId, { users: rows.map((d) => d.driver_id), vehicles: rows.map((d) => d.vehicle_id) }),
    uploaderRows(
      db,
      companyId,
      rows.map((d) => d.uploader_id),
    ),
  ]);
  return rows.map((d) => documentWire(d, { embeds, uploaders, publicUrl, upload }));
}

export async function fuelPurchasesWire(db: Db, companyId: number, publicUrl: string, rows: FuelPurchaseRow[]) {
  const [embeds, receipts] = await Promise.all([
    loadEmbeds(db, companyId, {
      users: rows.flatMap((r) => [r.uploader_id, r.driver_id]),
      vehicles: rows.map((r) => r.vehicle_id),
    }),
    receiptRows(
      db.kysely,
      companyId,
      rows.map((r) => r.receipt_document_id).filter((x): x is number => x !== null),
    ),
  ]);
  return rows.map((r) => fuelPurchaseWire(r, { embeds, receipts, publicUrl }));
}

export async function messagesWire(db: Db, companyId: number, rows: MessageRow[]) {
  const embeds = await loadEmbeds(db, companyId, { users: rows.flatMap(messageEmbeds) });
  return rows.map((m) => messageWire(m, embeds));
}

export async function dispatchesWire(db: Db, companyId: number, views: DispatchView[], version: 1 | 2) {
  const [locVendor, drivers, vehicles] = await Promise.all([
    locationVendorIds(db.kysely, views.flatMap(dispatchLocationIds)),
    userSummaryRows(
      db,
      companyId,
      views.map((v) => v.row.driver_id),
    ),
    vehicleSummaryRows(
      db,
      companyId,
      views.map((v) => v.row.vehicle_id),
    ),
  ]);
  return views.map((v) => dispatchWire(v, { locVendor, drivers, vehicles }, version));
}
