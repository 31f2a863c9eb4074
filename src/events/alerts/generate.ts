/**
 * Turns committed domain events of the alerting actions into alerts (src/domain/alerts/store.ts) and
 * marks them done (`domain_events.alerted_at`) in the same transaction: each event makes its alert once,
 * however many nodes run, and an event committed is never skipped. As with the webhook fan-out, a mark
 * rather than a position (PostgreSQL commits ids out of order). One node at a time holds the turn (the
 * `feed` row of alert_worker_state, FOR UPDATE SKIP LOCKED on PostgreSQL; SQLite serializes writers).
 * It reads the outbox apart from the webhook fan-out, so neither waits for the other, and never runs
 * inside the transaction that stores a device's batch.
 */
import { sql } from 'kysely';
import type { Db } from '../../storage/db.js';
import { fromJson } from '../../storage/values.js';
import { ALERT_ACTIONS, alertOfEvent } from '../../domain/alerts/kinds.js';
import { makeAlerts, withdrawAlert, type MakeOptions, type NewAlert } from '../../domain/alerts/store.js';

interface EventRow {
  id: number;
  company_id: number;
  action: string;
  trigger: string | null;
  subject_type: string;
  subject_id: string;
  data: string;
  occurred_at: string;
}

export interface GenerateResult {
  events: number;
  alerts: number;
  emails: number;
  /** The batch was full: call again at once. */
  more: boolean;
}

const actions = sql.join(ALERT_ACTIONS.map((a) => sql.lit(a)));
/** The predicate of migration 0027's partial index, word for word, so that the index serves it. */
const PENDING = sql`alerted_at is null and action in (${actions})`;

export async function generateAlerts(db: Db, o: MakeOptions & { batch: number; now: string }): Promise<GenerateResult> {
  const none = { events: 0, alerts: 0, emails: 0, more: false };
  // A cheap look outside any transaction: idle polls write nothing.
  const any = await sql`select id from domain_events where ${PENDING} limit 1`.execute(db.kysely);
  if (any.rows.length === 0) return none;
  return db.kysely.transaction().execute(async (trx) => {
    if (db.kind === 'postgres') {
      const turn = await sql`select name from alert_worker_state where name = 'feed' for update skip locked`.execute(
        trx,
      );
      if (turn.rows.length === 0) return none;
    } else {
      await trx.updateTable('alert_worker_state').set({ updated_at: o.now }).where('name', '=', 'feed').execute();
    }
    const rows = (
      await sql<EventRow>`select id, company_id, action, trigger, subject_type, subject_id, data, occurred_at from domain_events
        where ${PENDING} order by id limit ${o.batch}`.execute(trx)
    ).rows;
    if (rows.length === 0) return none;
    // In event order per company: a violation's alert is made before a withdrawal can find it.
    const byCompany = new Map<number, Array<NewAlert | { withdraw: string }>>();
    for (const r of rows) {
      const made = alertOfEvent({ ...r, data: fromJson<unknown>(r.data, null) });
      if (!made) continue;
      const list = byCompany.get(r.company_id) ?? [];
      list.push('withdraw' in made ? made : { eventId: r.id, draft: made });
      byCompany.set(r.company_id, list);
    }
    let alerts = 0;
    let emails = 0;
    for (const [companyId, items] of byCompany) {
      let run: NewAlert[] = [];
      const flush = async () => {
        const made = await makeAlerts(trx, companyId, run, o);
        alerts += made.alerts;
        emails += made.emails;
        run = [];
      };
      for (const item of items) {
        if ('draft' in item) {
          run.push(item);
          continue;
        }
        await flush();
        await withdrawAlert(trx, companyId, item.withdraw);
      }
      await flush();
    }
    const ids = rows.map((r) => r.id);
    await sql`update domain_events set alerted_at = ${o.now} where id in (${sql.join(ids)})`.execute(trx);
    return { events: rows.length, alerts, emails, more: rows.length === o.batch };
  });
}
