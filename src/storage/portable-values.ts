/**
 * Values that one of the two databases stores and the other refuses (docs/errors.md, "Values both
 * databases store"). Every input is checked against these before any write, so SQLite and PostgreSQL
 * answer the same request the same way:
 * - text with a NUL character: PostgreSQL's text type cannot hold U+0000;
 * - text with a lone UTF-16 surrogate (half of a pair): not valid Unicode, so PostgreSQL's UTF-8
 *   encoding cannot hold it once it is written out;
 * - an integer outside PostgreSQL's `integer` (32-bit signed): every id, reference and count column is
 *   one; the few 64-bit columns (a device's `seq`) declare their own, larger, limit;
 * - a number that is not finite (JSON cannot carry one, a query string can: `Infinity`).
 * Pure: no I/O, bounded by the size of the value (which the body limit bounds).
 */

export const INT32_MIN = -2_147_483_648;
export const INT32_MAX = 2_147_483_647;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A character that can make a text one of the two refuse: NUL, or either half of a surrogate pair. */
const SUSPECT = /[\u0000\uD800-\uDFFF]/;

function suspectChar(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0 || (c >= 0xd800 && c <= 0xdfff)) return true;
  }
  return false;
}

/** Why the databases disagree on this text, or null when both store it alike. */
export function textProblem(s: string): string | null {
  // One scan clears nearly every text (keys, names, times), a character at a time when it is short;
  // only one with a NUL or a surrogate (an emoji, a lone half) is looked at closer.
  if (s.length <= 24 ? !suspectChar(s) : !SUSPECT.test(s)) return null;
  if (s.includes('\u0000')) return 'must not contain a NUL character (\\u0000)';
  if (LONE_SURROGATE.test(s)) return 'must not contain a lone UTF-16 surrogate (half of a surrogate pair)';
  return null;
}

export interface Unportable {
  /** Where the value sits: `notes`, `stops[2].address`, or the key itself for a bad key. */
  field: string;
  problem: string;
}

/** Deeper than this a JSON value is refused outright: no request needs it, and walking it costs. */
export const MAX_DEPTH = 64;

/**
 * The first string (value or object key) or number in `value` that the databases disagree on, with
 * its path (`stops[2].address`); `whole` names the value itself when it is not an object (e.g. `body`),
 * and `at` is where `value` sits, when it is a member of something already checked (its path's start).
 * Integers are not range-checked here: their range belongs to the schema of each field (see
 * http/plumbing/validation.ts).
 */
export function findUnportable(value: unknown, whole = 'value', at: Array<string | number> = []): Unportable | null {
  return walk(value, at, whole);
}

/**
 * `segs` is where `v` sits (object keys and array indexes from the top, at most MAX_DEPTH of them); the
 * path is written only for what is found, not for every value passed.
 */
function walk(v: unknown, segs: Array<string | number>, whole: string): Unportable | null {
  if (typeof v === 'string') {
    const problem = textProblem(v);
    return problem ? { field: pathOf(segs, whole), problem } : null;
  }
  if (typeof v === 'number')
    return Number.isFinite(v) ? null : { field: pathOf(segs, whole), problem: 'must be a finite number' };
  if (v === null || typeof v !== 'object') return null;
  if (segs.length >= MAX_DEPTH)
    return { field: pathOf(segs, whole), problem: `is nested deeper than ${MAX_DEPTH} levels` };
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      segs.push(i);
      const found = walk(v[i], segs, whole);
      segs.pop();
      if (found) return found;
    }
    return null;
  }
  const keys = Object.keys(v);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const keyProblem = textProblem(k);
    if (keyProblem) return { field: `a key of ${pathOf(segs, whole)}`, problem: keyProblem };
    segs.push(k);
    const found = walk((v as Record<string, unknown>)[k], segs, whole);
    segs.pop();
    if (found) return found;
  }
  return null;
}

/** `stops[2].address`: keys joined by dots, indexes in brackets; `whole` for the value itself or before a top-level index. */
function pathOf(segs: Array<string | number>, whole: string): string {
  let path = '';
  for (const s of segs) path = typeof s === 'number' ? `${path || whole}[${s}]` : path ? `${path}.${s}` : s;
  return path || whole;
}

/**
 * The calendar the project accepts: every day and instant a client sends lies in 1970-01-01 ..
 * 2199-12-31 (UTC). Timestamps are stored as ISO-8601 text whose string order is time order
 * (storage/values.ts); that holds only for four-digit years, and nothing a fleet records lies before
 * the Unix epoch or centuries ahead. Date arithmetic near these days stays well inside what Date and
 * the text form can represent, so no computation from an accepted day produces a malformed one.
 */
export const FIRST_DAY = '1970-01-01';
export const LAST_DAY = '2199-12-31';
export const FIRST_MS = Date.parse(`${FIRST_DAY}T00:00:00Z`);
export const END_MS = Date.parse('2200-01-01T00:00:00Z');
const RANGE = `must be a date from ${FIRST_DAY} to ${LAST_DAY}`;

/** Why `YYYY-MM-DD` text is not an accepted day, or null. */
export function dayProblem(day: string): string | null {
  const ms = Date.parse(`${day}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day) {
    return `is not a valid date (${day})`;
  }
  return ms < FIRST_MS || ms >= END_MS ? `${RANGE} (got ${day})` : null;
}

/** Why an instant (epoch milliseconds) lies outside the accepted calendar, or null. */
export function instantProblem(ms: number, sent: string): string | null {
  if (Number.isNaN(ms)) return `is not a valid datetime (${sent})`;
  return ms < FIRST_MS || ms >= END_MS ? `${RANGE} (got ${sent})` : null;
}
