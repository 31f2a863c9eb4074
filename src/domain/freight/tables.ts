/**
 * Kysely table types of freight visibility (docs/freight-visibility.md) and of the latest-location read
 * model it reads (migration 0005_assets_devices).
 */
import type { Generated } from 'kysely';

/** A carrier's consent: these vehicles are visible to one shipper or broker between starts_at and ends_at. */
export interface FreightSharesTable {
  id: Generated<number>;
  carrier_company_id: number;
  shipper_company_id: number;
  starts_at: string;
  ends_at: string;
  revoked_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface FreightShareVehiclesTable {
  share_id: number;
  carrier_company_id: number;
  vehicle_id: number;
}

/** A shipper's tracking subscription to one shared vehicle (tracking_subscription_id = id). */
export interface FreightSubscriptionsTable {
  id: Generated<number>;
  shipper_company_id: number;
  carrier_company_id: number;
  vehicle_id: number;
  start_time: string;
  end_time: string;
  load_id: string | null;
  load_details: string | null;
  cancelled_at: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * The latest known position of each vehicle: one row per vehicle, upserted by the telemetry pipeline
 * on every newer fix. Freight visibility reads it; nothing here writes it.
 */
export interface VehicleLocationsLatestTable {
  vehicle_id: number;
  company_id: number;
  id: string; // uuid of the location point
  located_at: string;
  lat: number;
  lon: number;
  bearing: number | null;
  speed: number | null;
  description: string | null;
  odometer: number | null;
  engine_hours: number | null;
  fuel: number | null;
  type: string | null;
  driver_id: number | null;
  updated_at: string;
}

export interface FreightTables {
  freight_shares: FreightSharesTable;
  freight_share_vehicles: FreightShareVehiclesTable;
  freight_subscriptions: FreightSubscriptionsTable;
  vehicle_locations_latest: VehicleLocationsLatestTable;
}
