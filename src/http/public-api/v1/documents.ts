/**
 * /v1/documents (scopes documents.read, documents.manage) with real file content (docs/records.md):
 * - POST multipart/form-data (the file in field `file`, the other fields as text) stores the document
 *   with its file in one request;
 * - POST JSON with file_name and content_type creates a pending document whose create response carries
 *   a one-time `upload_url`; PUT the file there, and optionally PUT /v2/documents/:id {"status": ...}
 *   as the real API's two-step flow does;
 * - GET /v1/documents/:id/download serves the file to a caller of the same company (documents.read).
 */
import multipart from '@fastify/multipart';
import { Type, type Static } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { Api } from '../../api.js';
import {
  errorResponses,
  listBody,
  listSchema,
  oneBody,
  oneSchema,
  pageOf,
  pageQuery,
  Success,
} from '../../plumbing/envelope.js';
import { validation } from '../../../core/errors.js';
import { requestTimeZone } from '../../../core/time-zone.js';
import { IdList, IdParams } from '../../../wire/types.js';
import { Document, withDocDate } from '../../../wire/document.js';
import { DocumentCreateBody, DocumentUpdateBody } from '../../../domain/documents/input.js';
import { readDocumentForm } from './document-form.js';
import { momentOf, windowOf } from '../../../wire/record-dates.js';
import * as documents from '../../../domain/documents/service.js';
import { mediaType, storeFile, tooLarge, type DocumentLimits } from '../../../domain/documents/files.js';
import { openBlobStore } from '../../../storage/blobs/index.js';
import { toIso } from '../../../storage/values.js';
import { documentsWire } from '../../../wire/pages.js';
import { Day } from '../../../core/schema.js';

const ListQuery = Type.Object({
  ...pageQuery,
  driver_ids: IdList('Documents of these drivers'),
  vehicle_ids: IdList('Documents of these vehicles'),
  status: Type.Optional(Type.String({ enum: [...documents.DOCUMENT_STATUSES] })),
  start_date: Day('First day (YYYY-MM-DD) of doc_time, inclusive'),
  end_date: Day('Last day (YYYY-MM-DD) of doc_time, inclusive'),
});

const TokenParams = Type.Object({
  token: Type.String({ pattern: '^[A-Za-z0-9_-]{43}$', description: 'From upload_url' }),
});
const DocumentList = listSchema('documents', 'document', Document);
const DocumentOne = oneSchema('document', Document);
const tags = ['documents'];

/** A JSON body's doc_time as an instant: a bare day is the start of that day in X-Time-Zone. */
function withTime<T extends { doc_time?: string }>(
  req: FastifyRequest,
  body: T,
): Omit<T, 'doc_time'> & { doc_time?: string } {
  if (body.doc_time === undefined) return body;
  return { ...body, doc_time: toIso(momentOf('doc_time', body.doc_time, requestTimeZone(req))) };
}

/** `attachment` with the file name, quoted for old clients and UTF-8 encoded for the rest. */
function disposition(name: string | null): string {
  const file = name ?? 'document';
  const ascii = file.replace(/[^\x20-\x7e]/g, '_').replace(/[\\"]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file)}`;
}

export async function documentsRoutes(app: Api) {
  const read = { scope: 'documents.read' } as const;
  const write = { scope: 'documents.manage' } as const;
  const blobs = openBlobStore(app.config);
  const limits: DocumentLimits = {
    maxBytes: app.config.documentMaxBytes,
    contentTypes: app.config.documentContentTypes,
  };
  const wire = async (companyId: number, row: documents.DocumentRow, upload?: { id: number; token: string }) =>
    oneBody('document', (await documentsWire(app.db, companyId, app.config.publicUrl, [row], upload))[0]);

  await app.register(multipart, { limits: { fileSize: limits.maxBytes, files: 1 } });

  app.get(
    '/v1/documents',
    {
      config: read,
      schema: {
        tags,
        summary: 'List documents',
        querystring: ListQuery,
        response: { 200: DocumentList, ...errorResponses },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const window = windowOf(req.query, requestTimeZone(req));
      const { rows, total } = await documents.listDocuments(
        app.db,
        req.auth,
        { ...req.query, window },
        page.per_page,
        page.offset,
      );
      return listBody(
        'documents',
        'document',
        await documentsWire(app.db, req.auth.companyId, app.config.publicUrl, rows),
        page,
        total,
      );
    },
  );

  app.get(
    '/v1/documents/:id',
    {
      config: read,
      schema: { tags, summary: 'Get a document', params: IdParams, response: { 200: DocumentOne, ...errorResponses } },
    },
    async (req) => wire(req.auth.companyId, await documents.getDocument(app.db, req.auth, req.params.id)),
  );

  app.get(
    '/v1/documents/:id/download',
    {
      config: read,
      schema: { tags, summary: "Download a document's file", params: IdParams, response: errorResponses },
    },
    async (req, reply) => {
      const { row, stream } = await documents.openFile(app.db, blobs, req.auth, req.params.id);
      reply.header('Content-Type', row.content_type ?? 'application/octet-stream');
      if (row.size_bytes !== null) reply.header('Content-Length', row.size_bytes);
      reply.header('Content-Disposition', disposition(row.file_name));
      reply.header('X-Content-Type-Options', 'nosniff');
      reply.header('Cache-Control', 'private, no-store');
      return reply.send(stream as never);
    },
  );

  app.post(
    '/v1/documents',
    {
      config: write,
      schema: {
        tags,
        summary: 'Create a document: multipart/form-data with the file, or JSON for a two-step upload',
        body: Type.Union([DocumentCreateBody, Type.Null()]),
        response: { 201: DocumentOne, ...errorResponses },
      },
    },
    async (req, reply) => {
      if (req.isMultipart()) {
        const { input, file } = await readDocumentForm(req, blobs, limits, req.auth.companyId, requestTimeZone(req));
        const row = await documents.createWithFile(
          app.db,
          blobs,
          req.auth,
          withDocDate(input, requestTimeZone(req), true),
          file,
        );
        return reply.code(201).send(await wire(req.auth.companyId, row));
      }
      const body = req.body ?? {};
      if (body.file_name === undefined && body.content_type === undefined) {
        throw validation(
          'file',
          'is required: send multipart/form-data with the file in the field "file", or file_name and content_type for a two-step upload',
        );
      }
      const { row, token } = await documents.createPending(
        app.db,
        limits,
        req.auth,
        withDocDate(withTime(req, body), requestTimeZone(req), true),
      );
      return reply.code(201).send(await wire(req.auth.companyId, row, { id: row.id, token }));
    },
  );

  for (const version of [1, 2]) {
    app.put(
      `/v${version}/documents/:id`,
      {
        config: write,
        schema: {
          tags,
          summary: `Update a document${version === 2 ? ' (v2: ends a two-step upload)' : ''}`,
          params: IdParams,
          body: DocumentUpdateBody,
          response: { 200: DocumentOne, ...errorResponses },
        },
      },
      async (req) =>
        wire(
          req.auth.companyId,
          await documents.updateDocument(
            app.db,
            req.auth,
            req.params.id,
            withDocDate(withTime(req, req.body), requestTimeZone(req), false),
          ),
        ),
    );
  }

  app.delete(
    '/v1/documents/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Delete a document and its file',
        params: IdParams,
        response: { 200: Success, ...errorResponses },
      },
    },
    async (req) => {
      await documents.deleteDocument(app.db, blobs, req.auth, req.params.id);
      return { success: true };
    },
  );

  // The upload URL of the two-step flow: the token is the credential, the body is the raw file.
  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_req, _payload, done) => done(null));
    raw.put<{ Params: Static<typeof TokenParams> }>(
      '/uploads/documents/:token',
      {
        schema: {
          tags,
          summary: 'Upload the file of a pending document (the upload_url of a two-step create; no other credential)',
          security: [],
          params: TokenParams,
          response: { 200: Success, 400: errorResponses[400], 404: errorResponses[404] },
        },
      },
      async (req) => {
        const { token } = req.params;
        const row = await documents.pendingUpload(app.db, token);
        const sent = req.headers['content-type'];
        if (
          sent !== undefined &&
          mediaType(sent) !== row.content_type &&
          mediaType(sent) !== 'application/octet-stream'
        ) {
          throw validation('Content-Type', `must be ${row.content_type}, as declared when the document was created`);
        }
        if (Number(req.headers['content-length'] ?? 0) > limits.maxBytes) throw tooLarge(limits);
        const file = await storeFile(blobs, limits, row.company_id, {
          stream: req.raw,
          file_name: row.file_name ?? 'file',
          declared: row.content_type,
        });
        await documents.completeUpload(app.db, blobs, row, token, file);
        return { success: true };
      },
    );
  });
}
