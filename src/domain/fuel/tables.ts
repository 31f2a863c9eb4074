/** Kysely table types of fuel purchases (migration 0004_records). Values follow storage/values.ts. */
import type { Generated } from 'kysely';

export interface FuelPurchasesTable {
  id: Generated<number>;
  company_id: number;
  /** The client's own identifier of the purchase, unique in the company when set. */
  offline_id: string | null;
  purchased_at: string;
  /** Two-letter jurisdiction code (src/domain/jurisdictions.ts). */
  jurisdiction: string;
  fuel_type: string | null;
  ref_no: string | null;
  vendor: string | null;
  total_cost: number | null;
  currency: string;
  fuel: number;
  fuel_unit: string;
  odometer: number | null;
  odometer_unit: string | null;
  /** How the purchase was recorded: `api`, `driver` or `fuel_card` (docs/records.md). */
  source: string;
  vehicle_id: number | null;
  driver_id: number | null;
  /** The user who recorded it (the acting admin for API writes). */
  uploader_id: number | null;
  /** A document of the company holding the receipt. */
  receipt_document_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface FuelTables {
  fuel_purchases: FuelPurchasesTable;
}
