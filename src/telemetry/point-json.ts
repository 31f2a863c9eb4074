/**
 * The v1 location history point as JSON text from `located_at` to `fuel` (docs/reference/wire.md §4.4), rendered
 * when a record is stored; the history adds `id` before and `driver` after. Values and rounding are
 * those of historyPointV1 (src/wire/vehicle-location.ts); a test compares the two.
 */
import { BodyBytes } from './body-bytes.js';
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

/**
 * Numbers read from text (the history renders compacted records from the text PostgreSQL sends for
 * their columns, queries/history-postgres.ts): when the text is already what JavaScript would write,
 * it is written as it is instead of being parsed and written again.
 *
 * A normalized plain decimal text (`-?digits[.digits]`, no leading or trailing zero, not a negative
 * zero) of at most 15 digits reads as the double nearest to it, and no other decimal of 15 digits or
 * fewer reads as the same double, so that double's shortest text, which is what `String` writes (in
 * plain notation from 1e-7 to 1e21), is the text itself. With at most `d` decimals and whole digits + d
 * ≤ 15 it is also `roundedText(Number(text), d)`: the double scaled by 10^d rounds to the integer the
 * text names (below 10^15), and that integer scaled back is the same double.
 */
/** Whether t[from, to) is `String(Number(t))` already. */
export const writesAsItself = (t: string, from = 0, to = t.length) => plainShape(t, from, to) >= 0;

/** Whether t[from, to) is `roundedText(Number(t), d)` already. */
export function roundsToItself(t: string, d: number, from = 0, to = t.length): boolean {
  const s = plainShape(t, from, to);
  return s >= 0 && (s & 31) <= d && (s >> 5) + d <= 15;
}

/** Whole digits × 32 + decimals of a normalized plain decimal text of at most 15 digits, else -1. */
function plainShape(t: string, from: number, to: number): number {
  const negative = t.charCodeAt(from) === 0x2d;
  let i = negative ? from + 1 : from;
  const first = i;
  let zero = true;
  for (; i < to; i++) {
    const c = t.charCodeAt(i);
    if (c < 0x30 || c > 0x39) break;
    if (c !== 0x30) zero = false;
  }
  const whole = i - first;
  if (whole === 0 || (whole > 1 && t.charCodeAt(first) === 0x30)) return -1;
  let decimals = 0;
  if (i < to) {
    if (t.charCodeAt(i) !== 0x2e) return -1;
    const point = ++i;
    for (; i < to; i++) {
      const c = t.charCodeAt(i);
      if (c < 0x30 || c > 0x39) return -1;
      if (c !== 0x30) zero = false;
    }
    decimals = i - point;
    if (decimals === 0 || t.charCodeAt(to - 1) === 0x30) return -1;
  }
  if ((negative && zero) || whole + decimals > 15) return -1;
  return whole * 32 + decimals;
}

const KEY_BYTES = POINT_KEYS.map((k) => Buffer.from(k, 'utf8'));
const NULL = Buffer.from('null', 'utf8');
/** Where each field of the text being written starts; field k is t[starts[k], starts[k + 1] - 1). */
const starts = new Int32Array(POINT_KEYS.length + 1);

/**
 * A point from the text of its columns, written as pointJson writes it at ingestion: the same bytes,
 * without a string per point (the history of a compacted week, queries/history-postgres.ts). The text
 * is U+0002, then the ten fields in POINT_KEYS's order, separated by U+0003, each the column's text
 * as PostgreSQL writes it or U+0004 for null.
 */
export function writePointColumns(w: BodyBytes, t: string): void {
  starts[0] = 1;
  for (let k = 1; k < starts.length; k++) {
    const end = t.indexOf('\u0003', starts[k - 1]);
    starts[k] = (end < 0 ? t.length : end) + 1;
  }
  w.bytes(KEY_BYTES[0]);
  w.ascii(t, starts[0], Math.min(starts[0] + 19, starts[1] - 1));
  writeRounded(w, t, 1, 6);
  writeRounded(w, t, 2, 6);
  writeNumber(w, t, 3);
  writeRounded(w, t, 4, 2);
  writeString(w, t, 5);
  writeString(w, t, 6);
  writeRounded(w, t, 7, 1, kphToMph);
  writeRounded(w, t, 8, 1, kmToMi);
  writeRounded(w, t, 9, 2, litersToGallons);
}

/** Field k's key, then whether the field is null (and `null` written if so). */
function keyAndNull(w: BodyBytes, t: string, k: number): boolean {
  w.bytes(KEY_BYTES[k]);
  if (starts[k + 1] - starts[k] !== 2 || t.charCodeAt(starts[k]) !== 4) return false;
  w.bytes(NULL);
  return true;
}

/** A number field as roundedText writes it (after `convert`). */
function writeRounded(w: BodyBytes, t: string, k: number, d: number, convert?: (x: number) => number): void {
  if (keyAndNull(w, t, k)) return;
  const a = starts[k];
  const b = starts[k + 1] - 1;
  if (!convert && roundsToItself(t, d, a, b)) return w.ascii(t, a, b);
  const x = Number(t.slice(a, b));
  w.ascii(roundedText(convert ? convert(x) : x, d));
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
  if (!keyAndNull(w, t, k)) w.json(t.slice(starts[k], starts[k + 1] - 1));
}
