/**
 * What the metrics read from the database at scrape time: outbox depth, webhook deliveries waiting and
 * telemetry processing lag. Tenant-agnostic aggregates, each bounded:
 * - domain events and deliveries are counted through the partial indexes of live rows
 *   (domain_events_fanout_idx, cwr_*_idx), at most COUNT_CAP rows each; the oldest is the first entry
 *   of the same index;
 * - telemetry lag scans telemetry_state, one row per vehicle or asset (the fleet's size, not its history).
 * On PostgreSQL the reads run in one read-only transaction with a statement timeout and a short lock
 * timeout, so a scrape never waits behind a schema change; SQLite reads in WAL mode never wait for writers.
 */
import { sql, type Kysely } from 'kysely';
import type { Db, DbKind } from '../storage/db.js';
import type { Database } from '../storage/schema.js';

export const COUNT_CAP = 100_000;
/** The read must finish within this, or the scrape answers without it (fleet_db_up 0). */
export const READ_DEADLINE_MS = 2000;

export interface Depths {
  eventsPending: number;
  oldestEventAt: string | null;
  deliveries: { queued: number; pending: number; delivering: number };
  oldestDueAt: string | null;
  telemetry: { vehicles: number; oldestReceivedAt: string | null; fixLagS: number | null };
}

const capped = (where: string) => sql.raw(`(select count(*) from (select 1 as x from ${where} limit ${COUNT_CAP}) c)`);

async function queues(db: Kysely<Database>) {
  const r = await sql<{
    events_pending: number;
    oldest_event_at: string | null;
    queued: number;
    pending: number;
    delivering: number;
    oldest_due_at: string | null;
  }>`select ${capped('domain_events where fanned_out_at is null')} as events_pending,
      (select occurred_at from domain_events where fanned_out_at is null order by id limit 1) as oldest_event_at,
      ${capped(`company_webhook_requests where state = 'queued'`)} as queued,
      ${capped(`company_webhook_requests where state = 'pending'`)} as pending,
      ${capped(`company_webhook_requests where state = 'delivering'`)} as delivering,
      (select next_attempt_at from company_webhook_requests where state = 'pending' and next_attempt_at is not null
        order by next_attempt_at limit 1) as oldest_due_at`.execute(db);
  return r.rows[0];
}

/** Same condition as Telemetry.pending(): vehicles whose newest stored fix is past the processed horizon. */
async function telemetryLag(db: Kysely<Database>, kind: DbKind) {
  const gapS =
    kind === 'postgres'
      ? sql`extract(epoch from (max_fix_time::timestamptz - horizon::timestamptz))::float8`
      : sql`unixepoch(max_fix_time, 'subsec') - unixepoch(horizon, 'subsec')`;
  const r = await sql<{ vehicles: number; oldest_received_at: string | null; fix_lag_s: number | null }>`
    select count(*) as vehicles, min(last_received_at) as oldest_received_at, max(${gapS}) as fix_lag_s
    from telemetry_state
    where vehicle_id is not null and max_fix_time is not null and (horizon is null or horizon < max_fix_time)`.execute(
    db,
  );
  return r.rows[0];
}

async function readAll(db: Kysely<Database>, kind: DbKind): Promise<Depths> {
  const q = await queues(db);
  const t = await telemetryLag(db, kind);
  return {
    eventsPending: Number(q.events_pending),
    oldestEventAt: q.oldest_event_at,
    deliveries: { queued: Number(q.queued), pending: Number(q.pending), delivering: Number(q.delivering) },
    oldestDueAt: q.oldest_due_at,
    telemetry: {
      vehicles: Number(t.vehicles),
      oldestReceivedAt: t.oldest_received_at,
      fixLagS: t.fix_lag_s === null ? null : Number(t.fix_lag_s),
    },
  };
}

export function readDepths(db: Db): Promise<Depths> {
  if (db.kind !== 'postgres') return readAll(db.kysely, db.kind);
  return db.kysely
    .transaction()
    .setAccessMode('read only')
    .execute(async (trx) => {
      await sql`select set_config('statement_timeout', ${String(READ_DEADLINE_MS)}, true), set_config('lock_timeout', '100', true)`.execute(
        trx,
      );
      return readAll(trx, db.kind);
    });
}

/**
 * Reads with a deadline, one read at a time: a scrape arriving while an earlier read is still running
 * (a slow or unreachable database) waits for that read rather than starting another. Resolves to null
 * when the read failed or missed the deadline.
 */
export function depthReader(
  db: Db,
  onError: (err: unknown) => void,
  deadlineMs = READ_DEADLINE_MS,
): () => Promise<Depths | null> {
  let inflight: Promise<Depths | null> | null = null;
  return () => {
    inflight ??= readDepths(db)
      .catch((err: unknown) => {
        onError(err);
        return null;
      })
      .finally(() => {
        inflight = null;
      });
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), deadlineMs);
      timer.unref();
    });
    return Promise.race([inflight, deadline]).finally(() => clearTimeout(timer));
  };
}
