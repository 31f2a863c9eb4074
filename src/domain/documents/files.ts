/**
 * Document files: the checks every upload passes (content type, size, bytes that agree with the type)
 * and the way into the blob store. A file that fails a check is never kept: the blob store writes
 * nothing visible until the whole stream was accepted.
 */
import { randomUUID } from 'node:crypto';
import { pipeline, type Readable } from 'node:stream';
import { BlobTooLargeError, type BlobStore, type StoredBlob } from '../../storage/blobs/index.js';
import { AppError, validation } from '../../core/errors.js';
import { ContentCheck, GENERIC_TYPES } from './content.js';

export interface DocumentLimits {
  /** Largest file, bytes (DOCUMENT_MAX_BYTES). */
  maxBytes: number;
  /** Accepted media types, lower case (DOCUMENT_CONTENT_TYPES). */
  contentTypes: readonly string[];
}

/** A stored file, ready to be attached to a document row. */
export interface StoredFile extends StoredBlob {
  key: string;
  file_name: string;
  content_type: string;
}

export const newBlobKey = (companyId: number) => `documents/${companyId}/${randomUUID()}`;

/** `Image/JPEG; charset=x` → `image/jpeg`. */
export const mediaType = (v: string) => v.split(';')[0].trim().toLowerCase();

/** The normalized media type when accepted; otherwise a 400 naming `field` and the accepted types. */
export function acceptedType(limits: DocumentLimits, field: string, contentType: string | undefined): string {
  const type = mediaType(contentType ?? '');
  if (type === '') throw validation(field, `is required (one of: ${limits.contentTypes.join(', ')})`);
  if (!limits.contentTypes.includes(type)) {
    throw validation(field, `${type} is not accepted; accepted types: ${limits.contentTypes.join(', ')}`);
  }
  return type;
}

/**
 * The declared type of an uploaded file: null when it says nothing about the content
 * (application/octet-stream, or none), so that the bytes decide; otherwise as acceptedType.
 */
export function declaredType(limits: DocumentLimits, field: string, contentType: string | undefined): string | null {
  const type = mediaType(contentType ?? '');
  return type === '' || GENERIC_TYPES.includes(type) ? null : acceptedType(limits, field, type);
}

export const tooLarge = (limits: DocumentLimits) =>
  validation('file', `is larger than the limit of ${limits.maxBytes} bytes`);

/** A file name as stored and sent back: no folders, no control characters, at most 255 characters. */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = base
    .replace(/[\u0000-\u001f\u007f"]/g, '')
    .trim()
    .slice(0, 255);
  return clean === '' ? 'file' : clean;
}

const isTooLarge = (err: unknown) =>
  err instanceof BlobTooLargeError || (err as { code?: string })?.code === 'FST_REQ_FILE_TOO_LARGE';

/**
 * Streams a file into the store, checking its bytes against `declared` (null: the bytes decide) on
 * the way; too large, empty, bytes of another type (or a broken stream) leave nothing behind.
 */
export async function storeFile(
  blobs: BlobStore,
  limits: DocumentLimits,
  companyId: number,
  file: { stream: Readable; file_name: string; declared: string | null; truncated?: () => boolean },
): Promise<StoredFile> {
  const key = newBlobKey(companyId);
  const check = new ContentCheck('file', file.declared, limits.contentTypes, () => file.truncated?.() ?? false);
  // The callback form: an error on either side destroys both, as when the file went to the store directly.
  const body = pipeline(file.stream, check, () => {});
  try {
    const stored = await blobs.put(key, body, { maxBytes: limits.maxBytes });
    // A multipart parser that cuts a file at its limit ends the stream early rather than failing it.
    const problem = file.truncated?.() ? tooLarge(limits) : stored.size === 0 ? validation('file', 'is empty') : null;
    if (problem) {
      await blobs.delete(key);
      throw problem;
    }
    return { ...stored, key, file_name: cleanFileName(file.file_name), content_type: check.type! };
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (isTooLarge(err)) throw tooLarge(limits);
    throw err;
  }
}
