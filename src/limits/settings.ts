/**
 * Rate-limit and concurrency settings (RATE_LIMIT_*, REDIS_*), read by config/index.ts. Every value has
 * its unit in its name and a default; README.md and docs/rate-limits.md list them. A limit of 0 turns
 * that limit off.
 */
export interface LimitsConfig {
  /** The fixed window of the request-rate limits, seconds (RATE_LIMIT_WINDOW_S, default 60). */
  windowS: number;
  /** Requests per window per API credential, an OAuth access token or an API key (RATE_LIMIT_REQUESTS_PER_CREDENTIAL, default 30000). */
  requestsPerCredential: number;
  /** Requests per window per device credential on the device API (RATE_LIMIT_REQUESTS_PER_DEVICE, default 1200). */
  requestsPerDevice: number;
  /** Requests per window per client IP address to the OAuth endpoints and the sign-in pages (RATE_LIMIT_REQUESTS_PER_IP, default 600). */
  requestsPerIp: number;
  /** GET /v1/vehicle_locations/:id requests of one company in flight at once (RATE_LIMIT_LOCATION_HISTORY_CONCURRENT, default 10: the spec's). */
  locationHistoryConcurrent: number;
  /** A concurrency slot that was not released after this many seconds is freed anyway (a crashed node): RATE_LIMIT_SLOT_LEASE_S, default 60. */
  slotLeaseS: number;
  /** A Redis command that has not answered within this many milliseconds counts as an outage (REDIS_COMMAND_TIMEOUT_MS, default 250). */
  redisCommandTimeoutMs: number;
  /** Prefix of every Redis key this server writes (REDIS_KEY_PREFIX, default `fleet:`), so that deployments can share a Redis. */
  redisKeyPrefix: string;
}

import { whole, type Env } from '../config/env.js';

function keyPrefix(env: Env, error: (m: string) => Error): string {
  const raw = env.REDIS_KEY_PREFIX;
  if (raw === undefined || raw === '') return 'fleet:';
  if (!/^[A-Za-z0-9:_.-]{1,64}$/.test(raw)) {
    throw error(`REDIS_KEY_PREFIX must be 1 to 64 letters, digits or the characters : _ . -, got "${raw}"`);
  }
  return raw;
}

const MAX_REQUESTS = 1_000_000_000;

export function limitsConfig(env: Env, error: (m: string) => Error): LimitsConfig {
  return {
    windowS: whole(env, 'RATE_LIMIT_WINDOW_S', 60, 1, 86_400, error),
    requestsPerCredential: whole(env, 'RATE_LIMIT_REQUESTS_PER_CREDENTIAL', 30_000, 0, MAX_REQUESTS, error),
    requestsPerDevice: whole(env, 'RATE_LIMIT_REQUESTS_PER_DEVICE', 1200, 0, MAX_REQUESTS, error),
    requestsPerIp: whole(env, 'RATE_LIMIT_REQUESTS_PER_IP', 600, 0, MAX_REQUESTS, error),
    locationHistoryConcurrent: whole(env, 'RATE_LIMIT_LOCATION_HISTORY_CONCURRENT', 10, 0, 1_000_000, error),
    slotLeaseS: whole(env, 'RATE_LIMIT_SLOT_LEASE_S', 60, 1, 86_400, error),
    redisCommandTimeoutMs: whole(env, 'REDIS_COMMAND_TIMEOUT_MS', 250, 10, 60_000, error),
    redisKeyPrefix: keyPrefix(env, error),
  };
}
