/**
 * The v1 location history point as JSON text from `located_at` to `fuel` (docs/reference/wire.md §4.4), rendered
 * when a record is stored; the history adds `id` before and `driver` after. Values and rounding are
 * those of historyPointV1 (src/wire/vehicle-location.ts); a test compares the two.
 */
import type { BodyBytes } from './body-bytes.js';
import { roundedText, roundsToItself, writeRoundedDigits, writesAsItself } from './number-text.js';
import { kmToMi, kphToMph, litersToGallons } from './units.js';

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

/**
 * The literal text between the values of a point, in order: `located_at` (its first 19 characters and
 * a Z), lat, lon, bearing, engine_hours, type, description, speed, odometer, fuel. pointJson and the
 * history's byte writer (queries/history-postgres.ts) both write a point from these.
 */
export const POINT_KEYS = [
  '"located_at":"',
  'Z","lat":',
  ',"lon":',
  ',"bearing":',
  ',"engine_hours":',
  ',"type":',
  ',"description":',
  ',"speed":',
  ',"odometer":',
  ',"fuel":',
] as const;

const [AT, LAT, LON, BEARING, ENGINE_HOURS, TYPE, DESCRIPTION, SPEED, ODOMETER, FUEL] = POINT_KEYS;

export function pointJson(p: PointFields): string {
  return (
    `${AT}${p.fix_time.slice(0, 19)}${LAT}${roundedText(p.lat, 6)}${LON}${roundedText(p.lon, 6)}${BEARING}${num(p.bearing_deg)}` +
    `${ENGINE_HOURS}${rounded(p.engine_hours, 2)}${TYPE}${str(p.point_type)}${DESCRIPTION}${str(p.description)}` +
    `${SPEED}${rounded(p.speed_kph, 1, kphToMph)}${ODOMETER}${rounded(p.odometer_km, 1, kmToMi)}` +
    `${FUEL}${rounded(p.fuel_used_l, 2, litersToGallons)}`
  );
}

const KEY_BYTES = POINT_KEYS.map((k) => Buffer.from(k, 'utf8'));
const NULL = Buffer.from('null', 'utf8');
/** Where each field of the text being written starts; field k is t[starts[k], starts[k + 1] - 1). */
const starts = new Int32Array(POINT_KEYS.length + 1);

/**
 * A point from the text of its columns, written as pointJson writes it at ingestion: the same bytes,
 * without a string per point (the history of a compacted week, queries/history-postgres.ts). t[from, to)
 * is U+0002, then the ten fields in POINT_KEYS's order, separated by U+0003, each the column's text
 * as PostgreSQL writes it or U+0004 for null; speed, odometer and fuel are sent in the wire's units,
 * converted by PostgreSQL with the same division as ./units.ts (one IEEE division: the same double).
 */
export function writePointColumns(w: BodyBytes, t: string, from = 0, to = t.length): void {
  starts[0] = from + 1;
  for (let k = 1; k < starts.length; k++) {
    const end = t.indexOf('\u0003', starts[k - 1]);
    starts[k] = (end < 0 || end > to ? to : end) + 1;
  }
  w.bytes(KEY_BYTES[0]);
  w.ascii(t, starts[0], Math.min(starts[0] + 19, starts[1] - 1));
  writeRounded(w, t, 1, 6);
  writeRounded(w, t, 2, 6);
  writeNumber(w, t, 3);
  writeRounded(w, t, 4, 2);
  writeString(w, t, 5);
  writeString(w, t, 6);
  writeRounded(w, t, 7, 1);
  writeRounded(w, t, 8, 1);
  writeRounded(w, t, 9, 2);
}

/** Field k's key, then whether the field is null (and `null` written if so). */
function keyAndNull(w: BodyBytes, t: string, k: number): boolean {
  w.bytes(KEY_BYTES[k]);
  if (starts[k + 1] - starts[k] !== 2 || t.charCodeAt(starts[k]) !== 4) return false;
  w.bytes(NULL);
  return true;
}

/** A number field as roundedText writes it. */
function writeRounded(w: BodyBytes, t: string, k: number, d: number): void {
  if (keyAndNull(w, t, k)) return;
  const a = starts[k];
  const b = starts[k + 1] - 1;
  if (roundsToItself(t, d, a, b)) w.ascii(t, a, b);
  else if (!writeRoundedDigits(w, t, a, b, d)) w.ascii(roundedText(Number(t.slice(a, b)), d));
}

/** A number field as String writes it. */
function writeNumber(w: BodyBytes, t: string, k: number): void {
  if (keyAndNull(w, t, k)) return;
  const a = starts[k];
  const b = starts[k + 1] - 1;
  if (writesAsItself(t, a, b)) w.ascii(t, a, b);
  else w.ascii(String(Number(t.slice(a, b))));
}

/** A text field as a JSON string. */
function writeString(w: BodyBytes, t: string, k: number): void {
  if (!keyAndNull(w, t, k)) w.json(t, starts[k], starts[k + 1] - 1);
}
