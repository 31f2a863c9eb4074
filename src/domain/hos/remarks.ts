/**
 * What a daily log lists among its `remarks` (docs/reference/wire.md §4.8: `{id, time, notes, location}`):
 * the driver's remarks, exception claims, and ELD malfunctions and data diagnostics as they begin and
 * clear. The Motive log has no other place for a timed note, so a claim and a malfunction are shown
 * there with their name first (docs/hos.md, Remarks, certifications and malfunctions).
 */

/**
 * ELD malfunctions (letters) and data diagnostics (numbers), 49 CFR 395 App. A §4.6, Table 4 (a
 * diagnostic's name without the words "data diagnostic", which the remark says first).
 */
export const MALFUNCTION_NAMES: Record<string, string> = {
  P: 'power compliance',
  E: 'engine synchronization compliance',
  T: 'timing compliance',
  L: 'positioning compliance',
  R: 'data recording compliance',
  S: 'data transfer compliance',
  O: 'other',
};
export const DIAGNOSTIC_NAMES: Record<string, string> = {
  '1': 'power',
  '2': 'engine synchronization',
  '3': 'missing required data elements',
  '4': 'data transfer',
  '5': 'unidentified driving records',
  '6': 'other',
};
export const MALFUNCTION_CODES = [...Object.keys(MALFUNCTION_NAMES), ...Object.keys(DIAGNOSTIC_NAMES)] as const;

export type MalfunctionKind = 'malfunction' | 'malfunction_cleared' | 'diagnostic' | 'diagnostic_cleared';

/** The log record of a malfunction or diagnostic code that began or cleared (event type 7, codes 1–4). */
export function malfunctionKind(code: string, status: 'began' | 'cleared'): MalfunctionKind {
  const diagnostic = Object.hasOwn(DIAGNOSTIC_NAMES, code);
  if (status === 'began') return diagnostic ? 'diagnostic' : 'malfunction';
  return diagnostic ? 'diagnostic_cleared' : 'malfunction_cleared';
}

const CLAIM_NAMES: Record<string, string> = {
  adverse_driving: 'Adverse driving conditions',
  sixteen_hour: '16-hour short-haul exception',
};

const MALFUNCTION_WORDS: Record<MalfunctionKind, string> = {
  malfunction: 'began',
  malfunction_cleared: 'cleared',
  diagnostic: 'began',
  diagnostic_cleared: 'cleared',
};

/** The name a remark starts with, for the record kinds that have one. */
function nameOf(kind: string, code: string | null): string | null {
  if (kind === 'exception') return CLAIM_NAMES[code ?? ''] ?? code;
  if (Object.hasOwn(MALFUNCTION_WORDS, kind)) {
    const c = code ?? '';
    const what = Object.hasOwn(DIAGNOSTIC_NAMES, c)
      ? `Data diagnostic ${c} (${DIAGNOSTIC_NAMES[c]})`
      : `Malfunction ${c} (${MALFUNCTION_NAMES[c] ?? 'unknown'})`;
    return `${what} ${MALFUNCTION_WORDS[kind as MalfunctionKind]}`;
  }
  return null;
}

/** Record kinds a log lists among its remarks. */
export const REMARK_KINDS: ReadonlySet<string> = new Set(['remark', 'exception', ...Object.keys(MALFUNCTION_WORDS)]);

/**
 * A remark's notes: a driver's remark as written; a claim or a malfunction by its name, then the
 * driver's or the ELD's note after a colon — `Adverse driving conditions: Snow on I-80`,
 * `Malfunction P (power compliance) began: unplugged`.
 */
export function remarkNotes(kind: string, code: string | null, notes: string | null): string | null {
  const name = nameOf(kind, code);
  if (name === null) return notes;
  return notes ? `${name}: ${notes}` : name;
}
