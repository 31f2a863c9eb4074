/** Kysely table types of the webhook area (migration 0008_webhooks). Values follow storage/values.ts. */
import type { Generated } from 'kysely';

/** A registered webhook (docs/reference/wire.md §7.2). */
export interface CompanyWebhooksTable {
  id: Generated<number>;
  company_id: number;
  url: string;
  /** Kept readable: it keys every signature and the API returns it to its company. */
  secret: string;
  format: string;
  actions: string; // JSON array of action names
  enabled: number;
  webhook_type: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * Where a delivery stands: `queued` behind an earlier delivery of its lane (lanes.ts), `pending` (the
 * lane's head, due at next_attempt_at), `delivering` (claimed), or finished: `delivered`, `rejected`,
 * `failed`.
 */
export type RequestState = 'queued' | 'pending' | 'delivering' | 'delivered' | 'rejected' | 'failed';

/** One payload for one webhook, with its attempts so far: the delivery log (docs/reference/wire.md §7.3). */
export interface CompanyWebhookRequestsTable {
  id: Generated<number>;
  company_id: number;
  company_webhook_id: number;
  /** The domain_events row it announces; null for test deliveries. */
  event_id: number | null;
  action: string;
  trigger: string | null;
  /** `<subject_type>:<subject_id>`: deliveries with the same key go out one at a time, in id order. */
  subject_key: string;
  /** URL, secret and format of the most recent attempt (or of the webhook when queued). */
  url: string;
  secret: string;
  format: string;
  /** The exact body bytes (UTF-8 JSON) every attempt sends and signs. */
  body: string;
  state: RequestState;
  num_failures: Generated<number>;
  /** Position in the retry schedule since the delivery was queued or last retried by hand. */
  retry_step: Generated<number>;
  response_code: number | null;
  next_attempt_at: string | null;
  /** While `delivering`: the claim runs out at this time, and another worker may take it over. */
  lease_until: string | null;
  claim_token: string | null;
  event_occurred_at: string | null;
  /** Time of the most recent attempt; the time the delivery was queued before the first. */
  posted_at: string;
  created_at: string;
  updated_at: string;
}

/**
 * Worker bookkeeping, one row per name: `fanout` is locked by the node turning events into deliveries,
 * `sqlite_worker` holds the lease that lets one process deliver on SQLite.
 */
export interface WebhookWorkerStateTable {
  name: string;
  owner: string | null;
  lease_until: string | null;
  updated_at: string;
}

export interface WebhookTables {
  company_webhooks: CompanyWebhooksTable;
  company_webhook_requests: CompanyWebhookRequestsTable;
  webhook_worker_state: WebhookWorkerStateTable;
}
