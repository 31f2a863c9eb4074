/**
 * Shared pieces of the asset, inspection report, ELD device and freight visibility tests: exact wire key
 * sets, and helpers that create records through the API where it has an endpoint, and through the same
 * domain services the telemetry pipeline will call where it has none (reports, devices, locations).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { TestApp, TestCompany } from '../helper.js';
import { uniq } from './fixtures.js';
import { createInspectionReport, type NewInspectionReport } from '../../src/domain/inspections/create.js';
import { provisionDevice } from '../../src/domain/devices/service.js';

export const ASSET_KEYS = [
  'id',
  'name',
  'status',
  'type',
  'custom_type',
  'vin',
  'make',
  'model',
  'year',
  'license_plate_state',
  'license_plate_number',
  'gvwr',
  'gawr',
  'length',
  'length_metric_units',
  'weight_metric_units',
  'axle',
  'leased',
  'notes',
  'group_ids',
  'asset_gateway',
  'availability_details',
  'external_ids',
];

export const REPORT_KEYS = [
  'id',
  'date',
  'time',
  'odometer',
  'carrier_name',
  'vehicle_number',
  'trailer_nums',
  'location',
  'city',
  'state',
  'status',
  'inspection_type',
  'mechanic_signed_at',
  'mechanic_signature_url',
  'driver_signed_at',
  'driver_signature_url',
  'defects',
  'vehicle',
  'mechanic',
  'driver',
  'log_id',
  'external_ids',
];

export const VEHICLE_SUMMARY_KEYS = ['id', 'number', 'year', 'make', 'model', 'vin', 'metric_units'];

export async function createAsset(t: TestApp, fields: Record<string, unknown> = {}, as?: TestCompany): Promise<any> {
  const res = await t.call({ method: 'POST', url: '/v1/assets', payload: { name: `A${uniq()}`, ...fields }, as });
  assert.equal(res.status, 201, `create asset: ${JSON.stringify(res.body)}`);
  return res.body.asset;
}

/** An inspection report as a driver's device submits it (through the domain service, as telemetry will). */
export async function submitReport(
  t: TestApp,
  fields: Partial<NewInspectionReport> & { driver_id: number; vehicle_id: number },
  as?: TestCompany,
) {
  const row = await createInspectionReport(
    t.db,
    { companyId: (as ?? t.company).id },
    {
      time: new Date(Date.now() - 3_600_000).toISOString(),
      ...fields,
    },
  );
  return row;
}

/** Provisions an ELD on a vehicle (the operator's `fleet device create`). */
export function provision(t: TestApp, vehicleId: number, identifier = `SN${uniq()}`, as?: TestCompany, model?: string) {
  return provisionDevice(t.db, { companyId: (as ?? t.company).id }, { identifier, vehicleId, model });
}

/** Stores a vehicle's latest fix, as the telemetry pipeline will. */
export async function setLatestLocation(
  t: TestApp,
  companyId: number,
  vehicleId: number,
  at: Date,
  lat = 41.25,
  lon = -95.99,
) {
  const row = {
    vehicle_id: vehicleId,
    company_id: companyId,
    id: randomUUID(),
    located_at: at.toISOString(),
    lat,
    lon,
    bearing: 90,
    speed: 55,
    description: '3.2 mi SE of Omaha, NE',
    odometer: 120000.5,
    engine_hours: 3100.2,
    fuel: 80,
    type: 'vehicle_moving',
    driver_id: null,
    updated_at: new Date().toISOString(),
  };
  await t.db.kysely.deleteFrom('vehicle_locations_latest').where('vehicle_id', '=', vehicleId).execute();
  await t.db.kysely.insertInto('vehicle_locations_latest').values(row).execute();
  return row;
}

/** Stores an asset fix, as the telemetry pipeline will. */
export async function addAssetLocation(
  t: TestApp,
  companyId: number,
  assetId: number,
  at: Date,
  lat = 39.1,
  lon = -94.6,
) {
  const row = {
    id: randomUUID(),
    company_id: companyId,
    asset_id: assetId,
    located_at: at.toISOString(),
    lat,
    lon,
    bearing: 180,
    speed: 0,
    description: 'Kansas City, MO',
    battery_voltage: 12.6,
    created_at: new Date().toISOString(),
  };
  await t.db.kysely.insertInto('asset_locations').values(row).execute();
  return row;
}

export const hoursFromNow = (h: number) => new Date(Date.now() + h * 3_600_000);
export const iso = (d: Date) => d.toISOString();
/** The wire form of an instant: whole seconds with Z. */
export const wire = (d: Date | string) => `${new Date(d).toISOString().slice(0, 19)}Z`;
