/**
 * Refuses, for every route by construction, text that one database stores and the other refuses (NUL,
 * lone surrogates; storage/portable-values.ts) and non-finite numbers, in the path parameters, the
 * query string and the parsed body (JSON, form or any other parser's result), before validation and
 * so before any write: a 400 naming the field, the same on SQLite and PostgreSQL.
 *
 * A route whose body holds records answered one by one (the device batch API) names that field in
 * `config.recordsField`; the records are checked one by one by their own parser, which rejects only
 * the bad record.
 */
import type { FastifyInstance } from 'fastify';
import { findUnportable, type Unportable } from '../../storage/portable-values.js';
import { validation } from '../../core/errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A body field whose items are validated one by one by the route (see above). */
    recordsField?: string;
  }
}

function bodyProblem(body: unknown, recordsField: string | undefined): Unportable | null {
  if (!recordsField || body === null || typeof body !== 'object' || Array.isArray(body))
    return findUnportable(body, 'body');
  const { [recordsField]: _records, ...rest } = body as Record<string, unknown>;
  return findUnportable(rest, 'body');
}

export function installPortableInput(app: FastifyInstance): void {
  app.addHook('preValidation', (req, _reply, done) => {
    const found =
      findUnportable(req.params, 'path') ??
      findUnportable(req.query, 'query') ??
      bodyProblem(req.body, req.routeOptions.config?.recordsField);
    done(found ? validation(found.field, found.problem) : undefined);
  });
}
