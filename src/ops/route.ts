/**
 * `GET /metrics`: the Prometheus text format, for the operator's token only (`Authorization: Bearer
 * <METRICS_TOKEN>`, compared in constant time). Left out of the OpenAPI document: it is not part of the
 * Motive-compatible API.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Registry } from 'prom-client';
import { AppError } from '../core/errors.js';

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="metrics"' };

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** A check that throws the 401 unless the request carries the token. */
export function tokenCheck(token: string): (req: FastifyRequest) => void {
  const expected = sha256(token);
  return (req) => {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    if (!m)
      throw new AppError(
        'unauthenticated',
        'metrics need the operator token: send Authorization: Bearer <METRICS_TOKEN>',
        CHALLENGE,
      );
    // Digests have one length, so the comparison takes the same time whatever was sent.
    if (!timingSafeEqual(sha256(m[1]), expected))
      throw new AppError('invalid_token', 'invalid metrics token', CHALLENGE);
  };
}

export function metricsRoute(
  app: FastifyInstance,
  token: string,
  contentType: Registry['contentType'],
  render: () => Promise<string>,
): void {
  const check = tokenCheck(token);
  app.get(
    '/metrics',
    {
      schema: { hide: true },
      onRequest: async (req) => check(req),
    },
    async (_req, reply) => reply.type(contentType).send(await render()),
  );
}
