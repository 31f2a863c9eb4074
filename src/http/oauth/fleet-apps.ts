/**
 * Installed apps, for a company admin signed in to the web pages: GET /fleet/apps lists the company's
 * active grants with their scopes; POST /fleet/apps/:grantId/revoke removes one, which revokes its
 * tokens at once (on other nodes within OAUTH_TOKEN_CACHE_MS).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Api } from '../api.js';
import { AppError, notFound } from '../../core/errors.js';
import { fleetUser } from '../../auth/oauth/accounts.js';
import { installedApps, revokedAppName, revokeGrant } from '../../auth/oauth/grants.js';
import { runtimeFor } from '../../auth/oauth/runtime.js';
import { installedAppsPage } from './views/fleet-pages.js';
import { csrfProblem, field, sessionOf } from '../plumbing/web-pages.js';
import { send } from '../console/forms.js';

export async function fleetAppsRoutes(app: Api): Promise<void> {
  const rt = runtimeFor(app.db);
  const hide = { schema: { hide: true } };

  /** The signed-in admin, or null after answering (redirect to sign-in, or 403 for a fleet manager). */
  async function admin(req: FastifyRequest, reply: FastifyReply) {
    const session = await sessionOf(app, req, 'fleet');
    const user = session ? await fleetUser(app.db, session.subjectId) : null;
    if (!session || !user) {
      await reply.redirect(`/sign-in?return_to=${encodeURIComponent('/fleet/apps')}`, 303);
      return null;
    }
    if (user.role !== 'admin')
      throw new AppError('forbidden', 'Only company admins can see and remove installed apps.');
    return { session, user };
  }

  /** The name of a removed app of this company, for the notice after a removal (never text from the URL). */
  async function removedAppName(companyId: number, raw: string | undefined): Promise<string | undefined> {
    if (!raw || !/^\d{1,12}$/.test(raw)) return undefined;
    return revokedAppName(app.db, companyId, Number(raw));
  }

  app.get('/fleet', hide, async (_req, reply) => reply.redirect('/fleet/apps', 303));

  app.get('/fleet/apps', hide, async (req, reply) => {
    const who = await admin(req, reply);
    if (!who) return reply;
    const removed = await removedAppName(who.user.company_id, field(req.query, 'removed'));
    return send(
      reply,
      200,
      installedAppsPage({
        user: who.user,
        apps: await installedApps(app.db, who.user.company_id),
        csrf: who.session.csrf,
        notice: removed ? `Removed ${removed}. Its access tokens no longer work.` : undefined,
      }),
    );
  });

  app.post<{ Params: { grantId: string } }>('/fleet/apps/:grantId/revoke', hide, async (req, reply) => {
    const who = await admin(req, reply);
    if (!who) return reply;
    const problem = csrfProblem(who.session.csrf, field(req.body, 'csrf_token'));
    if (problem) throw problem;
    const raw = req.params.grantId;
    const grantId = /^\d{1,12}$/.test(raw) ? Number(raw) : NaN;
    const listed = Number.isNaN(grantId)
      ? undefined
      : (await installedApps(app.db, who.user.company_id)).find((a) => a.grant_id === grantId);
    if (!listed || !(await revokeGrant(app.db, rt, grantId, who.user.company_id)))
      throw notFound(`installed app ${raw}`);
    return reply.redirect(`/fleet/apps?removed=${grantId}`, 303);
  });
}
