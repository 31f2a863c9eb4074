/** Tenant-scoped queries on documents. */
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { countOf } from '../../storage/query.js';
import { toIso } from '../../storage/values.js';
import type { DocumentsTable } from './tables.js';

export type DocumentRow = Selectable<DocumentsTable>;

export interface DocumentFilters {
  driver_ids?: number[];
  vehicle_ids?: number[];
  status?: string;
  /** doc_time in [start, end). */
  window?: { start: Date; end: Date };
}

function filtered(db: Kysely<Database>, companyId: number, f: DocumentFilters) {
  let q = db.selectFrom('documents').where('company_id', '=', companyId);
  if (f.driver_ids?.length) q = q.where('driver_id', 'in', f.driver_ids);
  if (f.vehicle_ids?.length) q = q.where('vehicle_id', 'in', f.vehicle_ids);
  if (f.status) q = q.where('status', '=', f.status);
  if (f.window) q = q.where('doc_time', '>=', toIso(f.window.start)).where('doc_time', '<', toIso(f.window.end));
  return q;
}

export async function listDocuments(
  db: Kysely<Database>,
  companyId: number,
  f: DocumentFilters,
  limit: number,
  offset: number,
) {
  const base = filtered(db, companyId, f);
  const [rows, total] = await Promise.all([
    base.selectAll().orderBy('id').limit(limit).offset(offset).execute(),
    countOf(base.select('id')),
  ]);
  return { rows, total };
}

export function findDocument(db: Kysely<Database>, companyId: number, id: number): Promise<DocumentRow | undefined> {
  return db
    .selectFrom('documents')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The pending document a live upload token belongs to (any company: the token is the credential). */
export function findByUploadToken(
  db: Kysely<Database>,
  tokenHash: string,
  now: string,
): Promise<DocumentRow | undefined> {
  return db
    .selectFrom('documents')
    .selectAll()
    .where('upload_token_hash', '=', tokenHash)
    .where('status', '=', 'pending')
    .where('upload_expires_at', '>', now)
    .executeTakeFirst();
}

export async function insertDocument(db: Kysely<Database>, values: Insertable<DocumentsTable>): Promise<number> {
  return (await db.insertInto('documents').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

export async function updateDocument(
  db: Kysely<Database>,
  companyId: number,
  id: number,
  values: Updateable<DocumentsTable>,
) {
  await db.updateTable('documents').set(values).where('company_id', '=', companyId).where('id', '=', id).execute();
}

export async function deleteDocument(db: Kysely<Database>, companyId: number, id: number) {
  await db.deleteFrom('documents').where('company_id', '=', companyId).where('id', '=', id).execute();
}

/** A document as a fuel purchase's receipt shows it. */
export interface ReceiptRow {
  id: number;
  file_name: string | null;
  status: string;
}

/** The company's documents among `ids` (repeats ignored) as receipts, one query. */
export async function receiptRows(
  db: Kysely<Database>,
  companyId: number,
  ids: number[],
): Promise<Map<number, ReceiptRow>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom('documents')
    .select(['id', 'file_name', 'status'])
    .where('company_id', '=', companyId)
    .where('id', 'in', wanted)
    .execute();
  return new Map(rows.map((d) => [d.id, d]));
}
