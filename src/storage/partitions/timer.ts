/**
 * The maintenance job on a serving node (src/workers.ts): once at start and every MAINTENANCE_INTERVAL_S
 * (an hour by default). Every run keeps PostgreSQL's partitions ahead; with RETENTION_ON_TIMER (the
 * default) it also applies retention and compacts one past week. Several nodes may run it: on
 * PostgreSQL one at a time works and the others find the lock taken (./maintain.ts). A failed run is
 * logged and the next one tries again.
 */
import type { Db } from '../db.js';
import { runMaintenance } from './maintain.js';
import type { RetentionConfig } from '../../config/retention.js';

interface Log {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export function startMaintenanceTimer(db: Db, cfg: RetentionConfig, log: Log): { stop(): Promise<void> } {
  if (cfg.intervalS === 0) return { stop: async () => {} };
  let running: Promise<void> | null = null;
  let stopped = false;
  const once = async () => {
    try {
      const run = await runMaintenance(db, cfg, {
        nowMs: Date.now(),
        dryRun: false,
        retention: cfg.onTimer,
        compact: cfg.onTimer ? { afterDays: cfg.compactAfterDays, limit: 1 } : undefined,
        // Between delete batches the node serves what waited.
        pause: () => new Promise((r) => setImmediate(r)),
      });
      const deleted = run.retention.reduce((a, l) => a + l.rows, 0);
      if (run.created.length || run.compacted.length || deleted)
        log.info(
          { partitions_created: run.created, weeks_compacted: run.compacted, rows_deleted: deleted },
          'storage maintenance',
        );
    } catch (err) {
      if (!stopped) log.error({ err }, 'storage maintenance failed');
    }
  };
  const tick = () => {
    if (!running && !stopped) running = once().finally(() => (running = null));
  };
  tick();
  const timer = setInterval(tick, cfg.intervalS * 1000);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
