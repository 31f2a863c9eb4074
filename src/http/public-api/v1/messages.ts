/**
 * /v1/messages (scopes messages.read, messages.manage). POST sends a message as the acting admin and
 * answers 201 {"success": true} (docs/reference/wire.md §3.4, §4.26); PUT marks messages read or unread
 * (docs/records.md). POST also takes the form-encoded body of the 2017 docs' example.
 */
import formbody from '@fastify/formbody';
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { Api } from '../../api.js';
import { errorResponses, listBody, listSchema, pageOf, pageQuery, Success } from '../../plumbing/envelope.js';
import { parseQuery } from '../../plumbing/query.js';
import { requestTimeZone } from '../../../core/time-zone.js';
import { IdList } from '../../../wire/types.js';
import { Message } from '../../../wire/message.js';
import { windowOf } from '../../../wire/record-dates.js';
import * as messages from '../../../domain/messages/service.js';
import { MarkBody, SendBody } from '../../../domain/messages/input.js';
import { objectOf } from '../../plumbing/unvalidated.js';
import { messagesWire } from '../../../wire/pages.js';
import { Day } from '../../../core/schema.js';

const opt = Type.Optional;

const ListQuery = Type.Object({
  ...pageQuery,
  driver_ids: IdList('Messages sent to or by any of these users'),
  sender_ids: IdList('Messages sent by these users'),
  recipient_ids: IdList('Messages sent to these users'),
  status: opt(Type.String({ enum: ['all', 'read', 'unread'], description: 'Read status; default all' })),
  start_date: Day('First day (YYYY-MM-DD) the message was sent, inclusive'),
  end_date: Day('Last day (YYYY-MM-DD) the message was sent, inclusive'),
});

const MessageList = listSchema('messages', 'message', Message);
const tags = ['messages'];

/** A form-encoded body carries every value as text: ids become numbers before validation. */
async function formIds(req: FastifyRequest) {
  if (!String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return;
  const body = objectOf(req.body);
  if (!body) return;
  const num = (v: unknown) => (typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v);
  if (body.recipient_id !== undefined) body.recipient_id = num(body.recipient_id);
  if (body.recipient_ids !== undefined) {
    const raw = body.recipient_ids;
    const list = Array.isArray(raw)
      ? raw
      : typeof raw === 'string'
        ? raw.split(',')
        : raw && typeof raw === 'object'
          ? Object.values(raw)
          : raw;
    body.recipient_ids = Array.isArray(list) ? list.map(num) : list;
  }
}

export async function messagesRoutes(app: Api) {
  await app.register(formbody, { parser: (s: string) => parseQuery(s) });
  const read = { scope: 'messages.read' } as const;
  const write = { scope: 'messages.manage' } as const;

  app.get(
    '/v1/messages',
    {
      config: read,
      schema: {
        tags,
        summary: 'List messages',
        querystring: ListQuery,
        response: { 200: MessageList, ...errorResponses },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const window = windowOf(req.query, requestTimeZone(req));
      const status = req.query.status as messages.MessageFilters['status'];
      const { rows, total } = await messages.listMessages(
        app.db,
        req.auth,
        { ...req.query, status, window },
        page.per_page,
        page.offset,
      );
      return listBody('messages', 'message', await messagesWire(app.db, req.auth.companyId, rows), page, total);
    },
  );

  app.post(
    '/v1/messages',
    {
      config: write,
      preValidation: formIds,
      schema: {
        tags,
        summary: 'Send a message (as X-User-Id, or the first active admin)',
        body: SendBody,
        response: { 201: Success, ...errorResponses },
      },
    },
    async (req, reply) => {
      await messages.sendMessage(app.db, req.auth, req.body);
      return reply.code(201).send({ success: true });
    },
  );

  app.put(
    '/v1/messages',
    {
      config: write,
      schema: {
        tags,
        summary: 'Mark messages read or unread',
        body: MarkBody,
        response: { 200: Success, ...errorResponses },
      },
    },
    async (req) => {
      await messages.markMessages(app.db, req.auth, req.body.ids, req.body.read ?? true);
      return { success: true };
    },
  );
}
