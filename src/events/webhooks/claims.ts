/**
 * Claiming deliveries through the database, and recording what each attempt did.
 *
 * A claim marks due deliveries `delivering` with a lease and a fresh token, in one statement; on
 * PostgreSQL the candidates are locked with FOR UPDATE SKIP LOCKED, so nodes claiming at the same time
 * take disjoint sets and each attempt is made by exactly one node. A claim whose lease ran out (its node
 * died or hung) is due again. A result is written only while the token still matches, so a node that
 * lost its claim cannot overwrite the attempt that replaced it. Order within a lane (one webhook, one
 * object) is kept by lanes.ts: only a lane's head is ever pending. On SQLite one process delivers at a
 * time: it holds the `sqlite_worker` lease row.
 */
import { sql } from 'kysely';
import type { Db } from '../../storage/db.js';
import { outcomeOf } from './outcome.js';
import { promote, takeTurn } from './lanes.js';
import type { AttemptResult } from './sender.js';

export interface Claimed {
  id: number;
  company_id: number;
  company_webhook_id: number;
  subject_key: string;
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

interface ClaimOptions {
  nowMs: number;
  leaseMs: number;
  limit: number;
  token: string;
  /** Also look for claims whose lease ran out (default true). */
  expired?: boolean;
}

async function claimWhere(
  db: Db,
  o: ClaimOptions,
  limit: number,
  candidates: ReturnType<typeof sql>,
): Promise<Claimed[]> {
  if (limit <= 0) return [];
  const now = iso(o.nowMs);
  const hook = (col: string) =>
    sql`(select ${sql.ref(`w.${col}`)} from company_webhooks w where w.id = company_webhook_requests.company_webhook_id)`;
  const res =
    await sql<Claimed>`update company_webhook_requests set state = 'delivering', lease_until = ${iso(o.nowMs + o.leaseMs)},
      claim_token = ${o.token}, updated_at = ${now}, url = ${hook('url')}, secret = ${hook('secret')}, format = ${hook('format')}
    where id in (${candidates} limit ${limit} ${db.kind === 'postgres' ? sql`for update of d skip locked` : sql``})
    returning id, company_id, company_webhook_id, subject_key, action, url, secret, body, num_failures, retry_step, event_occurred_at, claim_token`.execute(
      db.kysely,
    );
  return res.rows;
}

/**
 * Claims up to `limit` deliveries of enabled webhooks: first claims whose lease ran out, then pending
 * deliveries by due time. Each candidate query walks a partial index of live rows in order.
 */
export async function claim(db: Db, o: ClaimOptions): Promise<Claimed[]> {
  const now = iso(o.nowMs);
  const enabled = sql`exists (select 1 from company_webhooks w where w.id = d.company_webhook_id and w.enabled = 1)`;
  const expired =
    o.expired === false
      ? []
      : await claimWhere(
          db,
          o,
          o.limit,
          sql`select d.id from company_webhook_requests d
    where d.state = 'delivering' and d.lease_until <= ${now} and ${enabled} order by d.lease_until, d.id`,
        );
  const due = await claimWhere(
    db,
    o,
    o.limit - expired.length,
    sql`select d.id from company_webhook_requests d
    where d.state = 'pending' and d.next_attempt_at <= ${now} and ${enabled} order by d.next_attempt_at, d.id`,
  );
  return [...expired, ...due].sort((a, b) => a.id - b.id);
}

export interface Finished {
  claim: Pick<Claimed, 'id' | 'claim_token' | 'num_failures' | 'retry_step' | 'company_webhook_id' | 'subject_key'>;
  result: AttemptResult;
  attemptedAtMs: number;
}

/**
 * Writes the outcome of finished attempts and promotes the next delivery of every lane whose head
 * ended, in one transaction that holds the lanes' turn.
 */
export async function recordResults(db: Db, finished: Finished[], scheduleS: readonly number[]): Promise<void> {
  if (finished.length === 0) return;
  const rows = finished.map((f) => {
    const o = outcomeOf(
      { numFailures: f.claim.num_failures, retryStep: f.claim.retry_step },
      f.result.status,
      f.attemptedAtMs,
      scheduleS,
    );
    return {
      f,
      id: f.claim.id,
      token: f.claim.claim_token,
      o,
      at: iso(f.attemptedAtMs),
      next: o.nextAttemptMs === null ? null : iso(o.nextAttemptMs),
    };
  });
  const ended = rows.filter((r) => r.o.state !== 'pending').map((r) => r.f.claim);
  const now = iso(Math.max(...finished.map((f) => f.attemptedAtMs)));
  await db.kysely.transaction().execute(async (trx) => {
    await takeTurn(trx, db.kind, now, true);
    if (db.kind === 'postgres') {
      const values = sql.join(
        rows.map(
          (r) => sql`(${r.id}::int, ${r.token}::text, ${r.o.state}::text, ${r.o.numFailures}::int,
        ${r.o.retryStep}::int, ${r.o.responseCode}::int, ${r.next}::text, ${r.at}::text)`,
        ),
      );
      await sql`update company_webhook_requests r set state = v.state, num_failures = v.nf, retry_step = v.rs, response_code = v.rc,
          next_attempt_at = v.na, posted_at = v.pa, updated_at = v.pa, lease_until = null, claim_token = null
        from (values ${values}) as v(id, token, state, nf, rs, rc, na, pa)
        where r.id = v.id and r.claim_token = v.token`.execute(trx);
    } else {
      for (const r of rows) {
        await trx
          .updateTable('company_webhook_requests')
          .set({
            state: r.o.state,
            num_failures: r.o.numFailures,
            retry_step: r.o.retryStep,
            response_code: r.o.responseCode,
            next_attempt_at: r.next,
            posted_at: r.at,
            updated_at: r.at,
            lease_until: null,
            claim_token: null,
          })
          .where('id', '=', r.id)
          .where('claim_token', '=', r.token)
          .execute();
      }
    }
    await promote(trx, ended, now);
  });
}

/** SQLite: takes or renews the one-worker lease; false while another live process holds it. */
export async function holdSqliteLease(db: Db, owner: string, nowMs: number, leaseMs: number): Promise<boolean> {
  const now = iso(nowMs);
  const res = await db.kysely
    .updateTable('webhook_worker_state')
    .set({ owner, lease_until: iso(nowMs + leaseMs), updated_at: now })
    .where('name', '=', 'sqlite_worker')
    .where((eb) =>
      eb.or([
        eb('owner', '=', owner),
        eb('owner', 'is', null),
        eb('lease_until', 'is', null),
        eb('lease_until', '<=', now),
      ]),
    )
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export async function releaseSqliteLease(db: Db, owner: string): Promise<void> {
  await db.kysely
    .updateTable('webhook_worker_state')
    .set({ owner: null, lease_until: null })
    .where('name', '=', 'sqlite_worker')
    .where('owner', '=', owner)
    .execute();
}
