/**
 * What the report builders (./reports-tables.ts, ./reports-usage.ts) share: the table a report is, the
 * company's units, and reading an owner's pages for every chunk of ids up to MAX_ROWS.
 */
import type { ReportContext } from '../data/reports-data.js';
import { KM_PER_MI, L_PER_GAL } from '../../../telemetry/units.js';

export type Kind = 'text' | 'time' | 'duration' | 'number';
export interface Column {
  label: string;
  kind: Kind;
  /** The unit a number is in ("mi", "%"), named in the column's heading. */
  unit?: string;
  digits?: number;
}
export type Value = string | number | null;
/** What the chart draws from the table: column `x` across, the `y` columns up. */
export interface ChartSpec {
  type: 'bars' | 'lines' | 'points';
  x: number;
  y: number[];
  label: string;
}
export interface ReportTable {
  columns: Column[];
  rows: Value[][];
  chart: ChartSpec;
  /** Said under the table's heading (what the report leaves out or how it counts). */
  note?: string;
}

/** Rows a report may read; a range with more asks for a narrower filter (docs/errors.md, bounded requests). */
export const MAX_ROWS = 20_000;
export const PAGE = 1000;
/** Ids per `in (…)` list. */
export const CHUNK = 1000;

export const chunks = <T>(xs: T[]): T[][] =>
  Array.from({ length: Math.ceil(xs.length / CHUNK) }, (_, i) => xs.slice(i * CHUNK, (i + 1) * CHUNK));

/** Every row of a paged owner call for every chunk of ids, or null past MAX_ROWS. */
export async function every<T>(
  ids: number[],
  load: (ids: number[], limit: number, offset: number) => Promise<{ rows: T[]; total: number }>,
): Promise<T[] | null> {
  const out: T[] = [];
  for (const part of chunks(ids)) {
    for (let offset = 0; ; offset += PAGE) {
      const { rows, total } = await load(part, PAGE, offset);
      if (out.length - offset + total > MAX_ROWS) return null;
      out.push(...rows);
      if (rows.length < PAGE) break;
    }
  }
  return out;
}

export function unitsOf(metric: boolean) {
  return metric
    ? {
        distance: 'km',
        speed: 'km/h',
        fuel: 'L',
        dist: (km: number) => km,
        spd: (k: number) => k,
        vol: (l: number) => l,
      }
    : {
        distance: 'mi',
        speed: 'mph',
        fuel: 'gal',
        dist: (km: number) => km / KM_PER_MI,
        spd: (k: number) => k / KM_PER_MI,
        vol: (l: number) => l / L_PER_GAL,
      };
}

export const byNumber = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });
export const ms = (iso: string) => Date.parse(iso);
export const tooMany = (what: string) => ({
  error: `More than ${MAX_ROWS.toLocaleString('en-US')} ${what} in this range: choose fewer days, a vehicle or a group.`,
});

export type Built = ReportTable | { error: string };
export type Ctx = ReportContext & { numbers: Map<number, string>; units: ReturnType<typeof unitsOf> };
