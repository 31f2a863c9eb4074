/**
 * Lanes: the deliveries of one webhook and one object (`subject_key`) form a lane that goes out in id
 * order, one at a time. A new delivery enters its lane `queued`; only the lane's head is `pending` or
 * `delivering`; when the head ends (delivered, rejected, failed) the next queued delivery is promoted to
 * `pending`. So every pending delivery may be sent as soon as it is due, and claiming never has to look
 * past waiting deliveries.
 *
 * Promotions happen only while holding the `fanout` row (`takeTurn`): in the fan-out's transaction, in
 * the transaction that records attempts, and in a manual retry. That serializes them across nodes, so
 * a lane never gets two heads and a head that ends never leaves its lane stranded.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import type { DbKind } from '../../storage/db.js';

export interface Lane {
  company_webhook_id: number;
  subject_key: string;
}

/**
 * Takes the `fanout` row for this transaction. `wait: false` (the fan-out) gives up at once when another
 * node holds it (PostgreSQL SKIP LOCKED); otherwise the transaction waits its turn. On SQLite a write
 * takes the database's write lock from the start of the transaction.
 */
export async function takeTurn(trx: Kysely<Database>, kind: DbKind, nowIso: string, wait: boolean): Promise<boolean> {
  if (kind === 'postgres') {
    const r =
      await sql`select name from webhook_worker_state where name = 'fanout' for update ${wait ? sql`` : sql`skip locked`}`.execute(
        trx,
      );
    return r.rows.length > 0;
  }
  await trx.updateTable('webhook_worker_state').set({ updated_at: nowIso }).where('name', '=', 'fanout').execute();
  return true;
}

const CHUNK = 200;

const laneKey = (l: Lane) => `${l.company_webhook_id}\u0000${l.subject_key}`;
const laneValues = (part: Lane[]) =>
  sql.join(part.map((l) => sql`(cast(${l.company_webhook_id} as integer), cast(${l.subject_key} as text))`));

/**
 * Which of these lanes already hold deliveries: `head` (one pending or delivering) and `queued`. Call
 * while holding the turn, so that the answer stays true until the transaction ends.
 */
export async function laneStates(
  trx: Kysely<Database>,
  lanes: Lane[],
): Promise<Map<string, { head: boolean; queued: boolean }>> {
  const unique = [...new Map(lanes.map((l) => [laneKey(l), l])).values()];
  const out = new Map<string, { head: boolean; queued: boolean }>();
  for (let i = 0; i < unique.length; i += CHUNK) {
    const rows = (
      await sql<{
        wh: number;
        sk: string;
        head: unknown;
        queued: unknown;
      }>`with lanes (wh, sk) as (values ${laneValues(unique.slice(i, i + CHUNK))})
      select wh, sk,
        exists (select 1 from company_webhook_requests h where h.company_webhook_id = lanes.wh and h.subject_key = lanes.sk and h.state in ('pending', 'delivering')) as head,
        exists (select 1 from company_webhook_requests q where q.company_webhook_id = lanes.wh and q.subject_key = lanes.sk and q.state = 'queued') as queued
      from lanes`.execute(trx)
    ).rows;
    for (const r of rows) {
      if (r.head || r.queued)
        out.set(`${r.wh}\u0000${r.sk}`, {
          head: r.head === true || r.head === 1,
          queued: r.queued === true || r.queued === 1,
        });
    }
  }
  return out;
}

export { laneKey };

/** Promotes the first queued delivery of each lane that has no head. Call while holding the turn. */
export async function promote(trx: Kysely<Database>, lanes: Lane[], nowIso: string): Promise<number> {
  const unique = [...new Map(lanes.map((l) => [laneKey(l), l])).values()];
  let promoted = 0;
  for (let i = 0; i < unique.length; i += CHUNK) {
    const res = await sql`with lanes (wh, sk) as (values ${laneValues(unique.slice(i, i + CHUNK))})
      update company_webhook_requests set state = 'pending', next_attempt_at = ${nowIso}, updated_at = ${nowIso}
      where id in (
        select min(q.id) from company_webhook_requests q join lanes on q.company_webhook_id = lanes.wh and q.subject_key = lanes.sk
        where q.state = 'queued' and not exists (select 1 from company_webhook_requests h
          where h.company_webhook_id = q.company_webhook_id and h.subject_key = q.subject_key and h.state in ('pending', 'delivering'))
        group by q.company_webhook_id, q.subject_key)`.execute(trx);
    promoted += Number(res.numAffectedRows ?? 0);
  }
  return promoted;
}
