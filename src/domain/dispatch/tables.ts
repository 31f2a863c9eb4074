/**
 * Kysely table types of the dispatch area (migration 0003_dispatch). Values follow storage/values.ts:
 * timestamps ISO text, booleans 0/1, JSON as text.
 */
import type { Generated } from 'kysely';

export interface DispatchLocationsTable {
  id: Generated<number>;
  company_id: number;
  vendor_id: string | null;
  name: string;
  address1: string;
  address2: string | null;
  city: string;
  state: string;
  zip: string | null;
  country: string;
  lat: number | null;
  lon: number | null;
  arrive_radius: number | null;
  depart_radius: number | null;
  phone: string | null;
  /** Set when deleted: the row stays so that past stops keep their location. */
  deleted_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface DispatchesTable {
  id: Generated<number>;
  company_id: number;
  vendor_id: string | null;
  status: string;
  driver_id: number;
  vehicle_id: number;
  auto_complete_forms: Generated<number>;
  /** Load details (migration 0021, domain/dispatch/details.ts). */
  additional_pickups: number | null;
  additional_drops: number | null;
  pickup_number: string | null;
  loaded_miles: number | null;
  activated_at: string | null;
  cancelled_at: string | null;
  completed_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface DispatchTripsTable {
  id: Generated<number>;
  company_id: number;
  dispatch_id: number;
  vendor_id: string;
  position: number;
  created_at: string;
  updated_at: string;
}

export interface DispatchStopsTable {
  id: Generated<number>;
  company_id: number;
  dispatch_id: number;
  trip_id: number | null;
  vendor_id: string;
  /** 1-based order within the dispatch: the first stop is the shipper, the last the consignee. */
  position: number;
  dispatch_location_id: number;
  type: string | null;
  status: Generated<string>;
  driver_load: number | null;
  early_date: string | null;
  late_date: string | null;
  form_ids: Generated<string>; // JSON array of form uuids
  /** Load details (migration 0021, domain/dispatch/details.ts). */
  bill_of_lading: string | null;
  refno: string | null;
  pallets: number | null;
  pieces: number | null;
  weight: number | null;
  volume: number | null;
  comments: string | null;
  departed_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface FormsTable {
  id: string; // uuid: the wire's form_id
  /** The wire's integer id (migration 0020). */
  seq: Generated<number>;
  company_id: number;
  name: string;
  title: string | null;
  available_for_driver: Generated<number>;
  version: Generated<number>;
  external_ids: Generated<string>; // JSON array of {external_id, integration_name}
  fields: Generated<string>; // JSON array of {name, label, type, required, position?, length?, default_value?}
  created_at: string;
  updated_at: string;
}

export interface FormEntriesTable {
  id: Generated<number>;
  company_id: number;
  form_id: string;
  form_version: number;
  dispatch_id: number | null;
  dispatch_stop_id: number | null;
  /** Snapshots of the vendor ids at submission, kept when the stop is later removed. */
  vendor_dispatch_id: string | null;
  vendor_stop_id: string | null;
  driver_id: number;
  vehicle_id: number | null;
  entry: string; // JSON object of answers
  submitted_at: string;
  created_at: string;
}

export interface DispatchTables {
  dispatch_locations: DispatchLocationsTable;
  dispatches: DispatchesTable;
  dispatch_trips: DispatchTripsTable;
  dispatch_stops: DispatchStopsTable;
  forms: FormsTable;
  form_entries: FormEntriesTable;
}
