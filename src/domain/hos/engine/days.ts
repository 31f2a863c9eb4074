/**
 * Log days: the carrier's 24-hour periods in the home-terminal zone, starting at its day-start hour
 * (docs/reference/domain-rules.md §0, D-1, D-7). Days follow the local clock, so a daylight-saving change gives a 23- or
 * 25-hour day. Offsets are cached: the engine cuts days for thousands of drivers.
 */
import { DAY, HOUR } from './types.js';
import { zoneOffsetMs } from '../../../core/time-zone.js';

const offsets = new Map<string, number>();

/**
 * Offset of `zone` from UTC at instant `t` (ms), cached per zone and UTC hour: offsets change on whole
 * hours in every zone a driver's ruleset can name.
 */
export function offsetMs(zone: string, t: number): number {
  if (zone === 'UTC') return 0;
  const hour = Math.floor(t / HOUR);
  const key = `${zone}|${hour}`;
  const cached = offsets.get(key);
  if (cached !== undefined) return cached;
  const off = zoneOffsetMs(zone, hour * HOUR);
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
