/**
 * The authorization endpoint and the fleet sign-in it needs (docs/reference/wire.md §8.2):
 *   GET  /oauth/authorize  checks the request; signed out → the sign-in page; signed in → the consent
 *                          page, or straight back with a code when the company already granted every
 *                          requested scope to this app
 *   POST /oauth/authorize  the consent form: Allow → redirect_uri?code=…&state=…, Deny → error=access_denied
 *   GET|POST /sign-in, POST /sign-out   fleet sessions (company admins and fleet managers)
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Api } from '../api.js';
import { AppError } from '../../core/errors.js';
import { checkAuthorizeRequest, errorRedirect, withQuery, type AuthorizeCheck } from '../../auth/oauth/authorize.js';
import { fleetUser, normalizeEmail, verifyFleetUser } from '../../auth/oauth/accounts.js';
import { activeGrant, recordConsent } from '../../auth/oauth/grants.js';
import { issueCode } from '../../auth/oauth/tokens.js';
import { refusalMessage } from '../../limits/failures.js';
import { runtimeFor } from '../../auth/oauth/runtime.js';
import { createSession, destroySession } from '../../auth/oauth/sessions.js';
import { consentPage, errorPage, signedInAside, signInPage } from './views/flow-pages.js';
import {
  SESSION_COOKIE,
  anonymousCsrf,
  checkAnonymousCsrf,
  clientIp,
  cookieOptions,
  csrfProblem,
  field,
  localPath,
  sendPage,
  sessionOf,
} from '../plumbing/web-pages.js';
import { objectOf } from '../plumbing/unvalidated.js';

/** Where sign-in lands without a return_to: the fleet console. */
const DEFAULT_LANDING = '/console';

export async function authorizeRoutes(app: Api): Promise<void> {
  const rt = runtimeFor(app.db);
  const hide = { schema: { hide: true } };
  const perIp = { ...hide, config: { rateLimitBy: 'ip' as const } };

  async function signedInUser(req: FastifyRequest) {
    const session = await sessionOf(app, req, 'fleet');
    const user = session ? await fleetUser(app.db, session.subjectId) : null;
    return session && user ? { session, user } : null;
  }

  function showSignIn(
    req: FastifyRequest,
    reply: FastifyReply,
    status: number,
    returnTo: string,
    extra: { email?: string; error?: string } = {},
  ) {
    return sendPage(
      reply,
      status,
      signInPage({ action: '/sign-in', csrf: anonymousCsrf(app, req, reply), returnTo, ...extra }),
    );
  }

  function settle(reply: FastifyReply, check: Exclude<AuthorizeCheck, { kind: 'ok' }>) {
    if (check.kind === 'redirect') return reply.redirect(check.to, 302);
    return sendPage(reply, check.status, errorPage('This authorization request cannot be completed', check.message));
  }

  app.get('/oauth/authorize', perIp, async (req, reply) => {
    const check = await checkAuthorizeRequest(app.db, objectOf(req.query) ?? {});
    if (check.kind !== 'ok') return settle(reply, check);
    const who = await signedInUser(req);
    if (!who) return showSignIn(req, reply, 200, req.url);
    const { user, session } = who;
    const grant = await activeGrant(app.db.kysely, user.company_id, check.app.id);
    if (grant && check.scopes.every((s) => grant.scopes.includes(s))) {
      const code = await issueCode(app.db, rt, {
        grantId: grant.id,
        appId: check.app.id,
        companyId: user.company_id,
        userId: user.id,
        redirectUri: check.redirectUri,
        scopes: check.scopes,
      });
      return reply.redirect(withQuery(check.redirectUri, { code, state: check.state }), 302);
    }
    return sendPage(
      reply,
      200,
      consentPage({
        appName: check.app.name,
        companyName: user.company_name,
        userName: user.name,
        scopes: check.scopes,
        params: check.params,
        csrf: session.csrf,
        aside: signedInAside(user.name, '/sign-out', session.csrf),
      }),
    );
  });

  app.post('/oauth/authorize', perIp, async (req, reply) => {
    const who = await signedInUser(req);
    if (!who)
      throw new AppError('unauthenticated', 'Your session has ended. Go back to the application and start again.');
    const problem = csrfProblem(who.session.csrf, field(req.body, 'csrf_token'));
    if (problem) throw problem;
    const check = await checkAuthorizeRequest(app.db, objectOf(req.body) ?? {});
    if (check.kind !== 'ok') return settle(reply, check);
    const decision = field(req.body, 'decision');
    if (decision === 'deny') {
      return reply.redirect(
        errorRedirect(check.redirectUri, 'access_denied', 'The user denied the request.', check.state),
        302,
      );
    }
    if (decision !== 'allow') throw new AppError('bad_request', 'Choose Allow or Deny.');
    const { user } = who;
    const grant = await recordConsent(app.db, rt, {
      companyId: user.company_id,
      appId: check.app.id,
      userId: user.id,
      scopes: check.scopes,
    });
    const code = await issueCode(app.db, rt, {
      grantId: grant.id,
      appId: check.app.id,
      companyId: user.company_id,
      userId: user.id,
      redirectUri: check.redirectUri,
      scopes: check.scopes,
    });
    return reply.redirect(withQuery(check.redirectUri, { code, state: check.state }), 302);
  });

  app.get('/sign-in', perIp, async (req, reply) => {
    const returnTo = localPath(field(req.query, 'return_to'), DEFAULT_LANDING);
    if (await signedInUser(req)) return reply.redirect(returnTo, 303);
    return showSignIn(req, reply, 200, returnTo);
  });

  app.post('/sign-in', perIp, async (req, reply) => {
    const problem = checkAnonymousCsrf(req);
    if (problem) throw problem;
    const email = field(req.body, 'email') ?? '';
    const password = field(req.body, 'password') ?? '';
    const returnTo = localPath(field(req.body, 'return_to'), DEFAULT_LANDING);
    const ip = clientIp(req);
    const account = normalizeEmail(email);
    const refusal = await rt.signIn.check(account, ip);
    if (refusal) {
      reply.header('Retry-After', String(refusal.retryAfterS));
      const error = refusalMessage(refusal, 'failed sign-ins', 'account');
      return showSignIn(req, reply, 429, returnTo, { email, error });
    }
    const result = await verifyFleetUser(app.db, email, password);
    if (!result.ok) {
      await rt.signIn.fail(account, ip);
      const error =
        result.reason === 'role'
          ? 'Only company admins and fleet managers can sign in here.'
          : 'Wrong email or password.';
      return showSignIn(req, reply, 401, returnTo, { email, error });
    }
    await rt.signIn.succeed(account, ip);
    const { cookie } = await createSession(app.db, rt, 'fleet', result.user.id);
    reply.setCookie(SESSION_COOKIE.fleet, cookie, cookieOptions(app, app.config.webSessionTtlS));
    return reply.redirect(returnTo, 303);
  });

  app.post('/sign-out', hide, async (req, reply) => {
    const who = await signedInUser(req);
    if (who) {
      const problem = csrfProblem(who.session.csrf, field(req.body, 'csrf_token'));
      if (problem) throw problem;
      await destroySession(app.db, req.cookies[SESSION_COOKIE.fleet]);
    }
    reply.clearCookie(SESSION_COOKIE.fleet, cookieOptions(app));
    return reply.redirect('/sign-in', 303);
  });
}
