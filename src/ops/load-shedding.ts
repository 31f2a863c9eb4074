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
 * - In flight: the work of the requests being served, from their headers until the response closes
 *   (which it does whether it finished or its connection dropped), a body weighing more than a
 *   request without one; src/ops/in-flight.ts says how it is counted.
 * - Long-lived routes (`config.longLived`: the console's live stream) are shed like any other when they
 *   arrive, but not counted: an open stream is idle between its updates.
 *
 * buildApp installs it right after the request-id hook, ahead of rate limits and authentication, so a
 * shed request costs no store round trip and no credential lookup; its body is never parsed.
 */
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../core/errors.js';
import { InFlightWork, weightOf, type Ticket } from './in-flight.js';
import type { SheddingConfig } from './shedding-config.js';

/** Routes answered whatever the load: liveness, readiness, and the metrics that show the shedding. */
export const SHED_EXEMPT_ROUTES: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A request that stays open (a live stream): shed on arrival, never counted in flight. */
    longLived?: boolean;
  }
}

export const SHED_REASONS = ['event_loop_delay', 'in_flight'] as const;
export type ShedReason = (typeof SHED_REASONS)[number];

export interface LoadShedding {
  readonly config: SheddingConfig;
  /** The work in flight now, in requests (a body counts more: src/ops/in-flight.ts); the exempt routes left out. */
  inFlight(): number;
  /** The event loop's delay in the last sample, milliseconds (0 while the check is off). */
  eventLoopDelayMs(): number;
  /** Why a request arriving now would be shed, or null. */
  reason(): ShedReason | null;
  /** Requests shed since start, by reason. */
  readonly shed: Record<ShedReason, number>;
  /**
   * Counts the event loop's lag afresh from now: what ran until now was start-up work (seeding the
   * demo after the port is bound), not load.
   */
  restartLagSampling(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    loadShedding: LoadShedding;
  }
}

/** The body's size as its Content-Length declares it (0 without one, or for a value that is not a number). */
const declaredLength = (req: FastifyRequest): number => Number(req.headers['content-length'] ?? 0) || 0;

export function installLoadShedding(app: FastifyInstance, config: SheddingConfig): LoadShedding {
  const { eventLoopDelayMs: maxDelayMs, maxInFlightRequests, sampleIntervalMs, retryAfterS } = config;
  const work = new InFlightWork();
  const tickets = new WeakMap<object, Ticket>();
  // A body's size: inflated when it came gzipped, else Content-Length, else (chunked) what the
  // connection delivered since the previous counted request on it ended (a few hundred bytes of
  // headers more never make a unit).
  const bytesAtEnd = new WeakMap<object, number>();
  const bodyBytes = (req: FastifyRequest, declared: number): number => {
    if (req.inflatedBytes !== undefined) return req.inflatedBytes;
    if (declared > 0) return declared;
    const socket = req.raw.socket;
    return socket ? socket.bytesRead - (bytesAtEnd.get(socket) ?? 0) : 0;
  };

  // under-pressure reports Infinity for a sample in which its 10 ms timer never ran: the sampler fired
  // first after a block (the block lands in the next sample), or the app was still being built. That
  // is no measurement, so the last real one stands (0 before the first).
  // The samples taken while the app was being built (migrations, indexes: one long synchronous
  // stretch) measure the start, not load: they count only from two sample intervals after the app is
  // ready, so a node does not refuse its first requests for a lag that is already over.
  let lastDelayMs = 0;
  let countFrom = Infinity;
  // And again from when the server listens, and when the caller says start-up work is over
  // (`serve --demo` seeds the demo fleet once the port is bound: seconds of synchronous work).
  const startCounting = async () => {
    countFrom = performance.now() + 2 * sampleIntervalMs;
    lastDelayMs = 0;
  };
  app.addHook('onReady', startCounting);
  app.addHook('onListen', startCounting);
  const delayMs =
    maxDelayMs > 0
      ? () => {
          if (performance.now() < countFrom) return 0;
          const d = app.memoryUsage().eventLoopDelay;
          if (Number.isFinite(d)) lastDelayMs = d;
          return lastDelayMs;
        }
      : () => 0;
  if (maxDelayMs > 0) void app.register(underPressure, { sampleInterval: sampleIntervalMs });

  /**
   * Why a request of `weight` arriving now would be shed, or null. One heavier than the whole ceiling
   * is still admitted when nothing else is in flight.
   */
  const reason = (weight = 1): ShedReason | null => {
    if (maxDelayMs > 0 && delayMs() > maxDelayMs) return 'event_loop_delay';
    if (maxInFlightRequests > 0) {
      const n = work.count;
      if (n > 0 && n + weight > maxInFlightRequests) return 'in_flight';
    }
    return null;
  };
  const state: LoadShedding = {
    config,
    inFlight: () => work.count,
    eventLoopDelayMs: delayMs,
    reason,
    shed: { event_loop_delay: 0, in_flight: 0 },
    restartLagSampling: () => void startCounting(),
  };
  app.decorate('loadShedding', state);
  if (maxDelayMs === 0 && maxInFlightRequests === 0) return state;

  // One instance serves every shed request: building an Error (its stack) per request is what a
  // saturated process can least afford.
  const overloaded = new AppError('overloaded', `server is overloaded; retry in ${retryAfterS} s`, {
    'Retry-After': String(retryAfterS),
  });
  app.addHook('onRequest', (req, reply, done) => {
    if (SHED_EXEMPT_ROUTES.has(req.routeOptions.url ?? '')) return done();
    const declared = declaredLength(req);
    const why = reason(weightOf(declared));
    if (why !== null) {
      state.shed[why]++;
      return done(overloaded);
    }
    if (req.routeOptions.config.longLived) return done();
    const body = declared > 0 || req.headers['transfer-encoding'] !== undefined;
    const ticket = work.admit(weightOf(declared), body);
    if (body) tickets.set(req.raw, ticket);
    const socket = req.raw.socket;
    reply.raw.once('close', () => {
      work.release(ticket);
      if (socket) bytesAtEnd.set(socket, socket.bytesRead);
    });
    done();
  });
  // The body is in (and parsed): its real size sets the weight.
  app.addHook('preValidation', (req, reply, done) => {
    const ticket = tickets.get(req.raw);
    if (ticket) work.settle(ticket, weightOf(bodyBytes(req, declaredLength(req))));
    done();
  });
  return state;
}
