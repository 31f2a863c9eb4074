/**
 * Domain events, written in the same transaction as the change they describe (the outbox), so that
 * nothing is announced that did not happen and nothing that happened is lost. Delivery (webhooks)
 * reads this table after commit.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.js';
import { json, nowIso } from '../storage/values.js';

export interface DomainEvent {
  companyId: number;
  /** Webhook action name, e.g. `vehicle_upserted` (wire-format §7.6). */
  action: string;
  /** `created` / `updated` for upserts, `on` / `off` for engine toggles, otherwise null. */
  trigger?: string | null;
  subject: { type: string; id: number | string };
  /** A snapshot of the domain data at the time of the change. */
  data: unknown;
}

export async function recordEvent(trx: Kysely<Database>, e: DomainEvent): Promise<void> {
  await trx
    .insertInto('domain_events')
    .values({
      company_id: e.companyId,
      action: e.action,
      trigger: e.trigger ?? null,
      subject_type: e.subject.type,
      subject_id: String(e.subject.id),
      data: json(e.data),
      occurred_at: nowIso(),
    })
    .execute();
}
