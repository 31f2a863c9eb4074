/**
 * Dates of the record areas (messages, fuel purchases, documents …) as instants and windows: a
 * `YYYY-MM-DD` day is read in the request's X-Time-Zone zone (UTC without it); windows are inclusive of
 * both days (docs/reference/wire.md §9). Their schemas (`Day`, `Moment`) are src/core/schema.ts's.
 */
import { validation } from '../core/errors.js';
import { dayProblem, instantProblem } from '../storage/portable-values.js';
import { addDays, dayWindow, localDate, startOfDay } from '../core/time-zone.js';

/** A real day of the accepted calendar (1970–2199, storage/portable-values.ts), or a 400 naming the field. */
export function validDay(field: string, v: string): void {
  const problem = dayProblem(v);
  if (problem) throw validation(field, problem);
}

/** A day becomes the start of that day in `zone`; a datetime is taken as sent. Returns a Date. */
export function momentOf(field: string, v: string, zone: string): Date {
  if (v.length === 10) {
    validDay(field, v);
    return startOfDay(v, zone);
  }
  validDay(field, v.slice(0, 10));
  const d = new Date(v);
  const problem = instantProblem(d.getTime(), v);
  if (problem) throw validation(field, problem);
  return d;
}

export interface Window {
  start: Date;
  end: Date;
}

const OPEN_END = new Date('9999-12-31T00:00:00Z');

/**
 * The half-open window [start, end) of start_date..end_date. Without start_date the window starts
 * `defaultDays` before end_date (or before today) when a default is given, and is open otherwise;
 * without end_date it has no end.
 */
export function windowOf(
  q: { start_date?: string; end_date?: string },
  zone: string,
  defaultDays?: number,
): Window | undefined {
  if (q.start_date) validDay('start_date', q.start_date);
  if (q.end_date) validDay('end_date', q.end_date);
  let start = q.start_date;
  if (!start && defaultDays !== undefined) start = addDays(q.end_date ?? localDate(Date.now(), zone), -defaultDays);
  if (start && q.end_date && q.end_date < start) throw validation('end_date', 'must not be before start_date');
  if (start && q.end_date) return dayWindow(start, q.end_date, zone);
  if (start) return { start: startOfDay(start, zone), end: OPEN_END };
  if (q.end_date) return { start: new Date(0), end: dayWindow(q.end_date, q.end_date, zone).end };
  return undefined;
}
