/** The document object and its request bodies (wire-format §4.27; fields beyond doc_time are ours, docs/records.md). */
import { Type } from 'typebox';
import type { Db } from '../../storage/db.js';
import { wireTime } from '../../storage/values.js';
import { DOCUMENT_STATUSES, type DocumentRow } from '../../domain/documents/service.js';
import { DateTime, Id, NInt, NStr, Nullable } from './types.js';
import { UserSummary, VehicleSummary } from './summaries.js';
import { loadSummaries } from './record-summaries.js';
import { Moment } from './record-dates.js';

const opt = Type.Optional;
const Text = (maxLength: number, description?: string) => opt(Nullable(Type.String({ maxLength, description })));

export const Document = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  doc_type: NStr(),
  notes: NStr(),
  status: Type.String({ enum: [...DOCUMENT_STATUSES] }),
  doc_time: DateTime('When the document was made; defaults to its upload time'),
  driver: Nullable(UserSummary),
  vehicle: Nullable(VehicleSummary),
  file_name: NStr(),
  content_type: NStr(),
  size_bytes: NInt(),
  sha256: NStr(),
  download_url: Nullable(Type.String({ description: 'GET it with the same credentials (documents.read); null until the file is stored' })),
  upload_url: Nullable(Type.String({ description: 'Two-step upload only, in the create response: PUT the file here once, within an hour' })),
  created_at: DateTime(),
  updated_at: DateTime(),
});

const Fields = {
  name: opt(Type.String({ maxLength: 255, description: 'Title; defaults to the file name' })),
  doc_type: Text(64, 'Free text, e.g. bill_of_lading, proof_of_delivery, fuel_receipt'),
  notes: Text(2000),
  doc_time: opt(Moment('A day (YYYY-MM-DD, read in X-Time-Zone) or a datetime with its offset; default now')),
  driver_id: opt(Nullable(Id())),
  vehicle_id: opt(Nullable(Id())),
};

/** JSON create: the two-step upload (the file itself goes to upload_url). */
export const DocumentCreateBody = Type.Object({
  ...Fields,
  file_name: opt(Type.String({ maxLength: 255, description: 'Two-step upload: the name of the file to come' })),
  content_type: opt(Type.String({ maxLength: 255, description: 'Two-step upload: its media type, one of DOCUMENT_CONTENT_TYPES' })),
});

export const DocumentUpdateBody = Type.Object({
  ...Fields,
  status: opt(Type.String({ enum: ['completed', 'failed'], description: 'Ends a two-step upload: completed (the file is there) or failed' })),
});

export const downloadUrl = (publicUrl: string, id: number) => `${publicUrl}/v1/documents/${id}/download`;
export const uploadUrl = (publicUrl: string, token: string) => `${publicUrl}/uploads/documents/${token}`;

export async function documentsWire(db: Db, companyId: number, publicUrl: string, rows: DocumentRow[], upload?: { id: number; token: string }) {
  const s = await loadSummaries(db, companyId, rows.map((d) => d.driver_id), rows.map((d) => d.vehicle_id));
  return rows.map((d) => ({
    id: d.id,
    name: d.name,
    doc_type: d.doc_type,
    notes: d.notes,
    status: d.status,
    doc_time: wireTime(d.doc_time)!,
    driver: s.user(d.driver_id),
    vehicle: s.vehicle(d.vehicle_id),
    file_name: d.file_name,
    content_type: d.content_type,
    size_bytes: d.size_bytes,
    sha256: d.sha256,
    download_url: d.status === 'completed' ? downloadUrl(publicUrl, d.id) : null,
    upload_url: upload && upload.id === d.id ? uploadUrl(publicUrl, upload.token) : null,
    created_at: wireTime(d.created_at)!,
    updated_at: wireTime(d.updated_at)!,
  }));
}
