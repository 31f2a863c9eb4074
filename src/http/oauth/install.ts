/**
 * OAuth 2.0 wiring (docs/oauth.md). installOAuth runs on the root instance before any route is
 * registered, so that its hooks see every route:
 * - it records each route with the scope it declares (docs/scopes.md, the scope tests) and puts the
 *   security requirement of every scoped route into the OpenAPI document;
 * - it adds the RFC 6750 challenge to 401 and 403 answers of scoped routes;
 * - it registers the token endpoint (JSON) and the web pages (HTML) in their own scopes, where the form
 *   body parser, cookies and the page error handler live.
 */
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import type { Api } from '../api.js';
import type { Config } from '../../config/index.js';
import type { Db } from '../../storage/db.js';
import { AppError } from '../../core/errors.js';
import type { Clock } from '../../auth/oauth/clock.js';
import type { LimitStore } from '../../limits/store.js';
import { attachRuntime, createRuntime, detachRuntime, type OAuthRuntime } from '../../auth/oauth/runtime.js';
import { bearerChallenge, bearerToken } from '../../auth/oauth/bearer.js';
import { oauthTokenRoutes } from './token.js';
import { authorizeRoutes } from './authorize.js';
import { fleetAppsRoutes } from './fleet-apps.js';
import { portalRoutes } from './portal.js';
import { installPageErrors } from '../plumbing/web-pages.js';

export interface ApiRoute {
  method: string;
  url: string;
  /** The scope the route declares (`config.scope`); undefined for unauthenticated routes. */
  scope: string | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    oauth: OAuthRuntime;
    /** Every route registered after installOAuth, with its declared scope. */
    apiRoutes: ApiRoute[];
  }
}

export const isVersioned = (url: string) => /^\/v\d+\//.test(url);

export async function installOAuth(
  app: FastifyInstance,
  db: Db,
  config: Config,
  opts: { clock?: Clock; store?: LimitStore } = {},
): Promise<OAuthRuntime> {
  const rt = createRuntime(config, opts.clock, opts.store);
  attachRuntime(db, rt);
  app.addHook('onClose', async () => detachRuntime(db, rt));
  app.decorate('oauth', rt);
  const routes: ApiRoute[] = [];
  app.decorate('apiRoutes', routes);

  app.addHook('onRoute', (route) => {
    const scope = route.config?.scope;
    for (const m of Array.isArray(route.method) ? route.method : [route.method]) {
      if (m !== 'HEAD') routes.push({ method: m.toUpperCase(), url: route.url, scope });
    }
    if (scope) {
      route.schema = { ...(route.schema ?? {}), security: [{ apiKey: [] }, { oauth2: [scope] }] };
    }
  });

  app.addHook('onError', async (req, reply, err) => {
    const scope = req.routeOptions.config?.scope;
    if (!scope || !(err instanceof AppError) || reply.hasHeader('www-authenticate')) return;
    if (err.code === 'unauthenticated') reply.header('WWW-Authenticate', 'Bearer realm="api"');
    if (err.code === 'insufficient_scope' && bearerToken(req) !== null) {
      reply.header('WWW-Authenticate', bearerChallenge('insufficient_scope', err.message, { scope }));
    }
  });

  await app.register(async (scope) => oauthTokenRoutes(scope as unknown as Api));
  await app.register(async (web) => {
    await web.register(formbody);
    await web.register(cookie, { secret: config.cookieSecret, hook: 'onRequest' });
    installPageErrors(web as unknown as Api);
    for (const routes of [authorizeRoutes, fleetAppsRoutes, portalRoutes]) await routes(web as unknown as Api);
  });
  return rt;
}
