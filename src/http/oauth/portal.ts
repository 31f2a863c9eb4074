/**
 * The developer portal: /developers/sign-up, /developers/sign-in, /developers/sign-out,
 * /developers/apps (list), /developers/apps/new, POST /developers/apps (register: the client secret is
 * shown once), /developers/apps/:id, POST /developers/apps/:id/secret (rotate: the new secret is shown once).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Api } from '../api.js';
import { AppError, notFound } from '../../core/errors.js';
import { findDeveloper, normalizeEmail, signUpDeveloper, verifyDeveloper } from '../../auth/oauth/accounts.js';
import { appsOfDeveloper, findAppById, registerApp, rotateSecret } from '../../auth/oauth/apps.js';
import { refusalMessage } from '../../limits/failures.js';
import { runtimeFor } from '../../auth/oauth/runtime.js';
import { createSession, destroySession } from '../../auth/oauth/sessions.js';
import { signedInAside, signInPage } from './views/flow-pages.js';
import { appPage, appsPage, newAppPage, signUpLink, signUpPage } from './views/portal/pages.js';
import { withScopeGroups } from './views/portal/scope-groups.js';
import { SCOPE_PICKER_HEADERS } from './views/portal/scope-picker.js';
import {
  SESSION_COOKIE,
  anonymousCsrf,
  checkAnonymousCsrf,
  clientIp,
  cookieOptions,
  csrfProblem,
  field,
  fields,
  sendPage,
  sessionOf,
} from '../plumbing/web-pages.js';

const BRAND = 'Fleet platform · Developers';

export async function portalRoutes(app: Api): Promise<void> {
  const rt = runtimeFor(app.db);
  const hide = { schema: { hide: true } };
  const perIp = { ...hide, config: { rateLimitBy: 'ip' as const } };

  async function developer(req: FastifyRequest, reply: FastifyReply) {
    const session = await sessionOf(app, req, 'developer');
    const dev = session ? await findDeveloper(app.db, session.subjectId) : null;
    if (!session || !dev) {
      await reply.redirect('/developers/sign-in', 303);
      return null;
    }
    return { session, dev, aside: signedInAside(dev.email, '/developers/sign-out', session.csrf) };
  }

  /** The signed-in developer's own app; another developer's app is "not found". */
  async function ownApp(devId: number, raw: string) {
    const id = /^\d{1,12}$/.test(raw) ? Number(raw) : NaN;
    const found = Number.isNaN(id) ? null : await findAppById(app.db, id);
    if (!found || found.developer_id !== devId) throw notFound(`application ${raw}`);
    return found;
  }

  async function startSession(reply: FastifyReply, developerId: number) {
    const { cookie } = await createSession(app.db, rt, 'developer', developerId);
    reply.setCookie(SESSION_COOKIE.developer, cookie, cookieOptions(app, app.config.webSessionTtlS));
    return reply.redirect('/developers/apps', 303);
  }

  const signIn = (
    req: FastifyRequest,
    reply: FastifyReply,
    status: number,
    extra: { email?: string; error?: string } = {},
  ) =>
    sendPage(
      reply,
      status,
      signInPage({
        action: '/developers/sign-in',
        csrf: anonymousCsrf(app, req, reply),
        heading: 'Developer sign-in',
        intro: 'Sign in to register and manage your applications.',
        footer: signUpLink,
        brand: BRAND,
        ...extra,
      }),
    );

  app.get('/developers', hide, async (_req, reply) => reply.redirect('/developers/apps', 303));

  app.get('/developers/sign-up', perIp, async (req, reply) =>
    sendPage(reply, 200, signUpPage({ csrf: anonymousCsrf(app, req, reply) })),
  );

  app.post('/developers/sign-up', perIp, async (req, reply) => {
    const problem = checkAnonymousCsrf(req);
    if (problem) throw problem;
    const input = {
      email: field(req.body, 'email') ?? '',
      name: field(req.body, 'name') ?? '',
      password: field(req.body, 'password') ?? '',
    };
    try {
      const dev = await signUpDeveloper(app.db, input, rt.nowIso());
      return await startSession(reply, dev.id);
    } catch (err) {
      if (!(err instanceof AppError) || err.status !== 400) throw err;
      return sendPage(
        reply,
        400,
        signUpPage({ csrf: anonymousCsrf(app, req, reply), email: input.email, name: input.name, error: err.message }),
      );
    }
  });

  app.get('/developers/sign-in', perIp, async (req, reply) => signIn(req, reply, 200));

  app.post('/developers/sign-in', perIp, async (req, reply) => {
    const problem = checkAnonymousCsrf(req);
    if (problem) throw problem;
    const email = field(req.body, 'email') ?? '';
    const ip = clientIp(req);
    const account = `developer:${normalizeEmail(email)}`;
    const refusal = await rt.signIn.check(account, ip);
    if (refusal) {
      reply.header('Retry-After', String(refusal.retryAfterS));
      const error = refusalMessage(refusal, 'failed sign-ins', 'account');
      return signIn(req, reply, 429, { email, error });
    }
    const dev = await verifyDeveloper(app.db, email, field(req.body, 'password') ?? '');
    if (!dev) {
      await rt.signIn.fail(account, ip);
      return signIn(req, reply, 401, { email, error: 'Wrong email or password.' });
    }
    await rt.signIn.succeed(account, ip);
    return startSession(reply, dev.id);
  });

  app.post('/developers/sign-out', hide, async (req, reply) => {
    const session = await sessionOf(app, req, 'developer');
    if (session) {
      const problem = csrfProblem(session.csrf, field(req.body, 'csrf_token'));
      if (problem) throw problem;
      await destroySession(app.db, req.cookies[SESSION_COOKIE.developer]);
    }
    reply.clearCookie(SESSION_COOKIE.developer, cookieOptions(app));
    return reply.redirect('/developers/sign-in', 303);
  });

  app.get('/developers/apps', hide, async (req, reply) => {
    const who = await developer(req, reply);
    if (!who) return reply;
    return sendPage(reply, 200, appsPage({ apps: await appsOfDeveloper(app.db, who.dev.id), aside: who.aside }));
  });

  app.get('/developers/apps/new', hide, async (req, reply) => {
    const who = await developer(req, reply);
    if (!who) return reply;
    return reply
      .code(200)
      .headers(SCOPE_PICKER_HEADERS)
      .send(newAppPage({ csrf: who.session.csrf, aside: who.aside }));
  });

  app.post('/developers/apps', hide, async (req, reply) => {
    const who = await developer(req, reply);
    if (!who) return reply;
    const problem = csrfProblem(who.session.csrf, field(req.body, 'csrf_token'));
    if (problem) throw problem;
    const name = field(req.body, 'name') ?? '';
    const redirectUris = field(req.body, 'redirect_uris') ?? '';
    let scopes = fields(req.body, 'scopes');
    try {
      // A ticked "all" box of the picker stands for its group's scopes (it works without script).
      scopes = withScopeGroups(scopes, fields(req.body, 'scope_group'));
      const created = await registerApp(
        app.db,
        { name, redirectUris: redirectUris.split(/\r?\n/), scopes, developerId: who.dev.id },
        rt.nowIso(),
      );
      const stored = (await findAppById(app.db, created.id))!;
      return sendPage(
        reply,
        201,
        appPage({
          app: stored,
          csrf: who.session.csrf,
          aside: who.aside,
          secret: created.client_secret,
          notice: 'Application registered.',
        }),
      );
    } catch (err) {
      if (!(err instanceof AppError) || err.status !== 400) throw err;
      return reply
        .code(400)
        .headers(SCOPE_PICKER_HEADERS)
        .send(newAppPage({ csrf: who.session.csrf, aside: who.aside, error: err.message, name, redirectUris, scopes }));
    }
  });

  app.get<{ Params: { id: string } }>('/developers/apps/:id', hide, async (req, reply) => {
    const who = await developer(req, reply);
    if (!who) return reply;
    const found = await ownApp(who.dev.id, req.params.id);
    return sendPage(reply, 200, appPage({ app: found, csrf: who.session.csrf, aside: who.aside }));
  });

  app.post<{ Params: { id: string } }>('/developers/apps/:id/secret', hide, async (req, reply) => {
    const who = await developer(req, reply);
    if (!who) return reply;
    const problem = csrfProblem(who.session.csrf, field(req.body, 'csrf_token'));
    if (problem) throw problem;
    const found = await ownApp(who.dev.id, req.params.id);
    const secret = await rotateSecret(app.db, found.id, rt.nowIso());
    return sendPage(
      reply,
      200,
      appPage({
        app: found,
        csrf: who.session.csrf,
        aside: who.aside,
        secret,
        notice: 'New client secret issued; the previous one no longer works.',
      }),
    );
  });
}
