/**
 * Date windows of the telemetry endpoints (docs/reference/wire.md §9): inclusive `YYYY-MM-DD` days in a zone, with
 * the documented range limits as 400s ("Date range cannot be greater than 30 days"). Every window is
 * bounded (MAX_WINDOW_DAYS unless the endpoint's own rule is stricter): these endpoints walk the
 * window day by day, so its length is work the request costs (docs/errors.md, "Bounded requests").
 */
import { badRequest, validation } from '../core/errors.js';
import { addDays, dayWindow, localDate } from '../core/time-zone.js';
import { validDay, type Window } from './record-dates.js';

export function addMonths(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number);
  const last = new Date(Date.UTC(y, m - 1 + n + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m - 1 + n, Math.min(d, last))).toISOString().slice(0, 10);
}

const daysBetween = (a: string, b: string) =>
  Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

/** The longest window (end_date − start_date, days) any telemetry endpoint accepts: a leap year. */
export const MAX_WINDOW_DAYS = 366;

export interface RangeRules {
  /** Without start_date/end_date: the window ends today and spans this many days. */
  defaultDays: number;
  /** end_date − start_date may be at most this many days (30 for driving periods: exactly 30 is accepted); default MAX_WINDOW_DAYS. */
  maxDays?: number;
  /** The window may span at most this many calendar months. */
  maxMonths?: number;
  /** Both dates are required. */
  required?: boolean;
}

/** The half-open UTC window [start, end) of start_date..end_date in `zone`, checked against the rules. */
export function dateRange(
  q: { start_date?: string; end_date?: string },
  zone: string,
  rules: RangeRules,
): Window & { startDay: string; endDay: string } {
  if (rules.required) {
    if (!q.start_date) throw validation('start_date', 'is required');
    if (!q.end_date) throw validation('end_date', 'is required');
  }
  if (q.start_date) validDay('start_date', q.start_date);
  if (q.end_date) validDay('end_date', q.end_date);
  const endDay =
    q.end_date ?? (q.start_date ? addDays(q.start_date, rules.defaultDays - 1) : localDate(Date.now(), zone));
  const startDay = q.start_date ?? addDays(endDay, -(rules.defaultDays - 1));
  if (endDay < startDay) throw validation('end_date', 'must not be before start_date');
  const maxDays = rules.maxDays ?? MAX_WINDOW_DAYS;
  if (daysBetween(startDay, endDay) > maxDays) throw badRequest(`Date range cannot be greater than ${maxDays} days`);
  if (rules.maxMonths !== undefined && endDay >= addMonths(startDay, rules.maxMonths)) {
    throw badRequest(`Date range cannot be greater than ${rules.maxMonths} months`);
  }
  return { ...dayWindow(startDay, endDay, zone), startDay, endDay };
}
