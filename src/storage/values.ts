/**
 * The one representation of values shared by both dialects (docs/storage.md):
 * - timestamps: TEXT, ISO-8601 UTC with milliseconds and `Z` (`2026-01-31T08:00:00.000Z`), so that
 *   string order is time order in SQLite and PostgreSQL alike;
 * - dates: TEXT `YYYY-MM-DD`;
 * - booleans: INTEGER 0/1;
 * - JSON: TEXT holding the serialized value.
 */
export type Iso = string;

export function nowIso(): Iso {
  return new Date().toISOString();
}

export function toIso(d: Date | number): Iso {
  return new Date(d).toISOString();
}

export function bool(v: boolean | null | undefined): number {
  return v ? 1 : 0;
}

export function fromBool(v: unknown): boolean {
  return v === 1 || v === true || v === '1';
}

export function json(v: unknown): string {
  return JSON.stringify(v ?? null);
}

export function fromJson<T>(v: string | null | undefined, fallback: T): T {
  if (v === null || v === undefined || v === '') return fallback;
  return JSON.parse(v) as T;
}

/** Wire datetime: ISO-8601 UTC with `Z`, whole seconds (as the real API sends). */
export function wireTime(v: Iso | null | undefined): string | null {
  if (!v) return null;
  return v.length === 24 ? `${v.slice(0, 19)}Z` : v;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Whether year-month-day names a day of the (proleptic Gregorian) calendar: Date.UTC would roll February 30 over to March. */
export function isCalendarDay(y: number, month: number, day: number): boolean {
  if (!(month >= 1 && month <= 12 && day >= 1)) return false;
  const leap = month === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return day <= MONTH_DAYS[month - 1] + (leap ? 1 : 0);
}
