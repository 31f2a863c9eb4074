/**
 * Webhook settings (WEBHOOK_*), read by config/index.ts. Every value has its unit in its name and a
 * default; README.md lists them.
 */
export interface WebhookConfig {
  /** Run the delivery worker in the server process (WEBHOOK_WORKER, default on; `0`/`false` turns it off). */
  worker: boolean;
  /**
   * Allow targets on loopback, private, link-local and metadata addresses (WEBHOOK_ALLOW_PRIVATE, default
   * off). Only for development and tests: it lets a webhook reach the server's own network.
   */
  allowPrivate: boolean;
  /** The receiver must answer within this many milliseconds (WEBHOOK_TIMEOUT_MS, default 3000). */
  timeoutMs: number;
  /**
   * Delay before each retry after a failed attempt, seconds (WEBHOOK_RETRY_SCHEDULE_S, comma-separated;
   * default 10,60,300,600,3600,3600,3600,86400: 8 retries, 9 attempts in all). After the last, failed.
   */
  retryScheduleS: number[];
  /**
   * Body of the test delivery (WEBHOOK_TEST_BODY): `actions` (default) sends a JSON array of the
   * webhook's action names, `legacy` the 2017 form `{"action":"test"}`.
   */
  testBody: 'actions' | 'legacy';
  /** Most deliveries one node has in flight at once (WEBHOOK_CONCURRENCY, default 64). */
  concurrency: number;
  /** How often an idle worker looks for new events and due retries, milliseconds (WEBHOOK_POLL_MS, default 200). */
  pollMs: number;
  /**
   * How long a claimed delivery belongs to the worker that claimed it, milliseconds (WEBHOOK_LEASE_MS,
   * default 30000; at least twice the timeout). A node that dies mid-delivery loses its claims after
   * this long and another node makes the attempt again.
   */
  leaseMs: number;
}

import { flag, whole, type Env } from '../../config/env.js';

/** A yes/no setting: 1/0, true/false, on/off, yes/no. */

export const DEFAULT_RETRY_SCHEDULE_S = [10, 60, 300, 600, 3600, 3600, 3600, 86_400];

function schedule(env: Env, error: (m: string) => Error): number[] {
  const raw = env.WEBHOOK_RETRY_SCHEDULE_S;
  if (raw === undefined || raw.trim() === '') return [...DEFAULT_RETRY_SCHEDULE_S];
  if (raw.trim() === 'none') return [];
  const parts = raw.split(',').map((s) => s.trim());
  if (parts.length > 50 || parts.some((p) => !/^\d+$/.test(p) || Number(p) < 1 || Number(p) > 604_800)) {
    throw error(
      `WEBHOOK_RETRY_SCHEDULE_S must be up to 50 comma-separated delays in seconds (1 to 604800), or none; got "${raw}"`,
    );
  }
  return parts.map(Number);
}

export function webhookConfig(env: Env, error: (m: string) => Error): WebhookConfig {
  const timeoutMs = whole(env, 'WEBHOOK_TIMEOUT_MS', 3000, 50, 60_000, error);
  const testBody = env.WEBHOOK_TEST_BODY || 'actions';
  if (testBody !== 'actions' && testBody !== 'legacy') {
    throw error(`WEBHOOK_TEST_BODY must be actions or legacy, got "${testBody}"`);
  }
  const leaseMs = whole(env, 'WEBHOOK_LEASE_MS', Math.max(30_000, 2 * timeoutMs), 1000, 3_600_000, error);
  if (leaseMs < 2 * timeoutMs)
    throw error(`WEBHOOK_LEASE_MS must be at least twice WEBHOOK_TIMEOUT_MS (${2 * timeoutMs}), got ${leaseMs}`);
  return {
    worker: flag(env, 'WEBHOOK_WORKER', true, error),
    allowPrivate: flag(env, 'WEBHOOK_ALLOW_PRIVATE', false, error),
    timeoutMs,
    retryScheduleS: schedule(env, error),
    testBody,
    concurrency: whole(env, 'WEBHOOK_CONCURRENCY', 64, 1, 1024, error),
    pollMs: whole(env, 'WEBHOOK_POLL_MS', 200, 10, 60_000, error),
    leaseMs,
  };
}
