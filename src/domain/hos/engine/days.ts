/**
 * Log days: the carrier's 24-hour periods in the home-terminal zone, starting at its day-start hour
 * (docs/reference/domain-rules.md §0, D-1, D-7). Days follow the local clock, so a daylight-saving change gives a 23- or
 * 25-hour day. Formatters and offsets are cached: the engine cuts days for thousands of drivers.
 */
import { DAY, HOUR } from './types.js';

const formatters = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, number>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** Offset of `zone` from UTC at instant `t` (ms). Offsets change on whole hours in every supported zone. */
export function offsetMs(zone: string, t: number): number {
  if (zone === 'UTC') return 0;
  const hour = Math.floor(t / HOUR);
  const key = `${zone}|${hour}`;
  const cached = offsets.get(key);
  if (cached !== undefined) return cached;
  const at = hour * HOUR;
  const p: Record<string, number> = {};
  for (const part of formatter(zone).formatToParts(new Date(at)))
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  const off = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - at;
  if (offsets.size > 500_000) offsets.clear();
  offsets.set(key, off);
  return off;
}

/** Day numbers (days since 1970-01-01 of the local date) and their boundaries for one zone and start hour. */
export class Days {
  private readonly starts = new Map<number, number>();
  constructor(
    readonly zone: string,
    readonly startHour = 0,
  ) {}

  /** The log day containing instant t. */
  dayOf(t: number): number {
    return Math.floor((t + offsetMs(this.zone, t) - this.startHour * HOUR) / DAY);
  }

  /** The instant log day `d` begins. */
  start(d: number): number {
    let s = this.starts.get(d);
    if (s === undefined) {
      const wall = d * DAY + this.startHour * HOUR;
      s = wall - offsetMs(this.zone, wall);
      s = wall - offsetMs(this.zone, s);
      this.starts.set(d, s);
    }
    return s;
  }

  /** `YYYY-MM-DD` of log day d. */
  static date(d: number): string {
    return new Date(d * DAY).toISOString().slice(0, 10);
  }

  /** The day number of `YYYY-MM-DD`. */
  static number(date: string): number {
    return Math.round(Date.parse(`${date}T00:00:00Z`) / DAY);
  }
}
