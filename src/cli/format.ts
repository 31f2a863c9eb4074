/**
 * How `list` and `show` print without --json: a table with a header row, and `label: value` lines.
 * Empty values print as `-`; a cell longer than CELL_MAX is cut with `…` (--json has every value whole).
 */
import type { Ctx, Page } from './io.js';

export type Cell = string | number | boolean | null | undefined;

export const CELL_MAX = 40;

const text = (v: Cell): string => {
  if (v === null || v === undefined || v === '') return '-';
  const s = String(v).replace(/\s+/g, ' ');
  return s.length > CELL_MAX ? `${s.slice(0, CELL_MAX - 1)}…` : s;
};

/** Columns separated by two spaces; a column whose values are all numbers is right-aligned. */
export function table(header: string[], rows: Cell[][]): string {
  const cells = rows.map((r) => r.map(text));
  const numeric = header.map(
    (_, i) =>
      rows.some((r) => typeof r[i] === 'number') &&
      rows.every((r) => typeof r[i] === 'number' || r[i] === null || r[i] === undefined),
  );
  const width = header.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (numeric[i] ? c.padStart(width[i]) : i === r.length - 1 ? c : c.padEnd(width[i])))
      .join('  ')
      .trimEnd();
  return [line(header.map((h, i) => (numeric[i] ? h.padStart(width[i]) : h))), ...cells.map(line)].join('\n');
}

/** `label:  value` lines, the values aligned. */
export function fields(pairs: Array<[string, Cell]>): string {
  const width = Math.max(...pairs.map(([k]) => k.length)) + 1;
  return pairs
    .map(([k, v]) => `${`${k}:`.padEnd(width)}  ${v === null || v === undefined || v === '' ? '-' : String(v)}`)
    .join('\n');
}

/** A value of a record as one line: lists joined with commas, objects as JSON. */
function line(v: unknown): Cell {
  if (Array.isArray(v)) return v.every((x) => typeof x !== 'object' || x === null) ? v.join(', ') : JSON.stringify(v);
  if (v !== null && typeof v === 'object') return JSON.stringify(v);
  return v as Cell;
}

/** Prints one record: itself with --json, else one `key: value` line per field. */
export function printRecord(ctx: Ctx, record: Record<string, unknown>): void {
  ctx.print(record, fields(Object.entries(record).map(([k, v]) => [k, line(v)])));
}

export interface Listing<R> {
  /** The JSON key of the list, e.g. `users`. */
  name: string;
  rows: R[];
  total: number;
  page: Page;
  /** What the JSON list holds for each row. */
  json(row: R): unknown;
  header: string[];
  cells(row: R): Cell[];
  /** Said when there is no row at all, e.g. `No user in company 1.` */
  none: string;
}

/**
 * Prints a page of records: `{"<name>": [...], "total": N}` with --json; else a table, and under it
 * which rows of how many it showed when there are more than one page holds.
 */
export function printListing<R>(ctx: Ctx, l: Listing<R>): void {
  const json = { [l.name]: l.rows.map((r) => l.json(r)), total: l.total };
  if (l.total === 0) return ctx.print(json, l.none);
  const lines = [
    table(
      l.header,
      l.rows.map((r) => l.cells(r)),
    ),
  ];
  const first = l.page.offset + 1;
  const last = l.page.offset + l.rows.length;
  if (l.rows.length === 0) lines.push(`Nothing from --offset ${l.page.offset}: there are ${l.total}.`);
  else if (first > 1 || last < l.total) {
    lines.push(`${first}–${last} of ${l.total}${last < l.total ? ` (--offset ${last} for the next ones)` : ''}`);
  }
  ctx.print(json, lines.join('\n'));
}
