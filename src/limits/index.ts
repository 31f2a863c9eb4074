/**
 * Rate limits and concurrency limits (docs/rate-limits.md). installRateLimits runs on the root
 * instance before the auth hook and before any route, so that its onRequest hook counts before
 * authentication and its onRoute hooks see every route. It builds the one store every limit uses —
 * Redis with memory as the fallback when REDIS_URL is set, memory otherwise — and hands it to the
 * failed-attempt limiters of sign-in and the token endpoint too (`app.limits.store`).
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Config } from '../config/index.js';
import { FailoverStore } from './failover-store.js';
import { MemoryStore } from './memory-store.js';
import { RedisStore, limitsRedisClient } from './redis-store.js';
import { installRequestLimits } from './request-limits.js';
import { installConcurrencyLimits } from './concurrency.js';
import type { LimitStore } from './store.js';
import type { LimitsConfig } from './settings.js';

export interface RateLimits {
  store: LimitStore;
  config: LimitsConfig;
}

declare module 'fastify' {
  interface FastifyInstance {
    limits: RateLimits;
  }
}

const TooManyRequests = Type.Object(
  { error_message: Type.String() },
  {
    description:
      'Too many requests (rate or concurrency limit, docs/rate-limits.md): the message names the limit; Retry-After says in how many seconds to try again',
  },
);

/** Documents the 429 on every limited route that documents its responses. */
function documentTooManyRequests(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const limited = route.config?.scope || route.config?.rateLimitBy === 'device';
    const response = route.schema?.response as Record<string, unknown> | undefined;
    if (!limited || !response) return;
    route.schema = { ...route.schema, response: { ...response, 429: TooManyRequests } };
  });
}

async function openStore(app: FastifyInstance, config: Config, memory: MemoryStore): Promise<LimitStore> {
  if (!config.redisUrl) return memory;
  const { redisCommandTimeoutMs, redisKeyPrefix } = config.limits;
  const client = limitsRedisClient(config.redisUrl, { commandTimeoutMs: redisCommandTimeoutMs });
  const store = new FailoverStore(new RedisStore(client, redisKeyPrefix), memory, app.log);
  app.addHook('onClose', () => store.close());
  await store.connect();
  return store;
}

export async function installRateLimits(
  app: FastifyInstance,
  config: Config,
  opts: { clock?: () => number } = {},
): Promise<RateLimits> {
  const store = await openStore(app, config, new MemoryStore(opts.clock));
  const limits: RateLimits = { store, config: config.limits };
  app.decorate('limits', limits);
  installRequestLimits(app, store, config.limits);
  installConcurrencyLimits(app, store, config.limits);
  documentTooManyRequests(app);
  return limits;
}
