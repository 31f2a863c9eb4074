/** Kysely table types of documents (migration 0004_records). Values follow storage/values.ts. */
import type { Generated } from 'kysely';

export interface DocumentsTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  doc_type: string | null;
  notes: string | null;
  /** `pending` (waiting for its file), `completed` (file stored) or `failed`. */
  status: string;
  /** When the document was made (e.g. when the driver took the picture); defaults to the upload time. */
  doc_time: string;
  driver_id: number | null;
  vehicle_id: number | null;
  /** Free text, e.g. `dispatch`, `notes` (docs/records.md). */
  category: string | null;
  ref_no: string | null;
  /** The document's day (YYYY-MM-DD): sent, or the day of doc_time in the request's time zone. */
  doc_date: string | null;
  /** JSON text of the document's fields (an object), answered as that text. */
  doc_fields: string | null;
  /** A document form of the real API's; no such form is kept here, so not checked. */
  document_form_id: number | null;
  /** The acting user of the create (X-User-Id, else the company's first active admin). */
  uploader_id: number | null;
  file_name: string | null;
  content_type: string | null;
  size_bytes: number | null;
  /** Lower-case hex SHA-256 of the stored file. */
  sha256: string | null;
  /** Where the file is in the blob store; null until a file is stored. */
  blob_key: string | null;
  /** Two-step upload: SHA-256 of the one-time upload token, and when it stops working. */
  upload_token_hash: string | null;
  upload_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface DocumentTables {
  documents: DocumentsTable;
}
