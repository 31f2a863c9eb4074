/**
 * Claiming deliveries through the database, and recording what each attempt did.
 *
 * A claim marks due deliveries `delivering` with a lease and a fresh token, in one statement; on
 * PostgreSQL the candidates are locked with FOR UPDATE SKIP LOCKED, so nodes claiming at the same time
 * take disjoint sets and each attempt is made by exactly one node. A claim whose lease ran out (its node
 * died or hung) is due again. A result is written only while the token still matches, so a node that
 * lost its claim cannot overwrite the attempt that replaced it.
 *
 * Order: a delivery is claimable only when no earlier delivery of the same webhook and object
 * (`subject_key`) is still pending or in flight, so one webhook sees each object's events in order, one
 * at a time, even across retries. On SQLite one process delivers at a time: it holds the
 * `sqlite_worker` lease row.
 */
import { sql } from 'kysely';
import type { Db } from '../../storage/db.js';
import { outcomeOf } from './outcome.js';
import type { AttemptResult } from './sender.js';

export interface Claimed {
  id: number;
  company_id: number;
  company_webhook_id: number;
  action: string;
  url: string;
  secret: string;
  body: string;
  num_failures: number;
  retry_step: number;
  event_occurred_at: string | null;
  claim_token: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

export async function claim(db: Db, o: { nowMs: number; leaseMs: number; limit: number; token: string }): Promise<Claimed[]> {
  if (o.limit <= 0) return [];
  const now = iso(o.nowMs);
  const lock = db.kind === 'postgres' ? sql`for update of d skip locked` : sql``;
  const hook = (col: string) => sql`(select ${sql.ref(`w.${col}`)} from company_webhooks w where w.id = company_webhook_requests.company_webhook_id)`;
  const res = await sql<Claimed>`update company_webhook_requests set state = 'delivering', lease_until = ${iso(o.nowMs + o.leaseMs)},
      claim_token = ${o.token}, updated_at = ${now}, url = ${hook('url')}, secret = ${hook('secret')}, format = ${hook('format')}
    where id in (
      select d.id from company_webhook_requests d join company_webhooks w on w.id = d.company_webhook_id
      where w.enabled = 1
        and ((d.state = 'pending' and d.next_attempt_at <= ${now}) or (d.state = 'delivering' and d.lease_until <= ${now}))
        and not exists (select 1 from company_webhook_requests e where e.company_webhook_id = d.company_webhook_id
          and e.subject_key = d.subject_key and e.state in ('pending', 'delivering') and e.id < d.id)
      order by d.id limit ${o.limit} ${lock})
    returning id, company_id, company_webhook_id, action, url, secret, body, num_failures, retry_step, event_occurred_at, claim_token`
    .execute(db.kysely);
  return res.rows.sort((a, b) => a.id - b.id);
}

export interface Finished {
  claim: Pick<Claimed, 'id' | 'claim_token' | 'num_failures' | 'retry_step'>;
  result: AttemptResult;
  attemptedAtMs: number;
}

/** Writes the outcome of finished attempts, in one transaction. */
export async function recordResults(db: Db, finished: Finished[], scheduleS: readonly number[]): Promise<void> {
  if (finished.length === 0) return;
  const rows = finished.map((f) => {
    const o = outcomeOf({ numFailures: f.claim.num_failures, retryStep: f.claim.retry_step }, f.result.status, f.attemptedAtMs, scheduleS);
    return { id: f.claim.id, token: f.claim.claim_token, o, at: iso(f.attemptedAtMs) };
  });
  if (db.kind === 'postgres') {
    const values = sql.join(rows.map((r) => sql`(${r.id}::int, ${r.token}::text, ${r.o.state}::text, ${r.o.numFailures}::int,
      ${r.o.retryStep}::int, ${r.o.responseCode}::int, ${r.o.nextAttemptMs === null ? null : iso(r.o.nextAttemptMs)}::text, ${r.at}::text)`));
    await sql`update company_webhook_requests r set state = v.state, num_failures = v.nf, retry_step = v.rs, response_code = v.rc,
        next_attempt_at = v.na, posted_at = v.pa, updated_at = v.pa, lease_until = null, claim_token = null
      from (values ${values}) as v(id, token, state, nf, rs, rc, na, pa)
      where r.id = v.id and r.claim_token = v.token`.execute(db.kysely);
    return;
  }
  await db.kysely.transaction().execute(async (trx) => {
    for (const r of rows) {
      await trx.updateTable('company_webhook_requests')
        .set({
          state: r.o.state, num_failures: r.o.numFailures, retry_step: r.o.retryStep, response_code: r.o.responseCode,
          next_attempt_at: r.o.nextAttemptMs === null ? null : iso(r.o.nextAttemptMs), posted_at: r.at, updated_at: r.at,
          lease_until: null, claim_token: null,
        })
        .where('id', '=', r.id).where('claim_token', '=', r.token)
        .execute();
    }
  });
}

/** SQLite: takes or renews the one-worker lease; false while another live process holds it. */
export async function holdSqliteLease(db: Db, owner: string, nowMs: number, leaseMs: number): Promise<boolean> {
  const now = iso(nowMs);
  const res = await db.kysely.updateTable('webhook_worker_state')
    .set({ owner, lease_until: iso(nowMs + leaseMs), updated_at: now })
    .where('name', '=', 'sqlite_worker')
    .where((eb) => eb.or([eb('owner', '=', owner), eb('owner', 'is', null), eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export async function releaseSqliteLease(db: Db, owner: string): Promise<void> {
  await db.kysely.updateTable('webhook_worker_state').set({ owner: null, lease_until: null })
    .where('name', '=', 'sqlite_worker').where('owner', '=', owner).execute();
}
