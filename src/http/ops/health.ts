import { Type } from 'typebox';
import type { Api } from '../api.js';

const Status = Type.Object({ status: Type.String() });

export async function healthRoutes(app: Api) {
  app.get(
    '/healthz',
    { schema: { tags: ['health'], summary: 'Process is up', response: { 200: Status } } },
    async () => ({
      status: 'ok',
    }),
  );
  app.get(
    '/readyz',
    {
      schema: { tags: ['health'], summary: 'Ready when the database answers', response: { 200: Status, 503: Status } },
    },
    async (_req, reply) => {
      if (await app.db.ping()) return { status: 'ready' };
      return reply.code(503).send({ status: 'database unavailable' });
    },
  );
}
