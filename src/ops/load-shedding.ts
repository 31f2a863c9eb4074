/**
 * Load shedding (docs/operations.md, Load shedding): while the event loop lags or too many requests
 * are already being served, a new request is answered at once with 503 `overloaded`
 * (`{"error_message":"server is overloaded; retry in 1 s"}`, `Retry-After`) instead of joining a queue
 * it would time out in. The probes and /metrics are never shed, and are not counted in flight, so an
 * orchestrator and Prometheus still see the node while it sheds.
 *
 * - Event-loop delay: @fastify/under-pressure samples it (the mean delay of a 10 ms timer, every
 *   LOAD_SHED_SAMPLE_INTERVAL_MS); it is registered here without thresholds of its own, as the
 *   sampler only, so that the decision below stays the first thing a request meets after its id,
 *   skips the exempt routes and answers in the project's error form.
 * - In flight: requests being worked on, from when their body is in until the response closes (which
 *   it does whether it finished or its connection dropped).
 *
 * buildApp installs it right after the request-id hook, ahead of rate limits and authentication, so a
 * shed request costs no store round trip and no credential lookup; its body is never parsed.
 */
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../http/plumbing/errors.js';
import type { SheddingConfig } from './shedding-config.js';

/** Routes answered whatever the load: liveness, readiness, and the metrics that show the shedding. */
export const SHED_EXEMPT_ROUTES: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

export const SHED_REASONS = ['event_loop_delay', 'in_flight'] as const;
export type ShedReason = (typeof SHED_REASONS)[number];

export interface LoadShedding {
  readonly config: SheddingConfig;
  /** Requests being served now (the exempt routes left out). */
  inFlight(): number;
  /** The event loop's delay in the last sample, milliseconds (0 while the check is off). */
  eventLoopDelayMs(): number;
  /** Why a request arriving now would be shed, or null. */
  reason(): ShedReason | null;
  /** Requests shed since start, by reason. */
  readonly shed: Record<ShedReason, number>;
}

declare module 'fastify' {
  interface FastifyInstance {
    loadShedding: LoadShedding;
  }
}

export function installLoadShedding(app: FastifyInstance, config: SheddingConfig): LoadShedding {
  const { eventLoopDelayMs: maxDelayMs, maxInFlightRequests, sampleIntervalMs, retryAfterS } = config;
  let inFlight = 0;
  const release = () => void inFlight--;
  // under-pressure reports Infinity for a sample in which its 10 ms timer never ran: the sampler fired
  // first after a block (the block lands in the next sample), or the app was still being built. That
  // is no measurement, so the last real one stands (0 before the first).
  // The samples taken while the app was being built (migrations, indexes: one long synchronous
  // stretch) measure the start, not load: they count only from two sample intervals after the app is
  // ready, so a node does not refuse its first requests for a lag that is already over.
  let lastDelayMs = 0;
  let countFrom = Infinity;
  app.addHook('onReady', async () => {
    countFrom = performance.now() + 2 * sampleIntervalMs;
  });
  const delayMs = maxDelayMs > 0
    ? () => {
      if (performance.now() < countFrom) return 0;
      const d = app.memoryUsage().eventLoopDelay;
      if (Number.isFinite(d)) lastDelayMs = d;
      return lastDelayMs;
    }
    : () => 0;
  if (maxDelayMs > 0) void app.register(underPressure, { sampleInterval: sampleIntervalMs });

  const reason = (): ShedReason | null => {
    if (maxDelayMs > 0 && delayMs() > maxDelayMs) return 'event_loop_delay';
    if (maxInFlightRequests > 0 && inFlight >= maxInFlightRequests) return 'in_flight';
    return null;
  };
  const state: LoadShedding = {
    config,
    inFlight: () => inFlight,
    eventLoopDelayMs: delayMs,
    reason,
    shed: { event_loop_delay: 0, in_flight: 0 },
  };
  app.decorate('loadShedding', state);
  if (maxDelayMs === 0 && maxInFlightRequests === 0) return state;

  // One instance serves every shed request: building an Error (its stack) per request is what a
  // saturated process can least afford.
  const overloaded = new AppError('overloaded', `server is overloaded; retry in ${retryAfterS} s`, { 'Retry-After': String(retryAfterS) });
  app.addHook('onRequest', (req, reply, done) => {
    if (SHED_EXEMPT_ROUTES.has(req.routeOptions.url ?? '')) return done();
    const why = reason();
    if (why !== null) {
      state.shed[why]++;
      return done(overloaded);
    }
    done();
  });
  // Counted once its body is in: a client slow to upload holds a socket, not the server's work, and
  // must not make the node shed everyone else.
  app.addHook('preValidation', (req, reply, done) => {
    if (!SHED_EXEMPT_ROUTES.has(req.routeOptions.url ?? '')) {
      inFlight++;
      reply.raw.once('close', release);
    }
    done();
  });
  return state;
}
