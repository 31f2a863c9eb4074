/**
 * HTTP test set-up for IFTA: vehicles created through the API, each with a provisioned device, and
 * location records written straight into telemetry_records (the tests need fixed past dates, which the
 * device API refuses as too old); test/domain/ifta/http-trips.test.ts also goes through the device API.
 */
import assert from 'node:assert/strict';
import type { TestApp, TestCompany } from '../../helper.js';
import { createVehicle, uniq } from '../../http/fixtures.js';
import { provisionDevice } from '../../../src/domain/devices/service.js';
import { nowIso } from '../../../src/storage/values.js';
import type { Track } from '../../../src/domain/ifta/rules.js';
import { kmToMi } from '../../../src/telemetry/units.js';

export interface Unit {
  vehicle: any;
  deviceId: number;
  seq: number;
}

export async function unit(t: TestApp, fields: Record<string, unknown> = {}, as?: TestCompany): Promise<Unit> {
  const vehicle = await createVehicle(
    t,
    {
      make: 'Kenworth',
      model: 'T680',
      year: '2021',
      vin: `1XKYD49X0MJ${String(uniq()).slice(-6).padStart(6, '0')}`,
      ...fields,
    },
    as,
  );
  const device = await provisionDevice(
    t.db,
    { companyId: (as ?? t.company).id },
    { identifier: `IFTA-${uniq()}`, vehicleId: vehicle.id },
  );
  return { vehicle, deviceId: device.id, seq: 0 };
}

/**
 * Writes a track as location records of the unit's vehicle (odometer NaN → none; speed 90 km/h unless
 * the track has speeds, NaN → none; its accuracy and engine-off flags as the device API stores them).
 */
export async function store(t: TestApp, u: Unit, track: Track, as?: TestCompany): Promise<void> {
  const companyId = (as ?? t.company).id;
  const finite = (v: number | undefined) => (v !== undefined && Number.isFinite(v) ? v : null);
  const rows = [];
  for (let i = 0; i < track.n; i++) {
    const data: Record<string, unknown> = {};
    if (finite(track.accuracy?.[i]) !== null) data.accuracy_m = track.accuracy![i];
    if (track.engineOff?.[i]) data.ignition = false;
    rows.push({
      company_id: companyId,
      device_id: u.deviceId,
      channel: 0,
      seq: ++u.seq,
      vehicle_id: u.vehicle.id,
      type: 'location',
      fix_time: new Date(track.t[i]).toISOString(),
      received_at: nowIso(),
      lat: track.lat[i],
      lon: track.lon[i],
      speed_kph: track.speed ? finite(track.speed[i]) : 90,
      odometer_km: finite(track.odo[i]),
      data: Object.keys(data).length ? JSON.stringify(data) : null,
    });
  }
  for (let i = 0; i < rows.length; i += 200)
    await t.db.kysely
      .insertInto('telemetry_records')
      .values(rows.slice(i, i + 200))
      .execute();
}

export async function get(t: TestApp, url: string, headers: Record<string, string> = {}, as?: TestCompany) {
  const res = await t.call({ method: 'GET', url, headers, as });
  assert.equal(res.status, 200, `GET ${url}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The unwrapped items of an ifta_trips list. */
export const items = (body: any): any[] =>
  body.ifta_trips.map((w: any) => {
    assert.deepEqual(Object.keys(w), ['ifta_trip']);
    return w.ifta_trip;
  });

export const mi = (km: number) => kmToMi(km);
export const near = (got: number, want: number, rel = 0.005) =>
  assert.ok(Math.abs(got - want) <= Math.max(rel * Math.abs(want), 0.011), `${got} vs ${want}`);

export const TRIP_KEYS = [
  'id',
  'date',
  'jurisdiction',
  'vehicle',
  'start_odometer',
  'end_odometer',
  'calibrated_start_odometer',
  'calibrated_end_odometer',
  'start_lat',
  'start_lon',
  'end_lat',
  'end_lon',
  'distance',
  'time_zone',
];
export const SUMMARY_KEYS = ['jurisdiction', 'vehicle', 'distance', 'time_zone'];
