/**
 * The document object (docs/reference/wire.md §4.27; fields beyond doc_time are ours, docs/records.md); its
 * request bodies are the area's (src/domain/documents/input.ts).
 */
import { Type } from 'typebox';
import { wireTime } from '../storage/values.js';
import { DOCUMENT_STATUSES, type DocumentRow } from '../domain/documents/service.js';
import type { DocumentInput } from '../domain/documents/input.js';
import { DateTime, NDateTime, NInt, NStr } from './types.js';
import { UserSummary, VehicleSummary } from './summaries.js';
import type { Embeds } from './embeds.js';
import type { UploaderRow } from '../domain/users/summaries.js';
import { validDay } from './record-dates.js';
import { localDate } from '../core/time-zone.js';
import { Nullable } from '../core/schema.js';

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
  download_url: Nullable(
    Type.String({ description: 'GET it with the same credentials (documents.read); null until the file is stored' }),
  ),
  upload_url: Nullable(
    Type.String({
      description: 'Two-step upload only, in the create response: PUT the file here once, within an hour',
    }),
  ),
  created_at: DateTime(),
  updated_at: DateTime(),
  category: NStr(),
  ref_no: NStr(),
  doc_date: Nullable(
    Type.String({ description: 'The day of the document; by default the day of doc_time in X-Time-Zone' }),
  ),
  doc_fields: Nullable(
    Type.String({ description: 'The fields of the document: the JSON text of an object, as the real API answers it' }),
  ),
  document_form_id: NInt(),
  uploader: Nullable(
    Type.Object(
      {
        id: Type.Integer(),
        first_name: Type.String(),
        last_name: Type.String(),
        email: NStr(),
        role: Type.String(),
        deactivated_at: NDateTime(),
      },
      { description: 'Who created the document (the acting user)' },
    ),
  ),
});

/**
 * doc_date follows doc_time unless sent: when doc_time is sent without it, and on a create, it is the
 * day of doc_time (default now) in the request's time zone.
 */
export function withDocDate<T extends DocumentInput>(input: T, zone: string, creating: boolean): T {
  if (input.doc_date !== undefined) {
    if (input.doc_date !== null) validDay('doc_date', input.doc_date);
    return input;
  }
  if (input.doc_time === undefined && !creating) return input;
  return { ...input, doc_date: localDate(input.doc_time ? Date.parse(input.doc_time) : Date.now(), zone) };
}

/** The uploader of a document; `deactivated_at` is the user's last change while deactivated (docs/records.md). */
const uploaderOf = (u: UploaderRow | undefined) =>
  u
    ? {
        id: u.id,
        first_name: u.first_name,
        last_name: u.last_name,
        email: u.email,
        role: u.role,
        deactivated_at: u.status === 'deactivated' ? wireTime(u.updated_at) : null,
      }
    : null;

export const downloadUrl = (publicUrl: string, id: number) => `${publicUrl}/v1/documents/${id}/download`;
export const uploadUrl = (publicUrl: string, token: string) => `${publicUrl}/uploads/documents/${token}`;

/** What a page of documents embeds: drivers and vehicles, and the users who uploaded them (./pages.ts). */
export interface DocumentPage {
  embeds: Embeds;
  uploaders: Map<number, UploaderRow>;
  publicUrl: string;
  /** The upload link of a document just created for the two-step upload. */
  upload?: { id: number; token: string };
}

export function documentWire(d: DocumentRow, { embeds: s, uploaders: up, publicUrl, upload }: DocumentPage) {
  return {
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
    category: d.category ?? null,
    ref_no: d.ref_no ?? null,
    doc_date: d.doc_date ?? d.doc_time.slice(0, 10),
    doc_fields: d.doc_fields ?? null,
    document_form_id: d.document_form_id ?? null,
    uploader: uploaderOf(d.uploader_id === null || d.uploader_id === undefined ? undefined : up.get(d.uploader_id)),
  };
}
