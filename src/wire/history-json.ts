/**
 * The unpaginated history answers (`/v1/vehicle_locations/:id`, `/v3/vehicle_locations/:id`) written
 * straight to JSON text: a vehicle-day is 8,640 points, and building an object per point for the
 * schema serializer costs more than the query. The keys and values are exactly those of
 * historyPointV1 / historyPointV3 (./vehicle-location.ts), which stay the documented schema; a test
 * compares both.
 */
import { wireTime } from '../storage/values.js';
import type { HistoryRow } from '../telemetry/queries/locations.js';
import { coord, gallons, miles, mph, pointId, rounded } from './telemetry-common.js';
import { type Embeds } from './embeds.js';

const num = (x: number | null) => (x === null ? 'null' : String(x));
const str = (x: string | null) => (x === null ? 'null' : JSON.stringify(x));

function cached<K>(f: (k: K) => string): (k: K) => string {
  const m = new Map<K, string>();
  return (k) => {
    let v = m.get(k);
    if (v === undefined) {
      v = f(k);
      m.set(k, v);
    }
    return v;
  };
}

export function historyJsonV1(rows: HistoryRow[], e: Embeds): string {
  const driver = cached((id: number | null) => JSON.stringify(e.user(id)));
  const parts = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    parts[i] =
      `{"vehicle_location":{"id":"${pointId(r.id)}","located_at":"${wireTime(r.fix_time)}","lat":${coord(r.lat!)},"lon":${coord(r.lon!)},` +
      `"bearing":${num(r.bearing_deg)},"engine_hours":${num(rounded(r.engine_hours, 2))},"type":${str(r.point_type)},` +
      `"description":${str(r.description)},"speed":${num(mph(r.speed_kph))},"odometer":${num(miles(r.odometer_km))},` +
      `"fuel":${num(gallons(r.fuel_used_l))},"driver":${driver(r.driver_id)}}}`;
  }
  return `{"vehicle_locations":[${parts.join(',')}]}`;
}

/** What closes each v1 history point of the stored text, by driver id (null: no driver, always there). */
export function historyTailsV1(driverIds: Array<number | null>, e: Embeds): Map<number | null, string> {
  return new Map([null, ...driverIds].map((id) => [id, `,"driver":${JSON.stringify(e.user(id))}}}`]));
}

/**
 * The points of the v3 answer, comma-separated: `/v3/vehicle_locations/:id` wraps them in
 * `{"vehicle_locations":[…]}`, assembled from the hour slices of its window.
 */
export function historyPointsV3(rows: HistoryRow[], e: Embeds): string {
  const driver = cached((id: number | null) => JSON.stringify(e.user(id)));
  const device = cached((id: number) => JSON.stringify(e.device(id)));
  const parts = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const odometer = num(miles(r.odometer_km));
    const hours = num(rounded(r.engine_hours, 2));
    parts[i] =
      `{"vehicle_location":{"id":"${pointId(r.id)}","located_at":"${wireTime(r.fix_time)}","lat":${coord(r.lat!)},"lon":${coord(r.lon!)},` +
      `"type":${str(r.point_type)},"description":${str(r.description)},"speed":${num(mph(r.speed_kph))},"bearing":${num(r.bearing_deg)},` +
      `"battery_voltage":${num(r.battery_v)},"odometer":${odometer},"true_odometer":${odometer},"engine_hours":${hours},` +
      `"true_engine_hours":${hours},"fuel":${num(gallons(r.fuel_used_l))},"fuel_primary_remaining_percentage":${num(r.fuel_level_pct)},` +
      `"fuel_secondary_remaining_percentage":null,"veh_range":null,"hvb_state_of_charge":null,"hvb_lifetime_energy_output":null,` +
      `"hvb_charge_status":null,"hvb_charge_source":null,"driver":${driver(r.driver_id)},"eld_device":${device(r.device_id)}}}`;
  }
  return parts.join(',');
}
