/** Tenant-scoped queries on webhooks and their delivery log. */
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { countOf } from '../../storage/query.js';
import { fromJson } from '../../storage/values.js';
import type { Db } from '../../storage/db.js';
import type { CompanyWebhookRequestsTable, CompanyWebhooksTable } from './tables.js';
import { promote, takeTurn } from './lanes.js';

export type WebhookRow = Selectable<CompanyWebhooksTable>;
export type RequestRow = Selectable<CompanyWebhookRequestsTable>;

export async function listWebhooks(db: Kysely<Database>, companyId: number, limit: number, offset: number) {
  const base = db.selectFrom('company_webhooks').where('company_id', '=', companyId);
  const [rows, total] = await Promise.all([
    base.selectAll().orderBy('id').limit(limit).offset(offset).execute(),
    countOf(base.select('id')),
  ]);
  return { rows, total };
}

export function findWebhook(db: Kysely<Database>, companyId: number, id: number): Promise<WebhookRow | undefined> {
  return db
    .selectFrom('company_webhooks')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertWebhook(db: Kysely<Database>, values: Insertable<CompanyWebhooksTable>): Promise<number> {
  return (await db.insertInto('company_webhooks').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

export async function updateWebhook(
  db: Kysely<Database>,
  companyId: number,
  id: number,
  values: Updateable<CompanyWebhooksTable>,
) {
  await db
    .updateTable('company_webhooks')
    .set(values)
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .execute();
}

/**
 * The actions enabled webhooks of the company subscribe to. Lets the writer of a high-volume event
 * (the location events) skip recording what no webhook would receive; the fan-out still
 * matches subscriptions when it runs. The company's subscribed actions stay in the read cache while
 * company_webhooks is unchanged; they are read through `q` (the caller's transaction, which holds the
 * connection on SQLite), which must not have written company_webhooks itself.
 */
export function subscribedActions(db: Db, q: Kysely<Database>, companyId: number): Promise<ReadonlySet<string>> {
  return db.cache.remember(`webhook actions ${companyId}`, async () => {
    const rows = await q
      .selectFrom('company_webhooks')
      .select('actions')
      .where('company_id', '=', companyId)
      .where('enabled', '=', 1)
      .execute();
    return new Set(rows.flatMap((r) => fromJson<string[]>(r.actions, [])));
  });
}

/** Deletes the webhook and its delivery log (queued deliveries are dropped with it). */
export async function deleteWebhook(db: Kysely<Database>, companyId: number, id: number) {
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('company_webhook_requests')
      .where('company_id', '=', companyId)
      .where('company_webhook_id', '=', id)
      .execute();
    await trx.deleteFrom('company_webhooks').where('company_id', '=', companyId).where('id', '=', id).execute();
  });
}

export interface RequestFilters {
  company_webhook_id?: number;
  action?: string;
  response_code?: number;
  /** ISO timestamps, inclusive. */
  posted_after?: string;
  posted_before?: string;
}

export async function listRequests(
  db: Kysely<Database>,
  companyId: number,
  f: RequestFilters,
  limit: number,
  offset: number,
) {
  let base = db.selectFrom('company_webhook_requests').where('company_id', '=', companyId);
  if (f.company_webhook_id !== undefined) base = base.where('company_webhook_id', '=', f.company_webhook_id);
  if (f.action !== undefined) base = base.where('action', '=', f.action);
  if (f.response_code !== undefined) base = base.where('response_code', '=', f.response_code);
  if (f.posted_after !== undefined) base = base.where('posted_at', '>=', f.posted_after);
  if (f.posted_before !== undefined) base = base.where('posted_at', '<=', f.posted_before);
  const [rows, total] = await Promise.all([
    base.selectAll().orderBy('id').limit(limit).offset(offset).execute(),
    countOf(base.select('id')),
  ]);
  return { rows, total };
}

export function requestIdsOf(db: Kysely<Database>, companyId: number, ids: number[]) {
  return db
    .selectFrom('company_webhook_requests')
    .select(['id', 'state'])
    .where('company_id', '=', companyId)
    .where('id', 'in', ids)
    .execute();
}

/**
 * Queues deliveries again, with the retry schedule started over: each goes back into its lane and is
 * attempted at once when it is the lane's first (otherwise after the deliveries ahead of it). A
 * delivery in flight is left to its attempt.
 */
export async function requeue(db: Db, companyId: number, ids: number[], nowIso: string) {
  await db.kysely.transaction().execute(async (trx) => {
    await takeTurn(trx, db.kind, nowIso, true);
    const which = trx
      .selectFrom('company_webhook_requests')
      .where('company_id', '=', companyId)
      .where('id', 'in', ids)
      .where('state', '!=', 'delivering');
    const lanes = await which.select(['company_webhook_id', 'subject_key']).execute();
    await trx
      .updateTable('company_webhook_requests')
      .set({
        state: 'queued',
        retry_step: 0,
        next_attempt_at: null,
        lease_until: null,
        claim_token: null,
        updated_at: nowIso,
      })
      .where('company_id', '=', companyId)
      .where('id', 'in', ids)
      .where('state', '!=', 'delivering')
      .execute();
    await promote(trx, lanes, nowIso);
  });
}

export async function insertRequest(
  db: Kysely<Database>,
  values: Insertable<CompanyWebhookRequestsTable>,
): Promise<number> {
  return (await db.insertInto('company_webhook_requests').values(values).returning('id').executeTakeFirstOrThrow()).id;
}
