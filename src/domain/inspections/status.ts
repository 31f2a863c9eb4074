/**
 * The rules of a driver vehicle inspection report (DVIR, 49 CFR 396.11), as pure functions:
 * - each defect is `open` until a mechanic marks it `repaired` or `no_repair_needed`;
 * - the report is `satisfactory` with no defects, `unknown` while any defect is open, and once every
 *   defect is handled `corrected` (at least one repaired) or `harmless` (none needed repair);
 * - the mechanic's sign-off (mechanic and mechanic_signed_at) exists exactly when the report is
 *   corrected or harmless.
 */
export const REPORT_STATUSES = ['satisfactory', 'unknown', 'harmless', 'corrected'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const DEFECT_STATUSES = ['open', 'repaired', 'no_repair_needed'] as const;
export type DefectStatus = (typeof DEFECT_STATUSES)[number];

/** Values of the list's `status` filter (docs/reference/wire.md §9). */
export const STATUS_FILTERS = [
  'all',
  'with_defects',
  'with_no_defects',
  'with_signature_missing',
  'unknown',
  'harmless',
  'corrected',
] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

/** What the update operation may set on the whole report. */
export const SIGN_OFF_STATUSES = ['corrected', 'harmless'] as const;

export function reportStatus(defects: ReadonlyArray<{ status: string }>): ReportStatus {
  if (defects.length === 0) return 'satisfactory';
  if (defects.some((d) => d.status === 'open')) return 'unknown';
  return defects.some((d) => d.status === 'repaired') ? 'corrected' : 'harmless';
}

export const isSignedOff = (s: string) => s === 'corrected' || s === 'harmless';

export interface DefectChange {
  status: DefectStatus;
  /** Defect ids of the report this entry applies to. */
  resolved_defects: number[];
}

export interface PlannedDefect {
  id: number;
  from: string;
  to: DefectStatus;
}

/**
 * The defects an update changes: first each `defect_statuses` entry, in order, then a report-level
 * `status` that settles every defect still open (corrected → repaired, harmless → no_repair_needed).
 * Returns the changed defects only; throws the message of the first problem (unknown defect id,
 * a report-level status on a report without defects).
 */
export function planDefectChanges(
  defects: ReadonlyArray<{ id: number; status: string }>,
  changes: ReadonlyArray<DefectChange>,
  reportLevel: (typeof SIGN_OFF_STATUSES)[number] | undefined,
):
  | { changed: PlannedDefect[]; problem: null }
  | { changed: null; problem: { field: string; message: string; kind: 'not_found' | 'invalid' } } {
  // kind not_found: `message` names the missing thing ("defect 5"); kind invalid: it says what is wrong.
  const current = new Map(defects.map((d) => [d.id, d.status]));
  const next = new Map(current);
  for (const [i, c] of changes.entries()) {
    for (const [j, id] of c.resolved_defects.entries()) {
      if (!current.has(id)) {
        return {
          changed: null,
          problem: {
            field: `defect_statuses[${i}].resolved_defects[${j}]`,
            message: `defect ${id}`,
            kind: 'not_found',
          },
        };
      }
      next.set(id, c.status);
    }
  }
  if (reportLevel) {
    if (defects.length === 0) {
      return {
        changed: null,
        problem: { field: 'status', message: `cannot be ${reportLevel}: the report has no defects`, kind: 'invalid' },
      };
    }
    const settled: DefectStatus = reportLevel === 'corrected' ? 'repaired' : 'no_repair_needed';
    for (const [id, s] of next) if (s === 'open') next.set(id, settled);
  }
  const changed: PlannedDefect[] = [];
  for (const [id, to] of next) {
    const from = current.get(id)!;
    if (from !== to) changed.push({ id, from, to: to as DefectStatus });
  }
  return { changed, problem: null };
}
