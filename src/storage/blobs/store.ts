/**
 * The blob store: where file contents (document uploads) live, apart from the database rows that
 * describe them. A small contract so that another backend (an S3-compatible bucket) can take the
 * place of the local disk without touching the services.
 *
 * Keys are chosen by the services, never by clients: `documents/<company id>/<uuid>`.
 */
import type { Readable } from 'node:stream';

export interface StoredBlob {
  size: number;
  /** Lower-case hex SHA-256 of the content. */
  sha256: string;
}

export interface BlobStore {
  /** A short name for logs and docs, e.g. `local-disk`. */
  readonly kind: string;
  /**
   * Stores the stream under `key`. The blob becomes visible only when the whole stream was written:
   * a failed stream, or one longer than `maxBytes` (BlobTooLargeError), leaves nothing behind.
   */
  put(key: string, body: Readable, opts: { maxBytes: number }): Promise<StoredBlob>;
  /** The content, or null when there is no blob under `key`. */
  open(key: string): Promise<Readable | null>;
  exists(key: string): Promise<boolean>;
  /** Removes the blob; removing a missing blob is not an error. */
  delete(key: string): Promise<void>;
}

export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`blob is larger than ${maxBytes} bytes`);
  }
}

/** Keys are slash-separated segments of letters, digits, `-` and `_` (no `.`, so no way out of the store). */
export const BLOB_KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;

export function assertBlobKey(key: string): void {
  if (!BLOB_KEY.test(key) || key.length > 512) throw new Error(`invalid blob key "${key}"`);
}
