/**
 * Retention and the maintenance job (RETENTION_*, MAINTENANCE_*; docs/storage.md, Retention). A number of
 * days is how long rows are kept after their time; 0 keeps them for ever.
 *
 * Defaults follow what the law asks a carrier to keep:
 * - raw device records, 184 days: the records of duty status and their supporting documents (the ELD's
 *   records among them) for at least six months, 49 CFR 395.8(k)(1);
 * - derived trips and distance (driving periods, IFTA's jurisdiction distance, utilization and the
 *   other derived events), 1,584 days: IFTA records four years from the due date of the return
 *   (IFTA Articles of Agreement R1000; Procedures Manual P1100), which is the last day of the month
 *   after the quarter, so a trip at the start of a quarter is kept 4 years and 4 months;
 * - the outbox's fanned-out events and finished webhook deliveries, 30 days: operational logs that no
 *   rule asks for, kept long enough to look into a delivery problem.
 */
import { flag, whole, type Env } from './env.js';

export interface RetentionConfig {
  /** telemetry_records (RETENTION_RAW_DAYS). */
  rawDays: number;
  /** Derived telemetry and IFTA distance (RETENTION_DERIVED_DAYS). */
  derivedDays: number;
  /** domain_events already fanned out (RETENTION_OUTBOX_DAYS). */
  outboxDays: number;
  /** Delivered or failed webhook deliveries (RETENTION_WEBHOOK_LOG_DAYS). */
  webhookLogDays: number;
  /**
   * PostgreSQL: a week of raw records whose end is this many days old loses its stored history text
   * and is rewritten lean (RETENTION_COMPACT_AFTER_DAYS; 0, the default: never on the timer; ./compact.ts).
   * Off by default: measured, it saved about 2 % of a week's bytes (bench/RESULTS.md) while its rewrite
   * holds the week's partition exclusively, so a late record of that week would wait for it.
   */
  compactAfterDays: number;
  /** The job's period on a serving node, seconds (MAINTENANCE_INTERVAL_S; 0: never, `fleet retention` only). */
  intervalS: number;
  /** Whether the node's job also applies retention, or only creates partitions ahead (RETENTION_ON_TIMER). */
  onTimer: boolean;
}

export const RAW_DAYS_DEFAULT = 184;

export function retentionConfig(env: Env, fail: (m: string) => Error): RetentionConfig {
  const days = (name: string, def: number) => whole(env, name, def, 0, 36_500, fail);
  return {
    rawDays: days('RETENTION_RAW_DAYS', RAW_DAYS_DEFAULT),
    derivedDays: days('RETENTION_DERIVED_DAYS', 1584),
    outboxDays: days('RETENTION_OUTBOX_DAYS', 30),
    webhookLogDays: days('RETENTION_WEBHOOK_LOG_DAYS', 30),
    compactAfterDays: days('RETENTION_COMPACT_AFTER_DAYS', 0),
    intervalS: whole(env, 'MAINTENANCE_INTERVAL_S', 3600, 0, 86_400, fail),
    onTimer: flag(env, 'RETENTION_ON_TIMER', true, fail),
  };
}

/**
 * The oldest a device record may be and still be accepted: TELEMETRY_MAX_AGE_DAYS, but never older
 * than the raw records are kept. A record older than that would go on the next retention run, and on
 * PostgreSQL its week's partition may already be gone.
 */
export const acceptedAgeDays = (maxAgeDays: number, r: RetentionConfig) =>
  r.rawDays > 0 ? Math.min(maxAgeDays, r.rawDays) : maxAgeDays;
