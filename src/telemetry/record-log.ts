/**
 * The device records of a driver's log that carry no duty status (docs/device-protocol.md): a
 * `remark` (the driver's annotation at an instant), a `certification` (the driver certifies a day's
 * log, 49 CFR 395.8, App. A §4.5.1.4) and a `malfunction` (an ELD malfunction or data diagnostic that began
 * or cleared, App. A §4.6). Validation only, pure: what needs the driver's zone (a certified day must
 * have begun) is the HOS service's check when the record is logged.
 */
import { isCalendarDay } from '../storage/values.js';
import { MALFUNCTION_CODES } from '../domain/hos/remarks.js';
import { dayProblem, INT32_MAX } from '../storage/portable-values.js';

type Obj = Record<string, unknown>;

interface Helpers {
  intIn(r: Obj, field: string, min: number, max: number, required?: boolean): number | null;
  oneOf<T extends string>(r: Obj, field: string, values: readonly T[], def?: T): T;
  text(r: Obj, field: string, max: number): string | null;
  fail(message: string): never;
}

export const LOG_RECORD_TYPES = ['remark', 'certification', 'malfunction'] as const;
export type LogRecordType = (typeof LOG_RECORD_TYPES)[number];

export interface LogRecordFields {
  data: Obj;
  driverRef: number | null;
  /** Whether the record takes the optional position (a certification names a day, not a place). */
  located: boolean;
}

/**
 * An annotation, 4 to 60 characters (the ELD's comment length, docs/reference/domain-rules.md §2.1;
 * spaces at its ends do not count towards the 4).
 */
function annotation(r: Obj, h: Helpers, missing: string | null): string | null {
  const note = h.text(r, 'note', 60);
  if (note === null) return missing === null ? null : h.fail(missing);
  if (note.trim().length < 4) h.fail(`note must be 4 to 60 characters long, got ${JSON.stringify(note)}`);
  return note;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The log day certified: a calendar date, YYYY-MM-DD (in the driver's home-terminal zone). */
function day(r: Obj, h: Helpers): string {
  const v = r.date;
  if (v === undefined || v === null) return h.fail('date is required: the log day certified, YYYY-MM-DD');
  const m = typeof v === 'string' ? DAY.exec(v) : null;
  if (!m || !isCalendarDay(+m[1], +m[2], +m[3]))
    return h.fail(`date must be a log day as YYYY-MM-DD, got ${JSON.stringify(v).slice(0, 40)}`);
  // Within the calendar the API reads logs in (docs/errors.md): a day outside it could never be shown.
  const outside = dayProblem(v as string);
  if (outside) return h.fail(`date ${outside}`);
  return v as string;
}

/** The fields of a remark, certification or malfunction record beyond seq, type, time and position. */
export function logRecord(type: LogRecordType, r: Obj, h: Helpers): LogRecordFields {
  switch (type) {
    case 'remark': {
      const id = h.intIn(r, 'driver_id', 1, INT32_MAX, true);
      const note = annotation(r, h, "note is required: the remark's text, 4 to 60 characters");
      return { data: { driver_id: id, note }, driverRef: id, located: true };
    }
    case 'certification': {
      const id = h.intIn(r, 'driver_id', 1, INT32_MAX, true);
      return { data: { driver_id: id, date: day(r, h) }, driverRef: id, located: false };
    }
    case 'malfunction': {
      const code = h.oneOf(r, 'code', MALFUNCTION_CODES);
      const status = h.oneOf(r, 'status', ['began', 'cleared'] as const);
      const note = annotation(r, h, null);
      // Without a driver_id: the driver logged in on the vehicle at its time (./store/hos-records.ts).
      const id = h.intIn(r, 'driver_id', 1, INT32_MAX);
      return { data: { code, status, note, driver_id: id }, driverRef: id, located: true };
    }
  }
}
