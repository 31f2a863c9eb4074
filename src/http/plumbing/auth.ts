/**
 * The auth hook. A route opts in by declaring the scope it needs (`config.scope`); the hook then finds
 * the credential, resolves it to an AuthContext through the first authenticator that recognises the
 * request, checks the scope, and validates X-User-Id. Credential types plug in with
 * `registerAuthenticator` without touching routes.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../storage/db.js';
import { hasScope, type AuthContext, type Principal } from '../../core/context.js';
import type { Authenticator } from '../../auth/authenticator.js';
import type { Scope } from '../../auth/scopes.js';
import { INT32_MAX } from '../../storage/portable-values.js';
import { AppError } from '../../core/errors.js';
import { activeAdminId } from '../../domain/users/acting.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The OAuth scope this route needs (src/auth/scopes.ts); its presence makes the route authenticated. */
    scope?: Scope;
  }
  interface FastifyRequest {
    auth: AuthContext;
  }
}

export function installAuth(app: FastifyInstance, db: Db, authenticators: Authenticator[]): void {
  app.decorateRequest('auth', null as unknown as AuthContext);
  // A callback hook: a credential this process already knows is admitted without a promise.
  app.addHook('onRequest', (req, _reply, done) => {
    const scope = req.routeOptions.config?.scope;
    if (!scope) return done();
    for (const a of authenticators) {
      const cred = a.credential(req);
      if (cred === null) continue;
      const found = a.authenticate(db, cred);
      if (found instanceof Promise) found.then((p) => admit(req, scope, p, done), done);
      else admit(req, scope, found, done);
      return;
    }
    done(
      new AppError(
        'unauthenticated',
        'authentication required: send Authorization: Bearer <access token> or X-Api-Key',
      ),
    );
  });

  /** Checks the principal's scope and X-User-Id, then sets req.auth; every outcome reaches `done`. */
  function admit(req: FastifyRequest, scope: Scope, principal: Principal | AppError, done: (e?: Error) => void) {
    if (principal instanceof AppError) return done(principal);
    const ctx: AuthContext = { ...principal, actingUserId: null };
    if (!hasScope(ctx, scope)) {
      return done(new AppError('insufficient_scope', `this request needs the ${scope} scope, which was not granted`));
    }
    const header = req.headers['x-user-id'];
    if (header === undefined || header === '') {
      req.auth = ctx;
      return done();
    }
    actingAdmin(db, ctx.companyId, String(header)).then((id) => {
      ctx.actingUserId = id;
      req.auth = ctx;
      done();
    }, done);
  }
}

async function actingAdmin(db: Db, companyId: number, header: string): Promise<number> {
  if (!/^\d+$/.test(header))
    throw new AppError('forbidden', `X-User-Id must be the id of an admin of this company, got "${header}"`);
  // An id past the integer column's range names nobody (and PostgreSQL would refuse the query).
  if (Number(header) > INT32_MAX)
    throw new AppError('forbidden', `X-User-Id ${header} is not an active admin of this company`);
  const id = await activeAdminId(db, companyId, Number(header));
  if (id === undefined) throw new AppError('forbidden', `X-User-Id ${header} is not an active admin of this company`);
  return id;
}
