/**
 * The field readers of device records (./records.ts, ./record-log.ts): each returns the field's value
 * or throws a RecordError naming the field and what it must be. Pure; the clock is a parameter.
 */
import { isCalendarDay } from '../storage/values.js';

export interface ParseLimits {
  nowMs: number;
  futureSlackS: number;
  maxAgeDays: number;
}

/**
 * A record refused, with the reason sent back to the device. Made without a stack trace: a batch may
 * hold hundreds of refused records, and capturing a stack for each (under the server's deep async
 * stacks) cost more than parsing the whole batch, a cheap way for one client to load the event loop.
 */
export class RecordError extends Error {
  constructor(message: string) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }
}

export const fail = (message: string): never => {
  throw new RecordError(message);
};

export type Obj = Record<string, unknown>;

export function numberIn(r: Obj, field: string, min: number, max: number, required = false): number | null {
  const v = r[field];
  if (v === undefined || v === null) return required ? fail(`${field} is required`) : null;
  if (typeof v !== 'number' || !Number.isFinite(v)) return fail(`${field} must be a number`);
  if (v < min || v > max) return fail(`${field} must be between ${min} and ${max}, got ${v}`);
  return v;
}

export function intIn(r: Obj, field: string, min: number, max: number, required = false): number | null {
  const v = numberIn(r, field, min, max, required);
  if (v !== null && !Number.isInteger(v)) fail(`${field} must be a whole number`);
  return v;
}

export function bool(r: Obj, field: string): boolean | null {
  const v = r[field];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'boolean') return fail(`${field} must be true or false`);
  return v;
}

export function oneOf<T extends string>(r: Obj, field: string, values: readonly T[], def?: T): T {
  const v = r[field];
  if ((v === undefined || v === null) && def !== undefined) return def;
  if (v === undefined || v === null) return fail(`${field} is required`);
  if (typeof v !== 'string' || !values.includes(v as T)) return fail(`${field} must be one of: ${values.join(', ')}`);
  return v as T;
}

export function text(r: Obj, field: string, max: number): string | null {
  const v = r[field];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') return fail(`${field} must be a string`);
  if (v.length > max) return fail(`${field} must be at most ${max} characters long`);
  return v;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:(Z)|([+-])(\d{2}):?(\d{2}))$/;

/**
 * Epoch milliseconds of a matched ISO-8601 text, or NaN when its date or time does not exist
 * (Date.parse would roll 2026-02-30 over to March 2). Computed from the parts, as Date.parse would
 * (fractions past milliseconds are cut off), without parsing the text a second time.
 */
function isoMs(m: RegExpExecArray): number {
  const y = +m[1],
    mo = +m[2],
    d = +m[3],
    h = +m[4],
    mi = +m[5];
  const s = m[6] === undefined ? 0 : +m[6];
  const ms = m[7] === undefined ? 0 : +(m[7] + '00').slice(0, 3);
  if (h > 23 || mi > 59 || s > 59 || !isCalendarDay(y, mo, d)) return NaN;
  let offsetMin = 0;
  if (m[8] === undefined) {
    const oh = +m[10],
      om = +m[11];
    if (oh > 23 || om > 59) return NaN;
    offsetMin = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  let t = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  if (y < 100) t = new Date(t).setUTCFullYear(y); // Date.UTC reads years 0–99 as 1900–1999
  return t - offsetMin * 60_000;
}

/** Epoch milliseconds of an ISO-8601 date-time with a zone, or NaN when it is not one or does not exist. */
export function isoTextMs(s: string): number {
  const utc = utcMs(s);
  if (utc !== null) return utc;
  const m = ISO.exec(s);
  return m ? isoMs(m) : NaN;
}

/** The digit at s[i] as a number, or -1 when it is not a digit. */
function digit(s: string, i: number): number {
  const c = s.charCodeAt(i) - 0x30;
  return c >= 0 && c <= 9 ? c : -1;
}

const two = (s: string, i: number) => {
  const a = digit(s, i);
  const b = digit(s, i + 1);
  return a < 0 || b < 0 ? -1 : a * 10 + b;
};

/**
 * What devices send nearly always, `YYYY-MM-DDTHH:MM:SS[.fraction]Z` (toISOString's shape), read digit
 * by digit without the pattern's eleven substrings: its epoch milliseconds, or null for any other text
 * and for one that names no instant (the pattern then reads it, and says what is wrong). Years from
 * 1000 only (Date.UTC's two-digit years are the pattern's to handle).
 */
function utcMs(s: string): number | null {
  const n = s.length;
  if (n < 20 || n > 30 || s.charCodeAt(n - 1) !== 0x5a) return null;
  if (s.charCodeAt(4) !== 0x2d || s.charCodeAt(7) !== 0x2d || s.charCodeAt(10) !== 0x54) return null;
  if (s.charCodeAt(13) !== 0x3a || s.charCodeAt(16) !== 0x3a) return null;
  const hi = two(s, 0);
  const lo = two(s, 2);
  const mo = two(s, 5);
  const d = two(s, 8);
  const h = two(s, 11);
  const mi = two(s, 14);
  const sec = two(s, 17);
  if (hi < 10 || lo < 0 || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 59) return null;
  const y = hi * 100 + lo;
  if (!isCalendarDay(y, mo, d)) return null;
  let ms = 0;
  if (n > 20) {
    // A fraction: a point, then 1 to 9 digits, cut to milliseconds (as Date.parse does).
    if (s.charCodeAt(19) !== 0x2e || n === 21) return null;
    for (let i = 20; i < n - 1; i++) {
      const c = digit(s, i);
      if (c < 0) return null;
      if (i < 23) ms += c * (i === 20 ? 100 : i === 21 ? 10 : 1);
    }
  }
  return Date.UTC(y, mo - 1, d, h, mi, sec, ms);
}

/** A time for an error message: ISO when it is within the range of dates, else as given. */
const shown = (t: number, v: unknown) => (Math.abs(t) <= 8.64e15 ? new Date(t).toISOString() : String(v));

/** The record's time: ISO-8601 with a zone, or epoch milliseconds. */
export function parseTime(v: unknown, limits: ParseLimits, field = 'time'): number {
  let t: number;
  if (typeof v === 'number') {
    if (!Number.isFinite(v) || !Number.isInteger(v))
      return fail(`${field} must be an ISO-8601 datetime with a zone, or whole epoch milliseconds`);
    t = v;
  } else if (typeof v === 'string') {
    t = isoTextMs(v);
    if (Number.isNaN(t) && !ISO.test(v))
      return fail(
        `${field} must be an ISO-8601 datetime with a zone, e.g. 2026-03-01T10:00:00Z, got "${v.slice(0, 40)}"`,
      );
    if (Number.isNaN(t)) return fail(`${field} is not a valid datetime ("${v}")`);
  } else if (v === undefined || v === null) {
    return fail(`${field} is required`);
  } else {
    return fail(`${field} must be an ISO-8601 datetime with a zone, or whole epoch milliseconds`);
  }
  if (t > limits.nowMs + limits.futureSlackS * 1000) {
    return fail(
      `${field} ${shown(t, v)} is in the future (more than ${limits.futureSlackS} s ahead of the server clock)`,
    );
  }
  if (t < limits.nowMs - limits.maxAgeDays * 86_400_000) {
    return fail(`${field} ${shown(t, v)} is older than ${limits.maxAgeDays} days`);
  }
  return t;
}
