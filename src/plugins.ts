/**
 * The app's cross-cutting plugins, each named with the plugins it needs declared (fastify-plugin checks
 * them as it registers: a plugin registered before what it needs fails the start, naming both). buildApp
 * (src/app.ts) registers them in this order; the routes come after all of them.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config/index.js';
import type { Db } from './storage/db.js';
import { installMetrics } from './ops/index.js';
import { installLoadShedding } from './ops/load-shedding.js';
import { installAcceptors } from './ops/accept.js';
import type { RequestLog } from './ops/request-log.js';
import { installErrorHandler } from './http/plumbing/error-handler.js';
import { installZonedTimes } from './http/plumbing/zoned-times.js';
import { installRouteIndex } from './http/plumbing/routing.js';
import { installArrayParams } from './http/plumbing/query.js';
import { installAuth } from './http/plumbing/auth.js';
import { installPortableInput } from './http/plumbing/portable-input.js';
import { authenticators } from './auth/authenticators.js';
import { installOAuth } from './http/oauth/install.js';
import { installWebhooks } from './events/webhooks/index.js';
import { installRateLimits } from './limits/index.js';
import { installAppWorkers } from './workers.js';

export interface AppPluginOptions {
  db: Db;
  config: Config;
  requestLog: RequestLog;
  /** The clock of rate limits, OAuth and webhooks, epoch milliseconds (tests move it). */
  clock?: () => number;
}

type Plugin = (app: FastifyInstance, o: AppPluginOptions) => void | Promise<void>;
const plugin = (name: string, dependencies: string[], fn: Plugin) =>
  fp<AppPluginOptions>(async (app, o) => fn(app, o), { name, dependencies, fastify: '5.x' });

/**
 * In registration order. A route added in a plugin takes the error handler and the onRoute hooks that
 * exist when that plugin has loaded, so the plugins that set them come before the first that adds a route
 * (metrics adds GET /metrics).
 */
export const appPlugins = [
  plugin('error-handler', [], (app) => installErrorHandler(app)),
  // The method index behind 405 answers, and the not-found handler.
  plugin('route-index', [], (app) => installRouteIndex(app)),
  // One line per request (src/ops/request-log.ts) instead of Fastify's two.
  plugin('request-log', [], (app, o) => o.requestLog.install(app, o.config)),
  // Its request scope is the first onRequest hook, so that it covers authentication too.
  plugin('metrics', ['error-handler', 'route-index', 'request-log'], (app, o) => installMetrics(app, o.db, o.config)),
  // Set as the request starts (a synchronous hook: no promise per request), so every answer carries them.
  plugin('response-headers', ['metrics'], (app) => {
    app.addHook('onRequest', (req, reply, done) => {
      reply.header('X-Request-Id', req.id);
      reply.header('X-Content-Type-Options', 'nosniff');
      done();
    });
  }),
  // After the response headers, so a request refused for load carries its id; before the rate limits and
  // authentication, so it costs no rate-limit or credential lookup.
  plugin('load-shedding', ['response-headers'], (app, o) => void installLoadShedding(app, o.config.shedding)),
  // So that what is shed is shed at once: a busy node takes on a burst's connections many to a turn.
  plugin('acceptors', [], (app, o) => installAcceptors(app, o.config.shedding.acceptPerTurn)),
  plugin('portable-input', ['error-handler'], (app) => installPortableInput(app)),
  plugin('zoned-times', [], (app) => installZonedTimes(app)),
  plugin('array-params', [], (app) => installArrayParams(app)),
  plugin('rate-limits', ['load-shedding', 'error-handler'], async (app, o) => {
    await installRateLimits(app, o.config, { clock: o.clock });
  }),
  plugin('auth', ['load-shedding', 'rate-limits'], (app, o) => installAuth(app, o.db, authenticators)),
  // The OAuth failure guards count in the rate limits' store (shared through Redis by several nodes).
  plugin('oauth', ['auth', 'rate-limits'], async (app, o) => {
    await installOAuth(app, o.db, o.config, { clock: o.clock, store: app.limits.store });
  }),
  plugin('webhooks', [], (app, o) => void installWebhooks(app, o.db, o.config, { clock: o.clock })),
  // The OsmAnd listener logs through the request log's device logger.
  plugin('workers', ['request-log'], (app) => installAppWorkers(app)),
];
