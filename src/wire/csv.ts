/**
 * CSV as the console's downloads and the IFTA report write it (RFC 4180): a header line first, CRLF line
 * ends, a field quoted when it holds a comma, a quote or a line break (its quotes doubled). Text that a
 * spreadsheet would run as a formula (a leading =, +, @, a tab or carriage return, or a - that does not
 * start a number) is written with a leading apostrophe, so that a vehicle named "=HYPERLINK(…)" stays
 * text (OWASP's advice on CSV injection); numbers are never changed.
 */
const FORMULA = /^(?:[=+@\t\r]|-(?![\d.]))/;

/** One field: empty for null or undefined. */
export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  let s = String(v);
  if (typeof v === 'string' && FORMULA.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A header and rows as one CSV text, every line ended by CRLF. */
export function csvText(header: readonly string[], rows: ReadonlyArray<readonly unknown[]>): string {
  return [header, ...rows].map((r) => `${r.map(csvCell).join(',')}\r\n`).join('');
}
