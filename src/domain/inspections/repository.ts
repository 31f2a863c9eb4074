/** Tenant-scoped queries on inspection reports and their defects. */
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../storage/schema.js';
import type { InspectionDefectsTable, InspectionReportsTable } from './tables.js';
import { countOf } from '../../storage/query.js';
import type { StatusFilter } from './status.js';

export type ReportRow = Selectable<InspectionReportsTable>;
export type DefectRow = Selectable<InspectionDefectsTable>;

export interface ReportFilters {
  driver_ids?: number[];
  vehicle_ids?: number[];
  status?: StatusFilter;
  /** Inspections whose `time` falls in [start, end). */
  window?: { start: Date; end: Date };
  /** Reports changed (created or updated) strictly after this instant. */
  updatedAfter?: Date;
}

function filtered(db: Kysely<Database>, companyId: number, f: ReportFilters) {
  let q = db.selectFrom('inspection_reports').where('inspection_reports.company_id', '=', companyId);
  if (f.driver_ids?.length) q = q.where('driver_id', 'in', f.driver_ids);
  if (f.vehicle_ids?.length) q = q.where('vehicle_id', 'in', f.vehicle_ids);
  if (f.window) q = q.where('time', '>=', f.window.start.toISOString()).where('time', '<', f.window.end.toISOString());
  if (f.updatedAfter) q = q.where('updated_at', '>', f.updatedAfter.toISOString());
  switch (f.status) {
    case undefined:
    case 'all':
      break;
    case 'with_defects':
      q = q.where('defect_count', '>', 0);
      break;
    case 'with_no_defects':
      q = q.where('defect_count', '=', 0);
      break;
    case 'with_signature_missing':
      q = q.where((eb) =>
        eb.or([
          eb('driver_signed_at', 'is', null),
          eb.and([eb('defect_count', '>', 0), eb('mechanic_signed_at', 'is', null)]),
        ]),
      );
      break;
    default:
      q = q.where('status', '=', f.status);
  }
  return q;
}

export async function listReports(
  db: Kysely<Database>,
  companyId: number,
  f: ReportFilters,
  limit: number,
  offset: number,
) {
  const base = filtered(db, companyId, f);
  const [rows, total] = await Promise.all([
    base.selectAll('inspection_reports').orderBy('id').limit(limit).offset(offset).execute(),
    countOf(base.select('id')),
  ]);
  return { rows, total };
}

export function findReport(db: Kysely<Database>, companyId: number, id: number): Promise<ReportRow | undefined> {
  return db
    .selectFrom('inspection_reports')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The defects of a page of reports, in report order, in one query. */
export async function defectsOf(db: Kysely<Database>, reportIds: number[]): Promise<Map<number, DefectRow[]>> {
  const out = new Map<number, DefectRow[]>(reportIds.map((id) => [id, []]));
  if (reportIds.length === 0) return out;
  const rows = await db
    .selectFrom('inspection_defects')
    .selectAll()
    .where('report_id', 'in', reportIds)
    .orderBy('report_id')
    .orderBy('position')
    .execute();
  for (const r of rows) out.get(r.report_id)?.push(r);
  return out;
}

/** The (driver, date) pairs with an inspection report among these drivers and days, for the HOS logs' DVIR check. */
export function reportDays(db: Kysely<Database>, companyId: number, driverIds: number[], dates: string[]) {
  return db
    .selectFrom('inspection_reports')
    .select(['driver_id', 'date'])
    .where('company_id', '=', companyId)
    .where('driver_id', 'in', driverIds)
    .where('date', 'in', dates)
    .execute();
}
