/**
 * Times on the console's pages, always in the company's zone and with the zone named: "14:05 CST", the
 * zone's short name at that instant (so a summer afternoon in Chicago reads CDT). A raw UTC timestamp
 * beside a local grid is what made the hours-of-service page unreadable.
 */
import { zonedParts } from '../../../core/time-zone.js';

/** "0h 30m": a duration as the console writes time left. */
export function hoursMinutes(ms: number): string {
  const m = Math.max(0, Math.round(ms / 60_000));
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

/** "14:05 CST"; with the date in front ("2024-02-09 14:05 CST") when the instant is not on `day`. */
export function zonedTime(ms: number, zone: string, day?: string): string {
  const p = zonedParts(ms, zone);
  return `${p.date === day ? '' : `${p.date} `}${p.time} ${p.abbr}`;
}

/** "14:05–18:30 CST", or with dates where either end lies outside `day`; an open end reads "now". */
export function zonedSpan(start: number, end: number | null, zone: string, day?: string): string {
  const a = zonedParts(start, zone);
  if (end === null) return `since ${zonedTime(start, zone, day)}`;
  const b = zonedParts(end, zone);
  const from = `${a.date === day ? '' : `${a.date} `}${a.time}`;
  const to = `${b.date === day ? '' : `${b.date} `}${b.time} ${b.abbr}`;
  return a.abbr === b.abbr ? `${from}–${to}` : `${from} ${a.abbr}–${to}`;
}
