/**
 * Time zones and local days, shared by every layer. X-Time-Zone (docs/reference/wire.md §2.3) and a company's
 * `time_zone` are Rails zone names; the Rails name sets the day boundaries of date parameters and the zone
 * datetimes of answers are written in (src/http/plumbing/zoned-times.ts). An unknown header value is
 * ignored (UTC applies) and never fails a request.
 */

/** Rails time-zone names accepted in `time_zone` and X-Time-Zone, with their IANA zone. */
export const TIME_ZONES: Record<string, string> = {
  'Atlantic Time (Canada)': 'America/Halifax',
  'Eastern Time (US & Canada)': 'America/New_York',
  'Indiana (East)': 'America/Indiana/Indianapolis',
  'Central Time (US & Canada)': 'America/Chicago',
  Saskatchewan: 'America/Regina',
  'Mountain Time (US & Canada)': 'America/Denver',
  Arizona: 'America/Phoenix',
  'Pacific Time (US & Canada)': 'America/Los_Angeles',
  Alaska: 'America/Juneau',
  Hawaii: 'Pacific/Honolulu',
  UTC: 'UTC',
};

/** What time-zone code needs of a request: its headers (a Fastify request is one). */
export interface WithHeaders {
  headers: Record<string, string | string[] | undefined>;
}

/** The IANA zone named by the request's X-Time-Zone header, or UTC. */
export function requestTimeZone(req: WithHeaders): string {
  const raw = req.headers['x-time-zone'];
  const name = Array.isArray(raw) ? raw[0] : raw;
  if (!name) return 'UTC';
  return TIME_ZONES[name.trim()] ?? (isIana(name.trim()) ? name.trim() : 'UTC');
}

function isIana(name: string): boolean {
  if (!name.includes('/')) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** Offset of `zone` from UTC at the instant `utcMs`, in milliseconds (e.g. -5 h for New York in winter). */
export function zoneOffsetMs(zone: string, utcMs: number): number {
  const parts = zoneFormatter(zone).formatToParts(new Date(utcMs));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(utcMs / 1000) * 1000;
}

/** 24-hour date, hours and minutes, as numbers. */
const DATE_HM: Intl.DateTimeFormatOptions = {
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
};
const NUMERIC: Intl.DateTimeFormatOptions = { ...DATE_HM, second: '2-digit' };

/** Formatters by variant and zone: building an Intl.DateTimeFormat costs far more (~0.3 ms) than using one. */
const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The `en-US` formatter of `zone` with `options`, kept under `variant` (a name the caller gives its
 * options; one variant is one set of options).
 */
export function zoneFormatter(
  zone: string,
  variant = 'numeric',
  options: Intl.DateTimeFormatOptions = NUMERIC,
): Intl.DateTimeFormat {
  const key = `${variant} ${zone}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { ...options, timeZone: zone });
    formatters.set(key, f);
  }
  return f;
}

/** The UTC instant at which local midnight of `date` (YYYY-MM-DD) begins in `zone`. */
export function startOfDay(date: string, zone: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  const naive = Date.UTC(y, m - 1, d);
  // Two passes settle the offset across a DST change on that day.
  let t = naive - zoneOffsetMs(zone, naive);
  t = naive - zoneOffsetMs(zone, t);
  return new Date(t);
}

/**
 * The day `n` days after `day` (before, for negative n). Days come from the accepted calendar
 * (1970–2199, storage/portable-values.ts), so the result is always a four-digit-year YYYY-MM-DD.
 */
export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** The half-open UTC interval [start, end) covering the local days `from`..`to` inclusive. */
export function dayWindow(from: string, to: string, zone: string): { start: Date; end: Date } {
  return { start: startOfDay(from, zone), end: startOfDay(addDays(to, 1), zone) };
}

/** The local calendar date (YYYY-MM-DD) of an instant in `zone`. */
export function localDate(utcMs: number, zone: string): string {
  return new Date(utcMs + zoneOffsetMs(zone, utcMs)).toISOString().slice(0, 10);
}

export interface ZonedParts {
  /** YYYY-MM-DD */
  date: string;
  /** HH:MM, 24-hour */
  time: string;
  hour: number;
  /** The zone's short name at the instant ("CST", "CDT", "UTC"; "GMT-3" where no abbreviation exists). */
  abbr: string;
}

/** 24-hour date and time with the zone's short name. */
const NAMED: Intl.DateTimeFormatOptions = { ...DATE_HM, timeZoneName: 'short' };

/** An instant's date, time and zone name in `zone` (the console's pages, the alerts' text). */
export function zonedParts(ms: number, zone: string): ZonedParts {
  const parts = zoneFormatter(zone, 'named', NAMED).formatToParts(new Date(ms));
  const get = (t: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === t)?.value ?? '';
  const hour = get('hour');
  return {
    date: `${get('year')}-${get('month')}-${get('day')}`,
    time: `${hour}:${get('minute')}`,
    hour: Number(hour),
    abbr: get('timeZoneName'),
  };
}
