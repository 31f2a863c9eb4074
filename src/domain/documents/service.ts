/**
 * Documents (docs/reference/wire.md §4.27): files a fleet keeps (bills of lading, receipts, pictures a driver
 * took), each with its `doc_time`. A document is created with its file in one request (multipart),
 * or first as `pending` with a one-time upload URL and then completed by the upload (the two-step flow
 * of the real API). Files live in the blob store; a row never points at a file that is not there.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely, Updateable } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { Database } from '../../storage/schema.js';
import type { BlobStore } from '../../storage/blobs/index.js';
import { nowIso, toIso } from '../../storage/values.js';
import { AppError, notFound, validation } from '../../core/errors.js';
import { recordEvent } from '../../events/outbox.js';
import { actingUserId } from '../users/acting.js';
import type { Tenant } from '../tenant.js';
import { assertReferences } from './references.js';
import { acceptedType, cleanFileName, type DocumentLimits, type StoredFile } from './files.js';
import type { DocumentsTable } from './tables.js';
import * as repo from './repository.js';
import type { DocumentInput, PendingDocumentInput } from './input.js';
import { dropReceipt } from '../fuel/repository.js';

export type { DocumentRow, DocumentFilters } from './repository.js';

/** How long a two-step upload URL works, seconds. */
export const UPLOAD_URL_TTL_S = 3600;
export const DOCUMENT_STATUSES = ['pending', 'completed', 'failed'] as const;

const LIMITS = { name: 255, doc_type: 64, notes: 2000, category: 64, ref_no: 255 } as const;
/** Longest doc_fields, as JSON text. */
export const DOC_FIELDS_MAX = 10_000;

/** doc_fields as stored: the JSON text of an object, or null. */
function docFields(v: Record<string, unknown> | string): string | null {
  let value: unknown = v;
  if (typeof v === 'string') {
    if (v.trim() === '') return null;
    try {
      value = JSON.parse(v);
    } catch {
      throw validation('doc_fields', 'must be a JSON object (or the JSON text of one)');
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw validation('doc_fields', 'must be a JSON object (or the JSON text of one)');
  const text = JSON.stringify(value);
  if (text.length > DOC_FIELDS_MAX)
    throw validation('doc_fields', `must be at most ${DOC_FIELDS_MAX} characters long as JSON`);
  return text;
}

function columns(input: DocumentInput): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of ['name', 'doc_type', 'notes', 'category', 'ref_no'] as const) {
    const v = input[f];
    if (v === undefined) continue;
    if (v !== null && v.length > LIMITS[f]) throw validation(f, `must be at most ${LIMITS[f]} characters long`);
    out[f] = v === null || v.trim() === '' ? null : v.trim();
  }
  if (input.name !== undefined && out.name === null) throw validation('name', 'must not be empty');
  if (input.doc_time !== undefined) out.doc_time = input.doc_time;
  if (input.driver_id !== undefined) out.driver_id = input.driver_id;
  if (input.vehicle_id !== undefined) out.vehicle_id = input.vehicle_id;
  if (input.doc_date !== undefined) out.doc_date = input.doc_date;
  if (input.doc_fields !== undefined) out.doc_fields = input.doc_fields === null ? null : docFields(input.doc_fields);
  if (input.document_form_id !== undefined) out.document_form_id = input.document_form_id;
  return out;
}

async function announce(trx: Kysely<Database>, t: Tenant, id: number, trigger: 'created' | 'updated') {
  const row = await repo.findDocument(trx, t.companyId, id);
  const data = row && { ...row, upload_token_hash: undefined };
  await recordEvent(trx, {
    companyId: t.companyId,
    action: 'document_upserted',
    trigger,
    subject: { type: 'document', id },
    data,
  });
}

export async function getDocument(db: Db, t: Tenant, id: number): Promise<repo.DocumentRow> {
  const row = await repo.findDocument(db.kysely, t.companyId, id);
  if (!row) throw notFound(`document ${id}`);
  return row;
}

export function listDocuments(db: Db, t: Tenant, f: repo.DocumentFilters, limit: number, offset: number) {
  return repo.listDocuments(db.kysely, t.companyId, f, limit, offset);
}

async function insert(db: Db, t: Tenant, values: Record<string, unknown>): Promise<number> {
  return db.kysely.transaction().execute(async (trx) => {
    const id = await repo.insertDocument(trx, values as never);
    await announce(trx, t, id, 'created');
    return id;
  });
}

/** One-step create: the file is already in the blob store; any refusal removes it again. */
export async function createWithFile(
  db: Db,
  blobs: BlobStore,
  t: Tenant & { actingUserId?: number | null },
  input: DocumentInput,
  file: StoredFile,
) {
  try {
    const values = columns(input);
    await assertReferences(db.kysely, t.companyId, input);
    const now = nowIso();
    const id = await insert(db, t, {
      name: file.file_name,
      doc_time: now,
      ...values,
      status: 'completed',
      file_name: file.file_name,
      content_type: file.content_type,
      size_bytes: file.size,
      sha256: file.sha256,
      blob_key: file.key,
      uploader_id: await actingUserId(db, t),
      company_id: t.companyId,
      created_at: now,
      updated_at: now,
    });
    return getDocument(db, t, id);
  } catch (err) {
    await blobs.delete(file.key);
    throw err;
  }
}

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** Two-step create: a pending document and the one-time token of its upload URL (shown once). */
export async function createPending(
  db: Db,
  limits: DocumentLimits,
  t: Tenant & { actingUserId?: number | null },
  input: PendingDocumentInput,
): Promise<{ row: repo.DocumentRow; token: string }> {
  if (input.file_name === undefined || input.file_name.trim() === '') throw validation('file_name', 'is required');
  const contentType = acceptedType(limits, 'content_type', input.content_type);
  const values = columns(input);
  await assertReferences(db.kysely, t.companyId, input);
  const token = randomBytes(32).toString('base64url');
  const now = nowIso();
  const fileName = cleanFileName(input.file_name);
  const id = await insert(db, t, {
    name: fileName,
    doc_time: now,
    ...values,
    status: 'pending',
    file_name: fileName,
    content_type: contentType,
    upload_token_hash: tokenHash(token),
    upload_expires_at: toIso(Date.now() + UPLOAD_URL_TTL_S * 1000),
    uploader_id: await actingUserId(db, t),
    company_id: t.companyId,
    created_at: now,
    updated_at: now,
  });
  return { row: await getDocument(db, t, id), token };
}

const uploadGone = () => new AppError('not_found', 'upload URL not found: it is unknown, already used or expired');

/** The pending document behind an upload token, or 404. */
export async function pendingUpload(db: Db, token: string): Promise<repo.DocumentRow> {
  const row = await repo.findByUploadToken(db.kysely, tokenHash(token), nowIso());
  if (!row) throw uploadGone();
  return row;
}

/** Second step: attaches the stored file to the pending document, once. Refused → the file is removed. */
export async function completeUpload(db: Db, blobs: BlobStore, row: repo.DocumentRow, token: string, file: StoredFile) {
  const t = { companyId: row.company_id };
  const done = await db.kysely.transaction().execute(async (trx) => {
    const res = await trx
      .updateTable('documents')
      .set({
        status: 'completed',
        size_bytes: file.size,
        sha256: file.sha256,
        blob_key: file.key,
        upload_token_hash: null,
        upload_expires_at: null,
        updated_at: nowIso(),
      })
      .where('id', '=', row.id)
      .where('upload_token_hash', '=', tokenHash(token))
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return false;
    await announce(trx, t, row.id, 'updated');
    return true;
  });
  if (!done) {
    await blobs.delete(file.key);
    throw uploadGone();
  }
  return getDocument(db, t, row.id);
}

function statusChange(row: repo.DocumentRow, status: string | undefined): Updateable<DocumentsTable> {
  if (status === undefined || status === row.status) {
    if (status === 'completed' && !row.blob_key) throw noFile(row.id);
    return {};
  }
  if (status === 'completed') throw noFile(row.id);
  if (row.status !== 'pending')
    throw new AppError(
      'invalid_state',
      `document ${row.id} is ${row.status}; only a pending document can be marked ${status}`,
    );
  return { status, upload_token_hash: null, upload_expires_at: null };
}

const noFile = (id: number) =>
  new AppError('invalid_state', `document ${id} has no file yet: upload it before marking it completed`);

export async function updateDocument(db: Db, t: Tenant, id: number, input: DocumentInput) {
  const row = await getDocument(db, t, id);
  const values = { ...columns(input), ...statusChange(row, input.status), updated_at: nowIso() };
  await assertReferences(db.kysely, t.companyId, input);
  await db.kysely.transaction().execute(async (trx) => {
    await repo.updateDocument(trx, t.companyId, id, values as Updateable<DocumentsTable>);
    await announce(trx, t, id, 'updated');
  });
  return getDocument(db, t, id);
}

/** Deletes the row, then its file. */
export async function deleteDocument(db: Db, blobs: BlobStore, t: Tenant, id: number): Promise<void> {
  const row = await getDocument(db, t, id);
  await db.kysely.transaction().execute(async (trx) => {
    await dropReceipt(trx, t.companyId, id);
    await repo.deleteDocument(trx, t.companyId, id);
    await recordEvent(trx, {
      companyId: t.companyId,
      action: 'document_deleted',
      subject: { type: 'document', id },
      data: { ...row, upload_token_hash: undefined },
    });
  });
  if (row.blob_key) await blobs.delete(row.blob_key);
}

/** The document's file for download; 404 for another company's document or one without a file. */
export async function openFile(db: Db, blobs: BlobStore, t: Tenant, id: number) {
  const row = await getDocument(db, t, id);
  const stream = row.status === 'completed' && row.blob_key ? await blobs.open(row.blob_key) : null;
  if (!stream) throw notFound(`file of document ${id}`);
  return { row, stream };
}
