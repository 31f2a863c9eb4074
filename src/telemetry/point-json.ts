/**
 * The v1 location history point as JSON text from `located_at` to `fuel` (docs/reference/wire.md §4.4), rendered
 * when a record is stored; the history adds `id` before and `driver` after. Values and rounding are
 * those of historyPointV1 (src/wire/vehicle-location.ts); a test compares the two.
 */
import { kmToMi, kphToMph, litersToGallons } from './units.js';

const POW10 = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000];

/**
 * `String(Math.round(x * 10^d) / 10^d)`, without the double-to-shortest conversion (the costly part
 * of rendering a point). With at most 15 significant digits the rounded double prints as its exact
 * decimal digits with trailing zeros dropped, so those digits are written from integers; anything
 * larger falls back to String. test/telemetry/text-formatting.test.ts checks the two agree.
 */
export function roundedText(x: number, d: number): string {
  const f = POW10[d] ?? 10 ** d;
  const v = Math.round(x * f);
  if (v === 0) return '0';
  if (!(Math.abs(v) < 1e15)) return String(v / f);
  const a = v < 0 ? -v : v;
  const whole = Math.floor(a / f);
  let frac = a - whole * f;
  let text = String(whole);
  if (frac !== 0) {
    let digits = d;
    while (frac % 10 === 0) {
      frac /= 10;
      digits--;
    }
    const s = String(frac);
    text += s.length < digits ? `.${'0'.repeat(digits - s.length)}${s}` : `.${s}`;
  }
  return v < 0 ? `-${text}` : text;
}

const num = (x: number | null | undefined) => (x === null || x === undefined ? 'null' : String(x));
const rounded = (x: number | null | undefined, d: number, f?: (v: number) => number) =>
  x === null || x === undefined ? 'null' : roundedText(f ? f(x) : x, d);
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
  return (
    `"located_at":"${p.fix_time.slice(0, 19)}Z","lat":${roundedText(p.lat, 6)},"lon":${roundedText(p.lon, 6)},"bearing":${num(p.bearing_deg)},` +
    `"engine_hours":${rounded(p.engine_hours, 2)},"type":${str(p.point_type)},"description":${str(p.description)},` +
    `"speed":${rounded(p.speed_kph, 1, kphToMph)},"odometer":${rounded(p.odometer_km, 1, kmToMi)},` +
    `"fuel":${rounded(p.fuel_used_l, 2, litersToGallons)}`
  );
}
