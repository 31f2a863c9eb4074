/**
 * Concurrency limits per company: a route declaring `concurrencyLimit` lets at most that limit's number
 * of one company's requests run at once (the spec: 10 on GET /v1/vehicle_locations/:id). The slot is
 * taken after authentication (the company is the key) and released when the response is over for the
 * client, whichever way it ends: sent, sent as an error, or abandoned by a client that went away.
 * Slots live in the limits store, so with Redis the limit holds across nodes; a slot a dead node never
 * released is freed after RATE_LIMIT_SLOT_LEASE_S.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { AppError } from '../core/errors.js';
import type { LimitStore } from './store.js';
import type { LimitsConfig } from './settings.js';

export const CONCURRENCY_LIMITS = {
  location_history: {
    route: 'GET /v1/vehicle_locations/:id',
    max: (cfg: LimitsConfig) => cfg.locationHistoryConcurrent,
  },
} as const;

export type ConcurrencyLimit = keyof typeof CONCURRENCY_LIMITS;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** At most this limit's number of one company's requests on the route at once (src/limits/concurrency.ts). */
    concurrencyLimit?: ConcurrencyLimit;
  }
}

/** Seconds a refused request is told to wait: a slot frees as soon as any running request ends. */
const RETRY_AFTER_S = 1;

function onRequestHooks(route: RouteOptions) {
  const h = route.onRequest;
  return h === undefined ? [] : Array.isArray(h) ? h : [h];
}

export function installConcurrencyLimits(app: FastifyInstance, store: LimitStore, cfg: LimitsConfig): void {
  const leaseMs = cfg.slotLeaseS * 1000;
  app.addHook('onRoute', (route) => {
    const name = route.config?.concurrencyLimit;
    if (!name) return;
    if (!route.config?.scope)
      throw new Error(`${route.url}: a concurrency limit needs an authenticated route (a scope)`);
    const label = CONCURRENCY_LIMITS[name].route;
    const max = CONCURRENCY_LIMITS[name].max(cfg);
    if (max === 0) return;
    const take = async (req: FastifyRequest, reply: FastifyReply) => {
      const slot = await store.acquire(`${name}:${req.auth.companyId}`, max, leaseMs);
      if (!slot) {
        throw new AppError(
          'rate_limited',
          `Too many concurrent requests: at most ${max} ${label} requests of one company may run at once. Try again in ${RETRY_AFTER_S} second.`,
          { 'Retry-After': String(RETRY_AFTER_S) },
        );
      }
      const release = () => void slot.release();
      if (reply.raw.closed) release();
      else reply.raw.once('close', release);
    };
    route.onRequest = [...onRequestHooks(route), take] as RouteOptions['onRequest'];
  });
}
