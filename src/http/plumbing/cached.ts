/**
 * GET responses answered from the read cache (storage/read-cache.ts): the body is serialized once by
 * the route's response schema and kept, as text, until a table it was read from changes. The key is
 * the company and the request's path and query, so one tenant never sees another's entry.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

export async function sendCached(
  req: FastifyRequest,
  reply: FastifyReply,
  build: () => Promise<unknown>,
): Promise<void> {
  const key = `${req.auth.companyId} ${req.url}`;
  const body = await req.server.db.cache.remember(key, async () => reply.serialize(await build()) as string);
  reply.type('application/json; charset=utf-8').send(body);
}
