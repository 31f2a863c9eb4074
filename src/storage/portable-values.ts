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

/** Why the databases disagree on this text, or null when both store it alike. */
export function textProblem(s: string): string | null {
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
 * its path from `root` (a field name, or '' for the whole body). Integers are not range-checked here:
 * their range belongs to the schema of each field (see http/plumbing/validation.ts).
 */
export function findUnportable(value: unknown, root = ''): Unportable | null {
  return walk(value, root, 0);
}

function walk(v: unknown, path: string, depth: number): Unportable | null {
  if (typeof v === 'string') {
    const problem = textProblem(v);
    return problem ? { field: path || 'value', problem } : null;
  }
  if (typeof v === 'number') return Number.isFinite(v) ? null : { field: path || 'value', problem: 'must be a finite number' };
  if (v === null || typeof v !== 'object') return null;
  if (depth >= MAX_DEPTH) return { field: path || 'value', problem: `is nested deeper than ${MAX_DEPTH} levels` };
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const found = walk(v[i], `${path}[${i}]`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [k, item] of Object.entries(v as Record<string, unknown>)) {
    const at = path ? `${path}.${k}` : k;
    const keyProblem = textProblem(k);
    if (keyProblem) return { field: path ? `a key of ${path}` : 'a key of the body', problem: keyProblem };
    const found = walk(item, at, depth + 1);
    if (found) return found;
  }
  return null;
}
