/**
 * The fuel_purchase object (docs/reference/wire.md §4.25); its request body is the area's
 * (src/domain/fuel/input.ts).
 */
import { Type } from 'typebox';
import { wireTime } from '../storage/values.js';
import type { FuelPurchaseRow } from '../domain/fuel/service.js';
import { DateTime, NNum, NStr } from './types.js';
import { UserSummary, VehicleSummary } from './summaries.js';
import type { Embeds } from './embeds.js';
import type { ReceiptRow } from '../domain/documents/repository.js';
import { Nullable } from '../core/schema.js';

export const FuelPurchase = Type.Object({
  id: Type.Integer(),
  offline_id: NStr(),
  purchased_at: DateTime('When the fuel was bought'),
  jurisdiction: Type.String({ description: 'Two-letter US state, DC or Canadian province/territory code' }),
  fuel_type: NStr(),
  ref_no: NStr(),
  vendor: NStr(),
  total_cost: NNum(),
  currency: Type.String(),
  fuel: Type.Number({ description: 'Quantity bought, in fuel_unit' }),
  fuel_unit: Type.String(),
  odometer: NNum(),
  odometer_unit: NStr(),
  receipt_upload_url: NStr(),
  receipt_filename: NStr(),
  source: Type.String(),
  uploader: Nullable(UserSummary),
  vehicle: Nullable(VehicleSummary),
  driver: Nullable(UserSummary),
  created_at: DateTime(),
  updated_at: DateTime(),
});

/** What a page of fuel purchases embeds: users and vehicles, and the receipts' documents (./pages.ts). */
export interface FuelPurchasePage {
  embeds: Embeds;
  receipts: Map<number, ReceiptRow>;
  publicUrl: string;
}

export function fuelPurchaseWire(r: FuelPurchaseRow, { embeds: s, receipts: byId, publicUrl }: FuelPurchasePage) {
  const receipt = r.receipt_document_id === null ? undefined : byId.get(r.receipt_document_id);
  const stored = receipt?.status === 'completed';
  return {
    id: r.id,
    offline_id: r.offline_id,
    purchased_at: wireTime(r.purchased_at)!,
    jurisdiction: r.jurisdiction,
    fuel_type: r.fuel_type,
    ref_no: r.ref_no,
    vendor: r.vendor,
    total_cost: r.total_cost,
    currency: r.currency,
    fuel: r.fuel,
    fuel_unit: r.fuel_unit,
    odometer: r.odometer,
    odometer_unit: r.odometer_unit,
    receipt_upload_url: stored ? `${publicUrl}/v1/documents/${receipt.id}/download` : null,
    receipt_filename: stored ? receipt.file_name : null,
    source: r.source,
    uploader: s.user(r.uploader_id),
    vehicle: s.vehicle(r.vehicle_id),
    driver: s.user(r.driver_id),
    created_at: wireTime(r.created_at)!,
    updated_at: wireTime(r.updated_at)!,
  };
}
