/** Reading instants that clients send (start_time, mechanic_signed_at, …) and instants we are handed. */
import { validation } from '../../core/errors.js';
import { isCalendarDay } from '../../storage/values.js';

const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/i;

/**
 * An ISO-8601 datetime with a zone designator (`2026-03-01T08:00:00Z`, `…-05:00`) → Date.
 * Anything else, including impossible calendar dates, is a 400 naming the field.
 */
export function parseInstant(field: string, value: string): Date {
  const m = ISO.exec(value.trim());
  const ms = m ? Date.parse(value.trim()) : NaN;
  const [y, mo, d] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0];
  const realDay = m ? isCalendarDay(y, mo, d) : false;
  if (!m || Number.isNaN(ms) || !realDay) {
    throw validation(field, `must be an ISO-8601 datetime with a time zone, e.g. 2026-03-01T08:00:00Z, got "${value}"`);
  }
  return new Date(ms);
}
