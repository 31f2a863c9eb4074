/** The company_webhook and company_webhook_request objects (docs/reference/wire.md §7.2, §7.3; docs/webhooks.md). */
import { Type } from 'typebox';
import { fromBool, fromJson, wireTime } from '../storage/values.js';
import type { RequestRow, WebhookRow } from '../events/webhooks/service.js';
import { DateTime, NDateTime, NInt, NStr } from './types.js';

export const CompanyWebhook = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  secret: Type.String({ description: 'Keys the signatures; generated (20 characters) when left blank' }),
  format: Type.String({ enum: ['json'] }),
  actions: Type.Array(Type.String(), { description: 'Action names delivered to this webhook (docs/webhooks.md)' }),
  enabled: Type.Boolean({ description: 'False until a test delivery has been answered 200 or 201' }),
  webhook_type: NStr(),
});

export const CompanyWebhookRequest = Type.Object({
  id: Type.Integer(),
  company_webhook_id: Type.Integer(),
  action: Type.String(),
  url: Type.String(),
  secret: Type.String(),
  format: Type.String(),
  payload: Type.Object(
    { action: Type.String() },
    {
      additionalProperties: true,
      description:
        'The delivered body, parsed; a test whose body was the JSON array of action names shows as {"action": "test", "actions": [...]} (docs/webhooks.md)',
    },
  ),
  response_code: NInt(),
  num_failures: Type.Integer(),
  posted_at: DateTime('Time of the latest attempt (of queueing, before the first)'),
  status: Type.String({
    enum: ['queued', 'pending', 'delivering', 'delivered', 'rejected', 'failed'],
    description:
      'Where the delivery stands (an addition to the 2017 object): queued waits for an earlier delivery of the same object',
  }),
  next_attempt_at: NDateTime(),
});

export function webhookWire(w: WebhookRow) {
  return {
    id: w.id,
    url: w.url,
    secret: w.secret,
    format: w.format,
    actions: fromJson<string[]>(w.actions, []),
    enabled: fromBool(w.enabled),
    webhook_type: w.webhook_type,
  };
}

/**
 * The log shows every payload as an object, as typed clients read it: the delivered body when it is one;
 * otherwise (a test delivery's JSON array of action names) the entry's action and that body as `actions`.
 */
function loggedPayload(action: string, body: unknown): Record<string, unknown> {
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>;
  return { action, actions: body };
}

export function webhookRequestWire(r: RequestRow) {
  return {
    id: r.id,
    company_webhook_id: r.company_webhook_id,
    action: r.action,
    url: r.url,
    secret: r.secret,
    format: r.format,
    payload: loggedPayload(r.action, fromJson<unknown>(r.body, null)),
    response_code: r.response_code,
    num_failures: r.num_failures,
    posted_at: wireTime(r.posted_at)!,
    status: r.state,
    next_attempt_at: r.state === 'pending' ? wireTime(r.next_attempt_at) : null,
  };
}
