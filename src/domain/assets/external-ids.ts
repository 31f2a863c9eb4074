/**
 * External ids of vehicles, assets and inspection reports: `{external_id, integration_name}` pairs an integrator
 * attaches to our objects and looks them up by (`lookup_by_external_id`). Within one company an
 * (integration_name, external_id) pair names at most one object of a kind.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { nowIso } from '../../storage/values.js';
import { AppError, validation } from '../../core/errors.js';

export type ExternalSubject = 'vehicle' | 'asset' | 'inspection_report';

export interface ExternalId {
  external_id: string;
  integration_name: string;
}

/** Trims and checks a set of external ids: non-empty values, one external id per integration. */
export function normalizeExternalIds(field: string, ids: ExternalId[]): ExternalId[] {
  const out: ExternalId[] = [];
  const seen = new Set<string>();
  ids.forEach((e, i) => {
    const external_id = e.external_id.trim();
    const integration_name = e.integration_name.trim();
    if (!external_id) throw validation(`${field}[${i}].external_id`, 'must not be empty');
    if (!integration_name) throw validation(`${field}[${i}].integration_name`, 'must not be empty');
    if (seen.has(integration_name)) {
      throw validation(`${field}[${i}].integration_name`, `"${integration_name}" appears more than once`);
    }
    seen.add(integration_name);
    out.push({ external_id, integration_name });
  });
  return out;
}

/** Refuses pairs another object of the same kind already holds (400 naming the pair). */
export async function assertExternalIdsFree(
  db: Kysely<Database>,
  companyId: number,
  subject: ExternalSubject,
  subjectId: number,
  ids: ExternalId[],
): Promise<void> {
  for (const e of ids) {
    const row = await db
      .selectFrom('record_external_ids')
      .select('subject_id')
      .where('company_id', '=', companyId)
      .where('subject_type', '=', subject)
      .where('integration_name', '=', e.integration_name)
      .where('external_id', '=', e.external_id)
      .executeTakeFirst();
    if (row && row.subject_id !== subjectId) {
      throw new AppError(
        'duplicate',
        `external_id "${e.external_id}" of integration "${e.integration_name}" already belongs to ${subject.replace('_', ' ')} ${row.subject_id}`,
      );
    }
  }
}

/** Replaces the external ids of one object (inside the caller's transaction). */
export async function setExternalIds(
  trx: Kysely<Database>,
  companyId: number,
  subject: ExternalSubject,
  subjectId: number,
  ids: ExternalId[],
): Promise<void> {
  await trx
    .deleteFrom('record_external_ids')
    .where('subject_type', '=', subject)
    .where('subject_id', '=', subjectId)
    .execute();
  if (ids.length === 0) return;
  const now = nowIso();
  await trx
    .insertInto('record_external_ids')
    .values(
      ids.map((e) => ({ company_id: companyId, subject_type: subject, subject_id: subjectId, ...e, created_at: now })),
    )
    .execute();
}

/** External ids of a page of objects, in one query. */
export async function externalIdsOf(
  db: Kysely<Database>,
  subject: ExternalSubject,
  ids: number[],
): Promise<Map<number, ExternalId[]>> {
  const out = new Map<number, ExternalId[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom('record_external_ids')
    .select(['subject_id', 'external_id', 'integration_name'])
    .where('subject_type', '=', subject)
    .where('subject_id', 'in', ids)
    .orderBy('integration_name')
    .execute();
  for (const r of rows)
    out.get(r.subject_id)?.push({ external_id: r.external_id, integration_name: r.integration_name });
  return out;
}

/** The object holding an external id, or undefined. */
export async function findByExternalId(
  db: Kysely<Database>,
  companyId: number,
  subject: ExternalSubject,
  key: ExternalId,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('record_external_ids')
    .select('subject_id')
    .where('company_id', '=', companyId)
    .where('subject_type', '=', subject)
    .where('integration_name', '=', key.integration_name.trim())
    .where('external_id', '=', key.external_id.trim())
    .executeTakeFirst();
  return row?.subject_id;
}
