/**
 * The database work of each request: an AsyncLocalStorage scope entered when the request arrives (the
 * first hook), so that every query made while serving the request, in hooks, handler and services, is
 * counted on it. On Node 20 the scope survives a body that arrives in later socket reads
 * (test/ops/slow-log.test.ts sends one). Work outside any request (the webhook worker, the telemetry
 * sweep) is counted nowhere.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';
import type { LogEvent } from 'kysely';

export interface RequestScope {
  dbQueries: number;
  dbTimeMs: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's database work, while the slow-request log is on (src/ops). */
    opsScope: RequestScope | null;
  }
}

export function installRequestScope(app: FastifyInstance): (e: LogEvent) => void {
  const storage = new AsyncLocalStorage<RequestScope>();
  app.decorateRequest('opsScope', null);
  app.addHook('onRequest', (req, _reply, done) => {
    const scope: RequestScope = { dbQueries: 0, dbTimeMs: 0 };
    req.opsScope = scope;
    storage.run(scope, done);
  });
  return (e) => {
    const scope = storage.getStore();
    if (scope) {
      scope.dbQueries++;
      scope.dbTimeMs += e.queryDurationMillis;
    }
  };
}
