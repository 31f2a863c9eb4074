/**
 * POST /oauth/token, POST /oauth/revoke and GET /.well-known/oauth-authorization-server. Parameters come
 * from the form body (application/x-www-form-urlencoded, or JSON) and from the query string, the body
 * winning (docs/reference/wire.md §8.4). Every answer is JSON with `Cache-Control: no-store`; errors use the RFC
 * 6749 form `{"error","error_description"}`, never `{"error_message"}`.
 */
import formbody from '@fastify/formbody';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Api } from '../api.js';
import { SCOPES } from '../../auth/scopes.js';
import { OAuthError, invalidRequest } from '../../auth/oauth/errors.js';
import { AppError } from '../../core/errors.js';
import { runtimeFor } from '../../auth/oauth/runtime.js';
import { revokeRequest, tokenRequest, GRANT_HANDLERS, type ClientRequest } from '../../auth/oauth/token-endpoint.js';
import { clientIp } from '../plumbing/web-pages.js';

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

function sendOAuthError(reply: FastifyReply, err: OAuthError): FastifyReply {
  return reply
    .code(err.status)
    .headers({ ...NO_STORE, ...err.headers })
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ error: err.error, error_description: err.description }));
}

/** Query string and body merged, the body winning; a parameter repeated within either is refused. */
export function mergedParams(req: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const source of [req.query, req.body]) {
    if (!source || typeof source !== 'object') continue;
    for (const [k, v] of Object.entries(source as Record<string, unknown>)) {
      if (typeof v !== 'string') throw invalidRequest(`Parameter ${k} must be given once, as text.`);
      out[k] = v;
    }
  }
  return out;
}

function clientRequest(req: FastifyRequest): ClientRequest {
  return { params: mergedParams(req), authorization: req.headers.authorization, ip: clientIp(req) };
}

export async function oauthTokenRoutes(app: Api): Promise<void> {
  await app.register(formbody);
  // A client that labels an empty body as JSON and puts the parameters in the query string still works.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body).trim();
    if (text === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(invalidRequest('The JSON body is not valid JSON.'), undefined);
    }
  });
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof OAuthError) return sendOAuthError(reply, err);
    if (err instanceof AppError && err.code === 'rate_limited') {
      return sendOAuthError(reply, new OAuthError('temporarily_unavailable', err.message, 429, err.headers));
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      const what =
        err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? 'Send the parameters as application/x-www-form-urlencoded (or in the query string).'
          : 'The request body could not be read.';
      return sendOAuthError(reply, invalidRequest(what));
    }
    req.log.error({ err }, 'unhandled error');
    return sendOAuthError(
      reply,
      new OAuthError('server_error', `The server could not complete the request (request id ${req.id}).`, 500),
    );
  });
  const hide = { schema: { hide: true } };
  const perIp = { ...hide, config: { rateLimitBy: 'ip' as const } };

  app.post('/oauth/token', perIp, async (req, reply) => {
    const res = await tokenRequest(app.db, runtimeFor(app.db), clientRequest(req));
    return reply.headers(NO_STORE).type('application/json; charset=utf-8').send(JSON.stringify(res));
  });

  app.post('/oauth/revoke', perIp, async (req, reply) => {
    await revokeRequest(app.db, runtimeFor(app.db), clientRequest(req));
    return reply.headers(NO_STORE).type('application/json; charset=utf-8').send('{}');
  });

  app.get('/.well-known/oauth-authorization-server', hide, async (_req, reply) => {
    const base = app.config.publicUrl;
    return reply.type('application/json; charset=utf-8').send(
      JSON.stringify({
        issuer: base,
        authorization_endpoint: `${base}/oauth/authorize`,
        token_endpoint: `${base}/oauth/token`,
        revocation_endpoint: `${base}/oauth/revoke`,
        scopes_supported: Object.keys(SCOPES),
        response_types_supported: ['code'],
        response_modes_supported: ['query'],
        grant_types_supported: Object.keys(GRANT_HANDLERS),
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        service_documentation: `${base}/docs`,
      }),
    );
  });
}
