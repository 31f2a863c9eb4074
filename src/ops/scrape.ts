/**
 * One scrape: the in-process values (pool clients), then the database read with its deadline, then the
 * exposition text. A failed or late read never fails the scrape: fleet_db_up says 0 and the gauges that
 * come from the database are left out rather than shown stale.
 */
import type { Db } from '../storage/db.js';
import type { AttemptReport } from '../events/webhooks/worker.js';
import type { Metrics } from './metrics.js';
import { depthReader, type Depths } from './depths.js';

const ageS = (iso: string | null, nowMs: number) => (iso === null ? 0 : Math.max(0, (nowMs - Date.parse(iso)) / 1000));

function setPool(m: Metrics, db: Db): void {
  const pool = db.poolStats();
  if (!pool) {
    m.dbPoolClients.set({ state: 'total' }, 1);
    return;
  }
  m.dbPoolClients.set({ state: 'total' }, pool.total);
  m.dbPoolClients.set({ state: 'idle' }, pool.idle);
  m.dbPoolClients.set({ state: 'waiting' }, pool.waiting);
}

function setCache(m: Metrics, db: Db): void {
  const c = db.cache;
  for (const [stat, n] of Object.entries(c.stats)) m.readCache.set({ stat }, n);
  m.readCache.set({ stat: 'entries' }, c.size);
  m.readCache.set({ stat: 'bytes' }, c.usedBytes);
  m.changeListenerUp.set(db.changes.live ? 1 : 0);
}

function setDepths(m: Metrics, d: Depths, nowMs: number): void {
  m.outboxEvents.set(d.eventsPending);
  m.outboxOldestAge.set(ageS(d.oldestEventAt, nowMs));
  for (const [state, n] of Object.entries(d.deliveries)) m.deliveries.set({ state }, n);
  m.deliveriesOverdue.set(ageS(d.oldestDueAt, nowMs));
  m.telemetryPending.set(d.telemetry.vehicles);
  m.telemetryOldestPending.set(ageS(d.telemetry.oldestReceivedAt, nowMs));
  m.telemetryFixLag.set(d.telemetry.fixLagS ?? 0);
}

export function scraper(m: Metrics, db: Db, onReadError: (err: unknown) => void): () => Promise<string> {
  const read = depthReader(db, onReadError);
  return async () => {
    setPool(m, db);
    setCache(m, db);
    const started = performance.now();
    const depths = await read();
    m.dbReadDuration.set((performance.now() - started) / 1000);
    m.dbUp.set(depths ? 1 : 0);
    const own = await m.registry.metrics();
    if (!depths) return own;
    setDepths(m, depths, Date.now());
    return `${own.trimEnd()}\n\n${await m.dbRegistry.metrics()}`;
  };
}

/** `2xx`… for an answer, else why there was none (`timeout`, `refused`, `network`, `invalid_url`). */
function resultOf(a: AttemptReport): string {
  if (a.result.status !== null) return `${Math.floor(a.result.status / 100)}xx`;
  return a.result.error ?? 'error';
}

const OUTCOMES: Record<string, string> = {
  delivered: 'delivered',
  rejected: 'rejected',
  pending: 'retry',
  failed: 'failed',
};

export function attemptRecorder(m: Metrics): (a: AttemptReport) => void {
  return (a) => m.webhookAttempts.inc({ outcome: OUTCOMES[a.state] ?? a.state, result: resultOf(a) });
}
