/**
 * The fan-out: turns committed domain events into deliveries, one per event and subscribed enabled
 * webhook, queued in their lanes (lanes.ts), and marks the events done (`domain_events.fanned_out_at`)
 * in the same transaction, so each event is fanned out exactly once however many nodes run. One node at
 * a time does it: it takes the lanes' turn first (PostgreSQL: FOR UPDATE SKIP LOCKED on the `fanout`
 * row, so a node that finds it taken skips its turn; SQLite serializes writers anyway).
 *
 * Why a mark and not a position: on PostgreSQL ids come from a sequence and transactions commit in any
 * order, so id 7 can become visible after id 8; a "last id done" position would skip it. Reading the
 * events not yet marked, in id order, takes each one whenever it becomes visible, and needs nothing
 * outside this schema (no transaction-id horizon that an unrelated long transaction would hold back).
 * For one object, id order is the order of its changes: writers of one row serialize on its lock and
 * record their event after the change.
 */
import { sql, type Kysely } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { Database } from '../../storage/schema.js';
import { fromJson } from '../../storage/values.js';
import { renderBodies, type EventForPayload } from './payloads.js';
import { laneKey, laneStates, promote, takeTurn, type Lane } from './lanes.js';

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

export interface FanOutOptions {
  db: Db;
  publicUrl: string;
  nowMs: number;
  /** Most events read per call. */
  batch: number;
  onRenderFallback?: (action: string, err: unknown) => void;
}

export interface FanOutResult {
  /** Events marked done (whether or not any webhook wanted them). */
  events: number;
  deliveries: number;
  /** True when the batch was full: call again at once. */
  more: boolean;
}

interface Subscriber {
  id: number;
  url: string;
  secret: string;
  format: string;
}

async function subscribers(trx: Kysely<Database>, rows: EventRow[]) {
  const companies = [...new Set(rows.map((r) => r.company_id))];
  const hooks = companies.length
    ? await trx
        .selectFrom('company_webhooks')
        .select(['id', 'company_id', 'url', 'secret', 'format', 'actions'])
        .where('enabled', '=', 1)
        .where('company_id', 'in', companies)
        .orderBy('id')
        .execute()
    : [];
  const byCompanyAction = new Map<string, Subscriber[]>();
  for (const h of hooks) {
    for (const action of new Set(fromJson<string[]>(h.actions, []))) {
      const key = `${h.company_id}:${action}`;
      const list = byCompanyAction.get(key) ?? [];
      list.push({ id: h.id, url: h.url, secret: h.secret, format: h.format });
      byCompanyAction.set(key, list);
    }
  }
  return (e: EventRow) => byCompanyAction.get(`${e.company_id}:${e.action}`) ?? [];
}

/** A cheap look, outside any transaction, for unmarked events: idle polls write nothing. */
async function anyNew(db: Db): Promise<boolean> {
  const r = await sql<{ id: number }>`select id from domain_events where fanned_out_at is null limit 1`.execute(
    db.kysely,
  );
  return r.rows.length > 0;
}

const INSERT_ROWS = 100;

export async function fanOut(opts: FanOutOptions): Promise<FanOutResult> {
  const { db } = opts;
  const none = { events: 0, deliveries: 0, more: false };
  if (!(await anyNew(db))) return none;
  const now = new Date(opts.nowMs).toISOString();
  return db.kysely.transaction().execute(async (trx) => {
    if (!(await takeTurn(trx, db.kind, now, false))) return none;
    const rows = (
      await sql<EventRow>`select id, company_id, action, trigger, subject_type, subject_id, data, occurred_at
      from domain_events where fanned_out_at is null order by id limit ${opts.batch}`.execute(trx)
    ).rows;
    if (rows.length === 0) return none;
    const subs = await subscribers(trx, rows);
    const wanted = rows.filter((r) => subs(r).length > 0);
    const events: EventForPayload[] = wanted.map((r) => ({ ...r, data: fromJson<unknown>(r.data, null) }));
    const bodies = await renderBodies(
      { db: { ...db, kysely: trx }, publicUrl: opts.publicUrl },
      events,
      opts.onRenderFallback,
    );
    // The first new delivery of a lane with nothing in it is its head at once; the others queue.
    const lanes = wanted.flatMap((r) =>
      subs(r).map((w) => ({ company_webhook_id: w.id, subject_key: `${r.subject_type}:${r.subject_id}` })),
    );
    const states = await laneStates(trx, lanes);
    const headed = new Set<string>();
    const stateOf = (lane: Lane) => {
      const key = laneKey(lane);
      if (states.has(key) || headed.has(key)) return 'queued' as const;
      headed.add(key);
      return 'pending' as const;
    };
    const values = wanted.flatMap((r) =>
      subs(r).map((w) => ({
        company_id: r.company_id,
        company_webhook_id: w.id,
        event_id: r.id,
        action: r.action,
        trigger: r.trigger,
        subject_key: `${r.subject_type}:${r.subject_id}`,
        url: w.url,
        secret: w.secret,
        format: w.format,
        body: bodies.get(r.id)!,
        state: stateOf({ company_webhook_id: w.id, subject_key: `${r.subject_type}:${r.subject_id}` }),
        response_code: null,
        next_attempt_at: now,
        lease_until: null,
        claim_token: null,
        event_occurred_at: r.occurred_at,
        posted_at: now,
        created_at: now,
        updated_at: now,
      })),
    );
    for (let i = 0; i < values.length; i += INSERT_ROWS) {
      await trx
        .insertInto('company_webhook_requests')
        .values(values.slice(i, i + INSERT_ROWS))
        .execute();
    }
    // A lane with queued deliveries but no head (only if something went wrong before) gets one.
    await promote(
      trx,
      lanes.filter((l) => states.get(laneKey(l))?.head === false),
      now,
    );
    const ids = rows.map((r) => r.id);
    await sql`update domain_events set fanned_out_at = ${now} where id in (${sql.join(ids)})`.execute(trx);
    return { events: rows.length, deliveries: values.length, more: rows.length === opts.batch };
  });
}
