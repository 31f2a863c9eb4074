/**
 * The alert email queue (table alert_emails): claims of due emails with a lease and a token, and what
 * each attempt came to. A node that dies while sending loses its claim when the lease runs out and the
 * email is sent again: delivery is at least once. On PostgreSQL candidates are locked FOR UPDATE SKIP
 * LOCKED, so several nodes take disjoint sets; SQLite serializes writers.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../storage/db.js';

export interface ClaimedEmail {
  id: number;
  to_address: string;
  subject: string;
  body: string;
  attempts: number;
  claim_token: string;
}

export async function claimEmails(db: Db, now: Date, leaseMs: number, limit: number): Promise<ClaimedEmail[]> {
  const at = now.toISOString();
  const until = new Date(now.getTime() + leaseMs).toISOString();
  const token = randomUUID();
  const lock = db.kind === 'postgres' ? sql`for update skip locked` : sql``;
  const r = await sql<ClaimedEmail>`update alert_emails set state = 'sending', lease_until = ${until},
      claim_token = ${token}, updated_at = ${at}
    where id in (
      select id from alert_emails
      where (state = 'pending' and next_attempt_at <= ${at}) or (state = 'sending' and lease_until < ${at})
      order by id limit ${limit} ${lock}
    )
    returning id, to_address, subject, body, attempts, claim_token`.execute(db.kysely);
  return r.rows;
}

/** Records an attempt's outcome, only while the claim is still this one's. */
export async function recordAttempt(
  db: Db,
  e: ClaimedEmail,
  now: Date,
  outcome: { sent: true } | { sent: false; error: string; retryAt: Date | null },
): Promise<void> {
  const at = now.toISOString();
  const base = db.kysely
    .updateTable('alert_emails')
    .where('id', '=', e.id)
    .where('claim_token', '=', e.claim_token)
    .where('state', '=', 'sending');
  const attempts = e.attempts + 1;
  const common = { attempts, lease_until: null, claim_token: null, updated_at: at };
  if (outcome.sent) {
    await base.set({ ...common, state: 'sent', sent_at: at, next_attempt_at: null, last_error: null }).execute();
    return;
  }
  const retry = outcome.retryAt;
  await base
    .set({
      ...common,
      state: retry ? 'pending' : 'failed',
      next_attempt_at: retry ? retry.toISOString() : null,
      last_error: outcome.error.slice(0, 500),
    })
    .execute();
}
