/**
 * The fan-out: turns committed domain events into deliveries, one per event and subscribed enabled
 * webhook, and moves the outbox position forward in the same transaction, so an event is fanned out
 * exactly once however many nodes run. One node at a time does it: on PostgreSQL the position row is
 * locked (FOR UPDATE SKIP LOCKED: a node that finds it locked skips its turn); on SQLite writers are
 * serialized anyway and one process holds the worker lease.
 *
 * Which events are final:
 * - SQLite: ids are assigned by the one writer in commit order, so the position is the last id done.
 * - PostgreSQL: ids come from a sequence and may commit out of order (id 7 can become visible after
 *   id 8), so an id position could skip an event. Each event row records its transaction id (`tx`,
 *   migration 0008); every transaction with an id below the snapshot's xmin has ended, so events with
 *   tx < xmin are all visible and no more will appear. The position is that horizon; a batch covers
 *   [horizon, xmin), and within a batch events go out in id order, which for one object is the order of
 *   its changes (writers of one row serialize on its lock and record their event after the change).
 *   A transaction left open delays deliveries (never loses them) until it ends.
 */
import { sql, type Kysely } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { Database } from '../../storage/schema.js';
import { fromJson } from '../../storage/values.js';
import { renderBodies, type EventForPayload } from './payloads.js';

interface EventRow {
  id: number;
  company_id: number;
  action: string;
  trigger: string | null;
  subject_type: string;
  subject_id: string;
  data: string;
  occurred_at: string;
  tx?: string;
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
  /** Events read past the position (of companies with an enabled webhook). */
  events: number;
  deliveries: number;
  /** False when another node holds the position (PostgreSQL). */
  ran: boolean;
  /** True when the batch was full: call again at once. */
  more: boolean;
}

const EVENT_COLUMNS = sql`e.id, e.company_id, e.action, e.trigger, e.subject_type, e.subject_id, e.data, e.occurred_at`;
const WITH_WEBHOOKS = sql`e.company_id in (select w.company_id from company_webhooks w where w.enabled = 1)`;

async function sqliteEvents(trx: Kysely<Database>, batch: number) {
  // A write first, so that the transaction holds the write lock from its start.
  await trx.updateTable('webhook_worker_state').set({ updated_at: new Date().toISOString() }).where('name', '=', 'fanout').execute();
  const state = await trx.selectFrom('webhook_worker_state').select('last_event_id').where('name', '=', 'fanout').executeTakeFirstOrThrow();
  const max = await trx.selectFrom('domain_events').select(sql<number | null>`max(id)`.as('m')).executeTakeFirstOrThrow();
  const maxId = Number(max.m ?? 0);
  const rows = (await sql<EventRow>`select ${EVENT_COLUMNS} from domain_events e
    where e.id > ${state.last_event_id} and e.id <= ${maxId} and ${WITH_WEBHOOKS} order by e.id limit ${batch}`.execute(trx)).rows;
  const full = rows.length === batch;
  const position = full ? rows[rows.length - 1].id : maxId;
  return { rows, more: full, save: () => trx.updateTable('webhook_worker_state').set({ last_event_id: position }).where('name', '=', 'fanout').execute() };
}

async function postgresEvents(trx: Kysely<Database>, batch: number) {
  // The horizon is read before this transaction takes a transaction id (the row lock below does), so
  // that it does not hold its own horizon back.
  const xmin = BigInt((await sql<{ x: string }>`select pg_snapshot_xmin(pg_current_snapshot())::text as x`.execute(trx)).rows[0].x);
  const state = (await sql<{ h: string }>`select tx_horizon as h from webhook_worker_state where name = 'fanout' for update skip locked`.execute(trx)).rows[0];
  if (!state) return null;
  const horizon = BigInt(state.h);
  if (horizon >= xmin) return { rows: [] as EventRow[], more: false, save: async () => {} };
  let rows = (await sql<EventRow>`select ${EVENT_COLUMNS}, e.tx::text as tx from domain_events e
    where e.tx >= ${String(horizon)}::xid8 and e.tx < ${String(xmin)}::xid8 and ${WITH_WEBHOOKS}
    order by e.tx, e.id limit ${batch + 1}`.execute(trx)).rows;
  let next = xmin;
  let more = false;
  if (rows.length > batch) {
    // Cut at a transaction boundary; one transaction bigger than a batch is read whole.
    const cut = BigInt(rows[batch].tx!);
    more = true;
    if (BigInt(rows[0].tx!) === cut) {
      rows = (await sql<EventRow>`select ${EVENT_COLUMNS} from domain_events e
        where e.tx = ${String(cut)}::xid8 and ${WITH_WEBHOOKS} order by e.id`.execute(trx)).rows;
      next = cut + 1n;
    } else {
      rows = rows.filter((r) => BigInt(r.tx!) < cut);
      next = cut;
    }
  }
  rows.sort((a, b) => a.id - b.id);
  const save = () => sql`update webhook_worker_state set tx_horizon = ${String(next)} where name = 'fanout'`.execute(trx);
  return { rows, more, save };
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
    ? await trx.selectFrom('company_webhooks').select(['id', 'company_id', 'url', 'secret', 'format', 'actions'])
      .where('enabled', '=', 1).where('company_id', 'in', companies).orderBy('id').execute()
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

const INSERT_ROWS = 100;

/** A cheap look, outside any transaction, for events past the position: idle polls write nothing. */
async function anyNew(db: Db): Promise<boolean> {
  if (db.kind === 'postgres') {
    const r = await sql<{ n: number }>`select count(*) as n from (select 1 from domain_events e, webhook_worker_state s
      where s.name = 'fanout' and e.tx >= s.tx_horizon::xid8 and e.tx < pg_snapshot_xmin(pg_current_snapshot()) limit 1) x`.execute(db.kysely);
    return Number(r.rows[0].n) > 0;
  }
  const r = await sql<{ n: number }>`select count(*) as n from (select 1 from domain_events e, webhook_worker_state s
    where s.name = 'fanout' and e.id > s.last_event_id limit 1) x`.execute(db.kysely);
  return Number(r.rows[0].n) > 0;
}

export async function fanOut(opts: FanOutOptions): Promise<FanOutResult> {
  const { db } = opts;
  if (!(await anyNew(db))) return { events: 0, deliveries: 0, ran: true, more: false };
  return db.kysely.transaction().execute(async (trx) => {
    const got = db.kind === 'postgres' ? await postgresEvents(trx, opts.batch) : await sqliteEvents(trx, opts.batch);
    if (!got) return { events: 0, deliveries: 0, ran: false, more: false };
    const { rows, more, save } = got;
    const subs = await subscribers(trx, rows);
    const wanted = rows.filter((r) => subs(r).length > 0);
    const events: EventForPayload[] = wanted.map((r) => ({ ...r, data: fromJson<unknown>(r.data, null) }));
    const tdb: Db = { ...db, kysely: trx };
    const bodies = await renderBodies({ db: tdb, publicUrl: opts.publicUrl }, events, opts.onRenderFallback);
    const now = new Date(opts.nowMs).toISOString();
    const values = wanted.flatMap((r) => subs(r).map((w) => ({
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
      state: 'pending' as const,
      response_code: null,
      next_attempt_at: now,
      lease_until: null,
      claim_token: null,
      event_occurred_at: r.occurred_at,
      posted_at: now,
      created_at: now,
      updated_at: now,
    })));
    for (let i = 0; i < values.length; i += INSERT_ROWS) {
      await trx.insertInto('company_webhook_requests').values(values.slice(i, i + INSERT_ROWS)).execute();
    }
    await save();
    return { events: rows.length, deliveries: values.length, ran: true, more };
  });
}
