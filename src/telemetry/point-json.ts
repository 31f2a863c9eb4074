/**
 * The v1 location history point as JSON text from `located_at` to `fuel` (wire-format §4.4), rendered
 * when a record is stored; the history adds `id` before and `driver` after. Values and rounding are
 * those of historyPointV1 (src/http/wire/vehicle-location.ts); a test compares the two.
 */
import { kmToMi, kphToMph, litersToGallons } from './units.js';

const r = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;
const num = (x: number | null | undefined, f?: (v: number) => number) => (x === null || x === undefined ? 'null' : String(f ? f(x) : x));
const str = (x: string | null | undefined) => (x === null || x === undefined ? 'null' : JSON.stringify(x));

export interface PointFields {
  fix_time: string;
  lat: number;
  lon: number;
  bearing_deg: number | null;
  engine_hours: number | null;
  point_type: string | null;
  description: string | null;
  speed_kph: number | null;
  odometer_km: number | null;
  fuel_used_l: number | null;
}

export function pointJson(p: PointFields): string {
  return `"located_at":"${p.fix_time.slice(0, 19)}Z","lat":${r(p.lat, 6)},"lon":${r(p.lon, 6)},"bearing":${num(p.bearing_deg)},`
    + `"engine_hours":${num(p.engine_hours, (v) => r(v, 2))},"type":${str(p.point_type)},"description":${str(p.description)},`
    + `"speed":${num(p.speed_kph, (v) => r(kphToMph(v), 1))},"odometer":${num(p.odometer_km, (v) => r(kmToMi(v), 1))},`
    + `"fuel":${num(p.fuel_used_l, (v) => r(litersToGallons(v), 2))}`;
}
