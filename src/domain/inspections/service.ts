/**
 * Driver vehicle inspection reports (DVIR, docs/reference/wire.md §4.12): reading, lookup by external id, and the
 * `inspection_report_upserted` event every change records. Reports are created by drivers' devices and
 * the demo seed (./create.ts) and signed off by mechanics through the update operation (./update.ts).
 */
import type { Kysely } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { Database } from '../../storage/schema.js';
import { fromJson } from '../../storage/values.js';
import { notFound, validation } from '../../core/errors.js';
import { recordEvent } from '../../events/outbox.js';
import type { Tenant } from '../tenant.js';
import { externalIdsOf, findByExternalId, type ExternalId } from '../assets/external-ids.js';
import * as repo from './repository.js';

export type { ReportRow, DefectRow, ReportFilters } from './repository.js';

export async function getReport(db: Db, t: Tenant, id: number): Promise<repo.ReportRow> {
  const row = await repo.findReport(db.kysely, t.companyId, id);
  if (!row) throw notFound(`inspection report ${id}`);
  return row;
}

export function listReports(db: Db, t: Tenant, f: repo.ReportFilters, limit: number, offset: number) {
  return repo.listReports(db.kysely, t.companyId, f, limit, offset);
}

/** `GET /v1/inspection_reports/lookup_by_external_id`: the report holding this external id, or 404. */
export async function lookupReport(db: Db, t: Tenant, key: Partial<ExternalId>): Promise<repo.ReportRow> {
  if (!key.external_id?.trim()) throw validation('external_id', 'is required');
  if (!key.integration_name?.trim()) throw validation('integration_name', 'is required');
  const id = await findByExternalId(db.kysely, t.companyId, 'inspection_report', key as ExternalId);
  const row = id === undefined ? undefined : await repo.findReport(db.kysely, t.companyId, id);
  if (!row) throw notFound('inspection report');
  return row;
}

export const reportDefects = (db: Db, ids: number[]) => repo.defectsOf(db.kysely, ids);
export const reportExternalIds = (db: Db, ids: number[]) => externalIdsOf(db.kysely, 'inspection_report', ids);

/** The domain snapshot an event carries: the report, its defects and external ids. */
export async function reportSnapshot(db: Kysely<Database>, companyId: number, id: number) {
  const row = await repo.findReport(db, companyId, id);
  if (!row) return null;
  const [defects, external] = await Promise.all([
    repo.defectsOf(db, [id]),
    externalIdsOf(db, 'inspection_report', [id]),
  ]);
  return {
    ...row,
    trailer_nums: fromJson<string[]>(row.trailer_nums, []),
    defects: (defects.get(id) ?? []).map(({ id: defectId, area, category, notes, status }) => ({
      id: defectId,
      area,
      category,
      notes,
      status,
    })),
    external_ids: external.get(id) ?? [],
  };
}

/** Records `inspection_report_upserted` in the caller's transaction. */
export async function announceReport(
  trx: Kysely<Database>,
  companyId: number,
  id: number,
  trigger: 'created' | 'updated',
) {
  const data = await reportSnapshot(trx, companyId, id);
  if (data) {
    await recordEvent(trx, {
      companyId,
      action: 'inspection_report_upserted',
      trigger,
      subject: { type: 'inspection_report', id },
      data,
    });
  }
}
