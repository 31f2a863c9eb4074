/**
 * Load-shedding settings (LOAD_SHED_*, and ACCEPT_PER_TURN for how fast a busy node takes on new
 * connections), read by config/index.ts. README.md and docs/operations.md
 * (Load shedding) list them with the measurements behind the defaults. A threshold of 0 turns that
 * check off.
 */
import { whole, type Env } from '../config/env.js';

export interface SheddingConfig {
  /**
   * Shed while the event loop's mean delay over the last sample exceeds this many milliseconds
   * (LOAD_SHED_EVENT_LOOP_DELAY_MS, default 200; 0: off).
   */
  eventLoopDelayMs: number;
  /** How often that delay is sampled, milliseconds (LOAD_SHED_SAMPLE_INTERVAL_MS, default 100). */
  sampleIntervalMs: number;
  /**
   * Shed while this many requests are already being served (LOAD_SHED_MAX_IN_FLIGHT_REQUESTS,
   * default 64; 0: no ceiling). The probes and /metrics are not counted.
   */
  maxInFlightRequests: number;
  /** The `Retry-After` of a shed request, seconds (LOAD_SHED_RETRY_AFTER_S, default 1). */
  retryAfterS: number;
  /**
   * How many new connections one turn of the event loop may take on (ACCEPT_PER_TURN, default 32; 1: one,
   * as Node does by itself): the listening socket is polled through that many descriptors (src/ops/accept.ts).
   */
  acceptPerTurn: number;
}

export const SHEDDING_DEFAULTS: SheddingConfig = {
  eventLoopDelayMs: 200,
  sampleIntervalMs: 100,
  maxInFlightRequests: 64,
  retryAfterS: 1,
  acceptPerTurn: 32,
};

export function sheddingConfig(env: Env, error: (m: string) => Error): SheddingConfig {
  const d = SHEDDING_DEFAULTS;
  return {
    eventLoopDelayMs: whole(env, 'LOAD_SHED_EVENT_LOOP_DELAY_MS', d.eventLoopDelayMs, 0, 60_000, error),
    sampleIntervalMs: whole(env, 'LOAD_SHED_SAMPLE_INTERVAL_MS', d.sampleIntervalMs, 10, 10_000, error),
    maxInFlightRequests: whole(env, 'LOAD_SHED_MAX_IN_FLIGHT_REQUESTS', d.maxInFlightRequests, 0, 1_000_000, error),
    retryAfterS: whole(env, 'LOAD_SHED_RETRY_AFTER_S', d.retryAfterS, 1, 3600, error),
    acceptPerTurn: whole(env, 'ACCEPT_PER_TURN', d.acceptPerTurn, 1, 256, error),
  };
}
