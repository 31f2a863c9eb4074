/**
 * Wire shapes of IFTA (docs/reference/wire.md §4.10): `ifta_trip` of /v1/ifta/trips and the reduced `ifta_trip`
 * of /v1/ifta/summary (jurisdiction, vehicle, distance, time_zone only), and the odometer calibration
 * object of /v1/ifta/odometer_calibrations. Distances and odometers are in miles, coordinates in
 * degrees; `time_zone` names the zone that formed the days (X-Time-Zone, else the company's zone).
 */
import { Type } from 'typebox';
import { kmToMi } from '../telemetry/units.js';
import { wireTime } from '../storage/values.js';
import { VehicleSummary } from './summaries.js';
import { DateTime, NNum, NStr } from './types.js';
import type { Embeds } from './embeds.js';
import type { SummaryRow, TripRow } from '../domain/ifta/reports.js';
import type { CalibrationRow } from '../domain/ifta/calibrations.js';
import { FROM_THE_START } from '../domain/ifta/calibrations.js';

export const IftaTrip = Type.Object({
  id: Type.Integer(),
  date: Type.String({ description: 'Local day (YYYY-MM-DD) in time_zone' }),
  jurisdiction: Type.String({ description: 'Two-letter state or province code' }),
  vehicle: VehicleSummary,
  start_odometer: NNum(),
  end_odometer: NNum(),
  calibrated_start_odometer: NNum(),
  calibrated_end_odometer: NNum(),
  start_lat: Type.Number(),
  start_lon: Type.Number(),
  end_lat: Type.Number(),
  end_lon: Type.Number(),
  distance: Type.Number({ description: 'Miles driven in the jurisdiction that day' }),
  time_zone: Type.String(),
});

export const IftaSummaryItem = Type.Object({
  jurisdiction: Type.String(),
  vehicle: VehicleSummary,
  distance: Type.Number({ description: 'Miles driven in the jurisdiction over the date range' }),
  time_zone: Type.String(),
});

export const OdometerCalibration = Type.Object({
  id: Type.Integer(),
  vehicle_id: Type.Integer(),
  effective_from: Type.Union([DateTime(), Type.Null()], {
    description: 'When the offset takes effect; null: from the start of the history',
  }),
  offset_km: Type.Number(),
  offset_mi: Type.Number(),
  note: NStr(),
  created_at: DateTime(),
  updated_at: DateTime(),
});

const r = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;
const mi = (km: number | null) => (km === null ? null : r(kmToMi(km), 2));
const deg = (x: number) => r(x, 6);

export function iftaTrip(row: TripRow, id: number, e: Embeds, timeZone: string) {
  return {
    id,
    date: row.date,
    jurisdiction: row.jurisdiction,
    vehicle: e.vehicleAlways(row.vehicleId),
    start_odometer: mi(row.startOdometerKm),
    end_odometer: mi(row.endOdometerKm),
    calibrated_start_odometer: mi(row.startCalibratedKm),
    calibrated_end_odometer: mi(row.endCalibratedKm),
    start_lat: deg(row.startLat),
    start_lon: deg(row.startLon),
    end_lat: deg(row.endLat),
    end_lon: deg(row.endLon),
    distance: mi(row.distanceKm)!,
    time_zone: timeZone,
  };
}

export function iftaSummaryItem(row: SummaryRow, e: Embeds, timeZone: string) {
  return {
    jurisdiction: row.jurisdiction,
    vehicle: e.vehicleAlways(row.vehicleId),
    distance: mi(row.distanceKm)!,
    time_zone: timeZone,
  };
}

export function odometerCalibration(c: CalibrationRow) {
  return {
    id: c.id,
    vehicle_id: c.vehicle_id,
    effective_from: c.effective_from === FROM_THE_START ? null : wireTime(c.effective_from),
    offset_km: r(c.offset_km, 3),
    offset_mi: r(kmToMi(c.offset_km), 3),
    note: c.note,
    created_at: wireTime(c.created_at)!,
    updated_at: wireTime(c.updated_at)!,
  };
}
