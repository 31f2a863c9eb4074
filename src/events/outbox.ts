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
  /** Webhook action name, e.g. `vehicle_upserted` (docs/reference/wire.md §7.6). */
  action: string;
  /** `created` / `updated` for upserts, `on` / `off` for engine toggles, otherwise null. */
  trigger?: string | null;
  subject: { type: string; id: number | string };
  /** A snapshot of the domain data at the time of the change. */
  data: unknown;
}

/** Events per INSERT statement when several are recorded at once. */
const ROWS_PER_INSERT = 100;

/** Records one event, or several (in order, e.g. one per location a batch brought). */
export async function recordEvent(trx: Kysely<Database>, e: DomainEvent | DomainEvent[]): Promise<void> {
  const list = Array.isArray(e) ? e : [e];
  const occurred = nowIso();
  const rows = list.map((x) => ({
    company_id: x.companyId,
    action: x.action,
    trigger: x.trigger ?? null,
    subject_type: x.subject.type,
    subject_id: String(x.subject.id),
    data: json(x.data),
    occurred_at: occurred,
  }));
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    await trx
      .insertInto('domain_events')
      .values(rows.slice(i, i + ROWS_PER_INSERT))
      .execute();
  }
}
