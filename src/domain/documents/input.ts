/**
 * What a client may send to create or change a document: the JSON bodies of `POST /v1/documents` (the
 * two-step upload; a multipart form gives the same fields as text, src/http/public-api/v1/document-form.ts)
 * and `PUT /v1/documents/:id`, and the input of the document services, derived from them.
 */
import { Type, type Static } from 'typebox';
import { Id } from '../../core/ids.js';
import { DAY_PATTERN, Moment, Nullable } from '../../core/schema.js';

const opt = Type.Optional;
const Text = (maxLength: number, description?: string) => opt(Nullable(Type.String({ maxLength, description })));

const Fields = {
  name: opt(Type.String({ maxLength: 255, description: 'Title; defaults to the file name' })),
  doc_type: Text(64, 'Free text, e.g. bill_of_lading, proof_of_delivery, fuel_receipt'),
  notes: Text(2000),
  doc_time: opt(Moment('A day (YYYY-MM-DD, read in X-Time-Zone) or a datetime with its offset; default now')),
  driver_id: opt(Nullable(Id())),
  vehicle_id: opt(Nullable(Id())),
  category: Text(64, 'Free text, e.g. dispatch, notes'),
  ref_no: Text(255),
  doc_date: opt(
    Nullable(
      Type.String({ pattern: DAY_PATTERN, description: 'YYYY-MM-DD; default: the day of doc_time in X-Time-Zone' }),
    ),
  ),
  doc_fields: opt(
    Nullable(
      Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.String({ maxLength: 10_000 })], {
        description: 'An object, or the JSON text of one',
      }),
    ),
  ),
  document_form_id: opt(Nullable(Id())),
};

/** JSON create: the two-step upload (the file itself goes to upload_url). */
export const DocumentCreateBody = Type.Object({
  ...Fields,
  file_name: opt(Type.String({ maxLength: 255, description: 'Two-step upload: the name of the file to come' })),
  content_type: opt(
    Type.String({ maxLength: 255, description: 'Two-step upload: its media type, one of DOCUMENT_CONTENT_TYPES' }),
  ),
});

export const DocumentUpdateBody = Type.Object({
  ...Fields,
  status: opt(
    Type.String({
      enum: ['completed', 'failed'],
      description: 'Ends a two-step upload: completed (the file is there) or failed',
    }),
  ),
});

/**
 * A document's fields as the services take them: those of the update body (status only there), with
 * doc_time an ISO-8601 instant (the routes read a bare day in the request's time zone) and doc_date
 * filled in from it when only doc_time is sent (src/wire/document.ts, withDocDate).
 */
export type DocumentInput = Omit<Static<typeof DocumentUpdateBody>, 'doc_time'> & { doc_time?: string };

/** The two-step create: the fields and the file to come. */
export type PendingDocumentInput = DocumentInput &
  Pick<Static<typeof DocumentCreateBody>, 'file_name' | 'content_type'>;
