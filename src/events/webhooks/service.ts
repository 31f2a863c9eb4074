/**
 * Webhook registrations and the delivery log (docs/reference/wire.md §7.2, §7.3, §7.8). Every call takes the
 * caller's tenant first; another company's webhook is "not found".
 *
 * Test delivery: when a webhook is created enabled, enabled again, or its url or secret changes while
 * it stays enabled, a signed test request is sent at once, inside the API request. The webhook is
 * (left) enabled only if the receiver answers 200 or 201; otherwise it is saved disabled and the
 * answer still succeeds (201 / 200) with `enabled: false`. The test body is a JSON array of the
 * webhook's action names (WEBHOOK_TEST_BODY=legacy sends the 2017 `{"action":"test"}`). Each test is
 * logged in the delivery log with action `test`.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../storage/db.js';
import type { Tenant } from '../../domain/tenant.js';
import { fromJson, json } from '../../storage/values.js';
import { notFound, validation } from '../../core/errors.js';
import type { WebhookConfig } from './settings.js';
import type { Sender } from './sender.js';
import { outcomeOf } from './outcome.js';
import { targetRefusal } from './address.js';
import * as repo from './repository.js';
import type { WebhookInput } from './input.js';

export type { WebhookRow, RequestRow, RequestFilters } from './repository.js';

/** What the registration service needs: storage, settings, the HTTP sender and the clock. */
export interface WebhookDeps {
  db: Db;
  config: WebhookConfig;
  sender: Sender;
  now(): Promise<number>;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A 20-character secret, as the 2017 docs describe for a blank one (longer secrets are accepted). */
export const newSecret = () => randomBytes(10).toString('hex');

async function checkedUrl(deps: WebhookDeps, raw: string): Promise<string> {
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw validation('url', `must be an absolute http or https URL, got "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw validation('url', `must use http or https, got "${url.protocol.slice(0, -1)}"`);
  const refused = await targetRefusal(url, deps.config.allowPrivate);
  if (refused) throw validation('url', refused);
  return text;
}

function webhookType(v: string | null | undefined): string | null | undefined {
  if (v === undefined || v === null || v === '') return v === '' ? null : v;
  if (v.toUpperCase() !== 'POST')
    throw validation('webhook_type', `must be POST (HTTP POST deliveries are the only kind served), got "${v}"`);
  return 'POST';
}

const uniq = (xs: string[]) => [...new Set(xs)];

/** The body of a test delivery for a webhook subscribed to `actions`. */
export function testBody(config: WebhookConfig, actions: string[]): string {
  return config.testBody === 'legacy' ? JSON.stringify({ action: 'test' }) : JSON.stringify(actions);
}

/** Sends the test request now and logs it; true when the receiver answered 200 or 201. */
async function testDelivery(deps: WebhookDeps, hook: repo.WebhookRow): Promise<boolean> {
  const nowMs = await deps.now();
  const body = testBody(deps.config, fromJson<string[]>(hook.actions, []));
  const at = iso(nowMs);
  const id = await repo.insertRequest(deps.db.kysely, {
    company_id: hook.company_id,
    company_webhook_id: hook.id,
    event_id: null,
    action: 'test',
    trigger: null,
    subject_key: 'test',
    url: hook.url,
    secret: hook.secret,
    format: hook.format,
    body,
    state: 'delivering',
    response_code: null,
    next_attempt_at: null,
    lease_until: null,
    claim_token: null,
    event_occurred_at: null,
    posted_at: at,
    created_at: at,
    updated_at: at,
  });
  const result = await deps.sender.send({ url: hook.url, secret: hook.secret, body, requestId: id, nowMs });
  // A test is one attempt: never retried on its own.
  const o = outcomeOf({ numFailures: 0, retryStep: 0 }, result.status, nowMs, []);
  await deps.db.kysely
    .updateTable('company_webhook_requests')
    .set({ state: o.state, num_failures: o.numFailures, response_code: o.responseCode, updated_at: at })
    .where('id', '=', id)
    .execute();
  return o.state === 'delivered';
}

export async function listWebhooks(db: Db, t: Tenant, limit: number, offset: number) {
  return repo.listWebhooks(db.kysely, t.companyId, limit, offset);
}

export async function getWebhook(db: Db, t: Tenant, id: number): Promise<repo.WebhookRow> {
  const row = await repo.findWebhook(db.kysely, t.companyId, id);
  if (!row) throw notFound(`company_webhook ${id}`);
  return row;
}

export async function createWebhook(deps: WebhookDeps, t: Tenant, input: WebhookInput): Promise<repo.WebhookRow> {
  if (input.url === undefined || input.url.trim() === '') throw validation('url', 'is required');
  const url = await checkedUrl(deps, input.url);
  const now = iso(await deps.now());
  const id = await repo.insertWebhook(deps.db.kysely, {
    company_id: t.companyId,
    url,
    secret: input.secret ? input.secret : newSecret(),
    format: input.format ?? 'json',
    actions: json(uniq(input.actions ?? [])),
    enabled: 0,
    webhook_type: webhookType(input.webhook_type) ?? null,
    created_at: now,
    updated_at: now,
  });
  const row = await getWebhook(deps.db, t, id);
  if (input.enabled === false) return row;
  const ok = await testDelivery(deps, row);
  if (ok) await repo.updateWebhook(deps.db.kysely, t.companyId, id, { enabled: 1 });
  return getWebhook(deps.db, t, id);
}

export async function updateWebhook(
  deps: WebhookDeps,
  t: Tenant,
  id: number,
  input: WebhookInput,
): Promise<repo.WebhookRow> {
  const current = await getWebhook(deps.db, t, id);
  const url = input.url === undefined ? current.url : await checkedUrl(deps, input.url);
  // A blank secret asks for a new one.
  const secret = input.secret === undefined ? current.secret : input.secret ? input.secret : newSecret();
  const wasEnabled = current.enabled === 1;
  const wantsEnabled = input.enabled ?? wasEnabled;
  const needsTest = wantsEnabled && (!wasEnabled || url !== current.url || secret !== current.secret);
  const changes = {
    url,
    secret,
    format: input.format ?? current.format,
    actions: input.actions === undefined ? current.actions : json(uniq(input.actions)),
    webhook_type: input.webhook_type === undefined ? current.webhook_type : (webhookType(input.webhook_type) ?? null),
    // A webhook being switched on stays off until its test passes; one that was on keeps receiving.
    enabled: wantsEnabled && wasEnabled ? 1 : 0,
    updated_at: iso(await deps.now()),
  };
  await repo.updateWebhook(deps.db.kysely, t.companyId, id, changes);
  if (needsTest) {
    const ok = await testDelivery(deps, await getWebhook(deps.db, t, id));
    await repo.updateWebhook(deps.db.kysely, t.companyId, id, { enabled: ok ? 1 : 0 });
  }
  return getWebhook(deps.db, t, id);
}

export async function deleteWebhook(db: Db, t: Tenant, id: number): Promise<void> {
  await getWebhook(db, t, id);
  await repo.deleteWebhook(db.kysely, t.companyId, id);
}

export function listRequests(db: Db, t: Tenant, f: repo.RequestFilters, limit: number, offset: number) {
  return repo.listRequests(db.kysely, t.companyId, f, limit, offset);
}

/** Queues the named deliveries for another attempt now; every id must be one of the company's. */
export async function retryRequests(deps: WebhookDeps, t: Tenant, ids: number[]): Promise<void> {
  const wanted = [...new Set(ids)];
  const found = new Set((await repo.requestIdsOf(deps.db.kysely, t.companyId, wanted)).map((r) => r.id));
  const missing = wanted.find((id) => !found.has(id));
  if (missing !== undefined) throw notFound(`company_webhook_request ${missing}`);
  await repo.requeue(deps.db, t.companyId, wanted, iso(await deps.now()));
}
