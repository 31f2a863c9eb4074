/**
 * buildApp(config) → a ready Fastify instance with no port. server.ts listens; tests inject.
 */
import { buildSerializer } from './http/plumbing/compiled-schemas.js';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config/index.js';
import { openDb, type Db } from './storage/db.js';
import { migrateToLatest } from './storage/migrate.js';
import { rewriteUrl } from './http/plumbing/routing.js';
import { parseQuery } from './http/plumbing/query.js';
import { validatorCompiler } from './http/plumbing/validation.js';
import { clientErrorHandler, frameworkErrors } from './http/plumbing/framework-errors.js';
import { openApiInfo, PACKAGE_VERSION } from './http/public-api/openapi.js';
import { routeModules } from './http/public-api/routes.js';
import { healthRoutes } from './http/ops/health.js';
import { consoleRoutes } from './http/console/routes.js';
import { loggerOptions, type LogDestination } from './ops/log-format.js';
import { RequestLog } from './ops/request-log.js';
import { appPlugins } from './plugins.js';

export interface BuildOptions {
  /** Use an already open database (the caller closes it) instead of opening config.databaseUrl. */
  db?: Db;
  /** Skip applying migrations (the CLI's `migrate` runs them itself). */
  skipMigrations?: boolean;
  /** The OAuth module's clock, epoch milliseconds (tests move it to expire codes and tokens). */
  clock?: () => number;
  /** Where log lines go instead of stdout (tests read them; `isTTY: true` stands for a terminal). */
  logStream?: LogDestination;
}

let reqSeq = 0;
const REQ_PREFIX = `req-${process.pid.toString(36)}-`;

export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const db = opts.db ?? openDb(config.databaseUrl, { sqliteSynchronous: config.sqliteSynchronous });
  if (!opts.skipMigrations) await migrateToLatest(db);

  const requestLog = new RequestLog();
  const app = Fastify({
    logger: loggerOptions(config, opts.logStream),
    // One line per request (src/ops/request-log.ts) instead of Fastify's two.
    logController: requestLog,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy as FastifyServerOptions['trustProxy'],
    rewriteUrl: (req) => rewriteUrl(req.url ?? '/'),
    requestIdHeader: 'x-request-id',
    genReqId: () => REQ_PREFIX + (++reqSeq).toString(36),
    frameworkErrors,
    clientErrorHandler,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, querystringParser: parseQuery },
    schemaController: { compilersFactory: { buildSerializer } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  db.cache.maxBytes = config.readCacheMaxBytes;
  if (config.readCacheMaxBytes > 0) {
    await db.watchChanges({
      onState: (live, err) =>
        live
          ? app.log.info('change listener connected; read cache on')
          : app.log.warn({ err }, 'change listener lost; read cache off until it reconnects'),
    });
  }

  app.setValidatorCompiler(validatorCompiler());
  app.decorate('db', db);
  app.decorate('config', config);
  app.decorate('sideListeners', new Map<string, string>());
  if (!opts.db) app.addHook('onClose', async () => db.close());
  // JSON is the only request body the API reads; anything else is refused with 400 naming the header.
  app.removeContentTypeParser('text/plain');
  for (const plugin of appPlugins) await app.register(plugin, { db, config, requestLog, clock: opts.clock });

  await app.register(swagger, { openapi: openApiInfo(config) });
  // In a scope of its own, so the hook runs for the docs pages only.
  await app.register(async (docs) => {
    // The docs page as the package writes it has no viewport: a phone would draw it at desktop width.
    docs.addHook('onSend', async (_req, reply, payload) => {
      if (typeof payload !== 'string' || !String(reply.getHeader('content-type') ?? '').startsWith('text/html'))
        return payload;
      return payload.replace('<head>', '<head>\n<meta name="viewport" content="width=device-width, initial-scale=1">');
    });
    await docs.register(swaggerUi, { routePrefix: '/docs', theme: { title: `Fleet platform API ${PACKAGE_VERSION}` } });
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(async (scope) => healthRoutes(scope as never));
  for (const mod of routeModules) await app.register(async (scope) => mod(scope as never));
  await app.register(async (scope) => consoleRoutes(scope as never));

  await app.ready();
  return app;
}
