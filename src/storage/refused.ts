/**
 * Errors that mean "the database will not store these values" — the same values are refused every
 * time they are sent — as opposed to "the database cannot be reached right now" (./unavailable.ts:
 * send again later) or a fault of the code. Input is checked before any write (./portable-values.ts),
 * so reaching one of these is a gap in that check; where one record of many is written (a device
 * batch), the refusal is that record's rejection instead of a failure of all of them.
 * - PostgreSQL: class 22 (data exception: text it cannot encode, a number out of range, …) and class 23
 *   (integrity constraint violation);
 * - SQLite: a constraint (CHECK, NOT NULL, FOREIGN KEY, a trigger's RAISE, …), a value of the wrong
 *   type for the column, or one too big.
 */
const SQLITE_CODES = /^SQLITE_(CONSTRAINT(_\w+)?|MISMATCH|TOOBIG)$/;
const PG_CLASSES = /^2[23][0-9A-Z]{3}$/;

export function isRefusedValue(err: unknown): boolean {
  const code = (err as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' && (SQLITE_CODES.test(code) || PG_CLASSES.test(code));
}
