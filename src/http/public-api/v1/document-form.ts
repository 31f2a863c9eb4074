/**
 * The multipart form of a one-step document upload: the file in the form field `file`, the other
 * document fields as text fields (in any order, before or after the file). The file streams into the
 * blob store as it arrives; if anything in the form is refused afterwards, the stored file is removed.
 */
import type { FastifyRequest } from 'fastify';
import type { BlobStore } from '../../../storage/blobs/index.js';
import { toIso } from '../../../storage/values.js';
import { findUnportable, textProblem } from '../../../storage/portable-values.js';
import { AppError, badRequest, validation } from '../../../core/errors.js';
import { momentOf } from '../../../wire/record-dates.js';
import type { DocumentInput } from '../../../domain/documents/input.js';
import {
  declaredType,
  storeFile,
  tooLarge,
  type DocumentLimits,
  type StoredFile,
} from '../../../domain/documents/files.js';
import { ID_MAX } from '../../../core/ids.js';
import { MOMENT_PATTERN } from '../../../core/schema.js';

const MOMENT = new RegExp(MOMENT_PATTERN);

function idField(field: string, v: string): number | undefined {
  if (v.trim() === '') return undefined;
  const n = Number(v.trim());
  if (!/^\d+$/.test(v.trim()) || n < 1 || n > ID_MAX) throw validation(field, 'must be an integer');
  return n;
}

/** Text fields of the form → the same input a JSON body gives. */
export function formInput(fields: Record<string, string>, zone: string): DocumentInput {
  const unportable = findUnportable(fields, 'form');
  if (unportable) throw validation(unportable.field, unportable.problem);
  const out: DocumentInput = {};
  if (fields.name !== undefined && fields.name.trim() !== '') out.name = fields.name;
  if (fields.doc_type !== undefined) out.doc_type = fields.doc_type;
  if (fields.notes !== undefined) out.notes = fields.notes;
  if (fields.doc_time !== undefined && fields.doc_time.trim() !== '') {
    if (!MOMENT.test(fields.doc_time.trim())) throw validation('doc_time', 'has an invalid format');
    out.doc_time = toIso(momentOf('doc_time', fields.doc_time.trim(), zone));
  }
  for (const f of ['driver_id', 'vehicle_id', 'document_form_id'] as const)
    if (fields[f] !== undefined) out[f] = idField(f, fields[f]);
  for (const f of ['category', 'ref_no', 'doc_fields'] as const) if (fields[f] !== undefined) out[f] = fields[f];
  if (fields.doc_date !== undefined && fields.doc_date.trim() !== '') out.doc_date = fields.doc_date.trim();
  return out;
}

/**
 * The multipart parser reports a body that does not follow its boundary (none in the header, a part
 * cut short, a malformed part header) as a plain Error with no code; its stack names the parser.
 * Failures of the blob store carry a system error code and stay 500s.
 */
function fromParser(err: unknown): boolean {
  return (
    err instanceof Error && !(err as { code?: unknown }).code && /[\\/]@fastify[\\/]busboy[\\/]/.test(err.stack ?? '')
  );
}

function multipartError(err: unknown, limits: DocumentLimits): unknown {
  if (err instanceof AppError) return err;
  switch ((err as { code?: string })?.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge(limits);
    case 'FST_FILES_LIMIT':
      return badRequest('send exactly one file, in the form field "file"');
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return badRequest('the form has too many fields');
    default:
      break; // any other error (or none) is classified below
  }
  const status = (err as { statusCode?: number })?.statusCode;
  if ((status && status >= 400 && status < 500) || fromParser(err))
    return badRequest(`the multipart body is malformed: ${(err as Error).message}`);
  return err;
}

export async function readDocumentForm(
  req: FastifyRequest,
  blobs: BlobStore,
  limits: DocumentLimits,
  companyId: number,
  zone: string,
): Promise<{ input: DocumentInput; file: StoredFile }> {
  let file: StoredFile | null = null;
  const fields: Record<string, string> = {};
  try {
    const parts = req.parts({
      limits: { fileSize: limits.maxBytes, files: 1, fields: 20, fieldSize: 10_000, parts: 21 },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        fields[part.fieldname] = String(part.value ?? '');
        continue;
      }
      if (part.fieldname !== 'file')
        throw validation('file', `must be sent in the form field "file", not "${part.fieldname}"`);
      const nameProblem = textProblem(part.filename ?? '');
      if (nameProblem) throw validation('file name', nameProblem);
      file = await storeFile(blobs, limits, companyId, {
        stream: part.file,
        file_name: part.filename,
        declared: declaredType(limits, 'file', part.mimetype),
        truncated: () => part.file.truncated,
      });
    }
    if (!file) throw validation('file', 'is required (a multipart form field named "file")');
    return { input: formInput(fields, zone), file };
  } catch (err) {
    if (file) await blobs.delete(file.key);
    throw multipartError(err, limits);
  }
}
