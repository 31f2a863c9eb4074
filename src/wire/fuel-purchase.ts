/** The fuel_purchase object and its request body (docs/reference/wire.md §4.25). */
import { Type } from 'typebox';
import { wireTime } from '../storage/values.js';
import type { FuelPurchaseRow } from '../domain/fuel/service.js';
import { FUEL_SOURCES, FUEL_TYPES, FUEL_UNITS, ODOMETER_UNITS } from '../domain/fuel/fields.js';
import { DateTime, NNum, NStr } from './types.js';
import { UserSummary, VehicleSummary } from './summaries.js';
import type { Embeds } from './embeds.js';
import type { ReceiptRow } from '../domain/documents/repository.js';
import { Id } from '../core/ids.js';
import { Nullable, Moment } from '../core/schema.js';

const opt = Type.Optional;
const Enum = (values: readonly string[], description?: string) => Type.String({ enum: [...values], description });
const Text = (maxLength = 255) => Nullable(Type.String({ maxLength }));

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

export const FuelPurchaseBody = Type.Object({
  offline_id: opt(
    Nullable(
      Type.String({ maxLength: 255, description: "The client's own id of the purchase, unique in the company" }),
    ),
  ),
  purchased_at: opt(Moment('A day (YYYY-MM-DD, read in X-Time-Zone) or a datetime with its offset')),
  jurisdiction: opt(Type.String({ maxLength: 8, description: 'e.g. "TX", "ON"' })),
  fuel_type: opt(Nullable(Enum(FUEL_TYPES))),
  ref_no: opt(Text()),
  vendor: opt(Text()),
  total_cost: opt(Nullable(Type.Number({ minimum: 0 }))),
  currency: opt(Type.String({ pattern: '^[A-Za-z]{3}$', description: 'ISO 4217 code; default USD' })),
  fuel: opt(Type.Number({ description: 'Quantity bought, in fuel_unit; greater than 0' })),
  fuel_unit: opt(Enum(FUEL_UNITS, 'gal (default) or l')),
  odometer: opt(Nullable(Type.Number({ minimum: 0 }))),
  odometer_unit: opt(Nullable(Enum(ODOMETER_UNITS, 'mi (default) or km'))),
  source: opt(Enum(FUEL_SOURCES, 'How the purchase was recorded; default api')),
  vehicle_id: opt(Nullable(Id())),
  driver_id: opt(Nullable(Id())),
  receipt_document_id: opt(Nullable(Id('A document of the company holding the receipt'))),
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
