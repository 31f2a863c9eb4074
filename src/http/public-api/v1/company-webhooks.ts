/**
 * /v1/company_webhooks and the delivery log /v1/company_webhook_requests (docs/reference/wire.md §7.2, §7.3;
 * scopes company_webhooks.read and company_webhooks.manage, which includes read).
 *
 * Writes take their fields from a JSON body, a form-encoded body or the query string (Exspeedite
 * creates webhooks with a bodyless POST and every field in the query: `enabled=true`,
 * `actions[0]=…`); when a field is in both, the body wins (docs/reference/wire.md §2.5, R37).
 */
import formbody from '@fastify/formbody';
import { Type } from 'typebox';
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
import { parseQuery } from '../../plumbing/query.js';
import { validation } from '../../../core/errors.js';
import { requestTimeZone } from '../../../core/time-zone.js';
import { IdParams } from '../../../wire/types.js';
import { momentOf } from '../../../wire/record-dates.js';
import { dayWindow } from '../../../core/time-zone.js';
import { CompanyWebhook, CompanyWebhookRequest, webhookRequestWire, webhookWire } from '../../../wire/webhook.js';
import * as webhooks from '../../../events/webhooks/service.js';
import { RetryBody, RetryQuery, WebhookBody, WebhookQuery } from '../../../events/webhooks/input.js';
import { objectOf } from '../../plumbing/unvalidated.js';
import { Id } from '../../../core/ids.js';
import { Moment } from '../../../core/schema.js';

const opt = Type.Optional;
const RequestsQuery = Type.Object({
  ...pageQuery,
  company_webhook_id: opt(Id('Deliveries of this webhook')),
  action: opt(Type.String({ maxLength: 64 })),
  response_code: opt(Type.Integer({ minimum: 100, maximum: 599, description: 'Latest receiver status' })),
  posted_after: opt(Moment('Latest attempt at or after this datetime (a day means its start in X-Time-Zone)')),
  posted_before: opt(Moment('Latest attempt at or before this datetime')),
});

const tags = ['company_webhooks'];
const WebhookList = listSchema('company_webhooks', 'company_webhook', CompanyWebhook);
const WebhookOne = oneSchema('company_webhook', CompanyWebhook);
const RequestList = listSchema('company_webhook_requests', 'company_webhook_request', CompanyWebhookRequest);

function bool(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const s = v.trim().toLowerCase();
  return s === 'true' || s === '1' ? true : s === 'false' || s === '0' ? false : v;
}

function list(v: unknown): unknown {
  if (typeof v === 'string')
    return v === ''
      ? []
      : v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
  if (v && typeof v === 'object' && !Array.isArray(v)) return Object.values(v);
  return v;
}

/** Fields from the query string, overridden by the body's, with text values made typed. */
export async function mergeFields(req: FastifyRequest) {
  const body: unknown = req.body;
  if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) return;
  const query = objectOf(req.query) ?? {};
  const merged: Record<string, unknown> = {};
  for (const k of Object.keys(WebhookBody.properties)) if (query[k] !== undefined) merged[k] = query[k];
  Object.assign(merged, body ?? {});
  if (merged.enabled !== undefined) merged.enabled = bool(merged.enabled);
  if (merged.actions !== undefined) merged.actions = list(merged.actions);
  req.body = merged;
}

/** Form-encoded ids arrive as text (and in any array syntax). */
async function formIds(req: FastifyRequest) {
  const body = objectOf(req.body);
  if (!body || body.ids === undefined) return;
  const ids = list(body.ids);
  body.ids = Array.isArray(ids)
    ? ids.map((v) => (typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v))
    : ids;
}

export async function companyWebhooksRoutes(app: Api) {
  // Form-encoded writes, and an empty body sent as JSON (a bodyless POST with every field in the query).
  await app.register(formbody, { parser: (s: string) => parseQuery(s) });
  const json = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (body === '') return done(null, null);
    // Fastify's default JSON parser is synchronous and answers through done; its type also allows the
    // promise-returning parser form, which this one never takes.
    void json(req, String(body), done);
  });

  const read = { scope: 'company_webhooks.read' } as const;
  const write = { scope: 'company_webhooks.manage' } as const;
  const one = (row: webhooks.WebhookRow) => oneBody('company_webhook', webhookWire(row));

  app.get(
    '/v1/company_webhooks',
    {
      config: read,
      schema: {
        tags,
        summary: 'List webhooks',
        querystring: Type.Object(pageQuery),
        response: { 200: WebhookList, ...errorResponses },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const { rows, total } = await webhooks.listWebhooks(app.db, req.auth, page.per_page, page.offset);
      return listBody('company_webhooks', 'company_webhook', rows.map(webhookWire), page, total);
    },
  );

  app.post(
    '/v1/company_webhooks',
    {
      config: write,
      preValidation: mergeFields,
      schema: {
        tags,
        summary: 'Register a webhook (a test delivery decides whether it starts enabled)',
        querystring: WebhookQuery,
        body: WebhookBody,
        response: { 201: WebhookOne, ...errorResponses },
      },
    },
    async (req, reply) => reply.code(201).send(one(await webhooks.createWebhook(app.webhooks, req.auth, req.body))),
  );

  app.get(
    '/v1/company_webhooks/:id',
    {
      config: read,
      schema: { tags, summary: 'Get a webhook', params: IdParams, response: { 200: WebhookOne, ...errorResponses } },
    },
    async (req) => one(await webhooks.getWebhook(app.db, req.auth, req.params.id)),
  );

  app.put(
    '/v1/company_webhooks/:id',
    {
      config: write,
      preValidation: mergeFields,
      schema: {
        tags,
        summary: 'Change a webhook (partial); enabling it or changing url or secret sends a test delivery',
        params: IdParams,
        querystring: WebhookQuery,
        body: WebhookBody,
        response: { 200: WebhookOne, ...errorResponses },
      },
    },
    async (req) => one(await webhooks.updateWebhook(app.webhooks, req.auth, req.params.id, req.body)),
  );

  app.delete(
    '/v1/company_webhooks/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Delete a webhook and its delivery log',
        params: IdParams,
        response: { 200: Success, ...errorResponses },
      },
    },
    async (req) => {
      await webhooks.deleteWebhook(app.db, req.auth, req.params.id);
      return { success: true };
    },
  );

  app.get(
    '/v1/company_webhook_requests',
    {
      config: read,
      schema: {
        tags,
        summary: 'The delivery log',
        querystring: RequestsQuery,
        response: { 200: RequestList, ...errorResponses },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const zone = requestTimeZone(req);
      const q = req.query;
      const at = (field: string, v: string | undefined) =>
        v === undefined ? undefined : momentOf(field, v, zone).toISOString();
      // A day as the upper bound takes in the whole day.
      const before =
        q.posted_before?.length === 10
          ? new Date(dayWindow(q.posted_before, q.posted_before, zone).end.getTime() - 1).toISOString()
          : at('posted_before', q.posted_before);
      const filters = {
        company_webhook_id: q.company_webhook_id,
        action: q.action,
        response_code: q.response_code,
        posted_after: at('posted_after', q.posted_after),
        posted_before: before,
      };
      const { rows, total } = await webhooks.listRequests(app.db, req.auth, filters, page.per_page, page.offset);
      return listBody('company_webhook_requests', 'company_webhook_request', rows.map(webhookRequestWire), page, total);
    },
  );

  app.post(
    '/v1/company_webhook_requests/retry',
    {
      config: write,
      preValidation: formIds,
      schema: {
        tags,
        summary: 'Queue deliveries for another attempt now (ids in the JSON body or the query string)',
        querystring: RetryQuery,
        body: RetryBody,
        response: { 200: Success, ...errorResponses },
      },
    },
    async (req) => {
      const ids = req.body?.ids ?? req.query.ids;
      if (!ids) throw validation('ids', 'is required');
      await webhooks.retryRequests(app.webhooks, req.auth, ids);
      return { success: true };
    },
  );
}
