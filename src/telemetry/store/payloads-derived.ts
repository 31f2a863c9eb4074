/** Event data for derived telemetry objects (fault codes, performance events, geofence events), in wire units. */
import type { Selectable } from 'kysely';
import { fromJson, wireTime } from '../../storage/values.js';
import type { FaultCodesTable } from './tables.js';
import type { GeofenceEventRow, PerformanceRow, FaultRow } from '../processors/types.js';
import { faultText } from '../fault-dictionary.js';
import { KPHPS_PER_G, round } from '../units.js';

const wire = (t: number | null) => (t === null ? null : `${new Date(t).toISOString().slice(0, 19)}Z`);

export function faultPayload(saved: Selectable<FaultCodesTable>, row: FaultRow) {
  const text = faultText(saved);
  return {
    id: saved.id, vehicle_id: saved.vehicle_id, eld_device_id: saved.device_id, code: saved.code, ...text,
    source_address: saved.source_address, status: saved.status, first_observed_at: wireTime(saved.first_observed_at),
    last_observed_at: wireTime(saved.last_observed_at), closed_at: wire(row.closedAt), cleared: row.cleared, fmi: saved.fmi,
    occurrence_count: saved.occurrence_count, num_observations: saved.num_observations, lamps: fromJson(saved.lamps, null),
  };
}

/** "-10.3 kph/s" (wire-format §2.7). */
export const intensityText = (g: number | null) => (g === null ? null : `${round(g * KPHPS_PER_G, 1).toFixed(1)} kph/s`);

export function performancePayload(id: number, vehicleId: number, p: PerformanceRow, coachingStatus: string) {
  return {
    id, type: p.type, start_time: wire(p.start), end_time: wire(p.end), duration: (p.end - p.start) / 1000,
    start_speed: p.startSpeedKph, end_speed: p.endSpeedKph, max_speed: p.maxSpeedKph, start_bearing: p.startBearing,
    end_bearing: p.endBearing, acceleration: p.peakG, intensity: intensityText(p.peakG), lat: p.lat, lon: p.lon,
    location: p.location, coaching_status: coachingStatus, driver_id: p.driverId, vehicle_id: vehicleId, eld_device_id: p.deviceId,
  };
}

/** `vehicle_geofence_event` ({vehicle_id}) and `asset_geofence_event` ({asset_id}, no drivers): one shape. */
export function geofencePayload(id: number, owner: { vehicle_id: number } | { asset_id: number }, r: GeofenceEventRow, event: 'entered' | 'exited') {
  return {
    id, geofence_id: r.geofenceId, event, ...owner, start_time: wire(r.start), end_time: wire(r.end),
    duration: r.end === null ? null : Math.round((r.end - r.start) / 1000), start_driver_id: r.startDriverId, end_driver_id: r.endDriverId,
  };
}
