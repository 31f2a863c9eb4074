/**
 * What a client may send to register or change a webhook: the body of `POST /v1/company_webhooks` and
 * `PUT /v1/company_webhooks/:id` (the same fields may come in the query string: WebhookQuery), and the
 * input of createWebhook and updateWebhook (./service.ts), derived from it; and the ids of `POST
 * /v1/company_webhook_requests/retry`, in the body or the query string.
 */
import { Type, type Static } from 'typebox';
import { Id } from '../../core/ids.js';
import { Enum } from '../../core/schema.js';

const opt = Type.Optional;
const ActionName = Type.String({ pattern: '^[a-z][a-z0-9_]*$', maxLength: 64 });
const FIELDS = {
  url: opt(
    Type.String({ maxLength: 2048, description: 'Where deliveries are POSTed (http or https); required on create' }),
  ),
  secret: opt(
    Type.Union([Type.String({ maxLength: 255 }), Type.Null()], {
      description: 'Signing key; a 20-character one is generated when blank',
    }),
  ),
  format: opt(Enum(['json'])),
  actions: opt(Type.Array(ActionName, { maxItems: 200, description: 'Action names to deliver (docs/webhooks.md)' })),
  enabled: opt(Type.Boolean({ description: 'Default true; enabling sends a test delivery first' })),
  webhook_type: opt(
    Type.Union([Type.String({ maxLength: 16 }), Type.Null()], { description: 'V2: only POST is served' }),
  ),
};

export const WebhookBody = Type.Object(FIELDS);
export const WebhookQuery = Type.Object(FIELDS, {
  description: 'The same fields, for clients that send them in the query string',
});

/** The fields of a webhook, wherever they were sent: the route merges the query string into the body. */
export type WebhookInput = Static<typeof WebhookBody>;

const Ids = Type.Array(Id(), { minItems: 1, maxItems: 1000, description: 'Delivery (company_webhook_request) ids' });
export const RetryBody = Type.Union([Type.Object({ ids: opt(Ids) }), Type.Null()]);
export const RetryQuery = Type.Object({ ids: opt(Ids) });
