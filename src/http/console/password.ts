/**
 * The page a one-time password link opens (domain/users/password-links.ts), signed out:
 *   GET  /set-password?password_token=…   the form to choose a password (or why the link cannot be used)
 *   POST /set-password                    sets it under the password policy; the link is then used up
 * The token is a query parameter the request log redacts (a name ending in `_token`); the form posts it
 * in the body. The form carries the signed-out pages' CSRF token (a signed double-submit cookie), and the
 * page is rate-limited per address as the sign-in page is.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Api } from '../api.js';
import { AppError } from '../../core/errors.js';
import {
  LINK_UNUSABLE,
  PASSWORD_LINK_PATH,
  openPasswordLink,
  usePasswordLink,
} from '../../domain/users/password-links.js';
import { choosePasswordPage, linkProblemPage, passwordSetPage } from './views/users-password.js';
import { anonymousCsrf, checkAnonymousCsrf, field, sendPage } from '../plumbing/web-pages.js';

const canUseConsole = (role: string) => role === 'admin' || role === 'fleet_user';

export async function consolePasswordRoutes(app: Api): Promise<void> {
  const perIp = { schema: { hide: true }, config: { rateLimitBy: 'ip' as const } };

  async function showForm(req: FastifyRequest, reply: FastifyReply, token: string | undefined, error?: string) {
    const open = await openPasswordLink(app.db, token);
    if (!open) return sendPage(reply, 404, linkProblemPage(LINK_UNUSABLE));
    const u = open.user;
    const page = choosePasswordPage({
      csrf: anonymousCsrf(app, req, reply),
      token: token!,
      name: `${u.first_name} ${u.last_name}`,
      email: u.email,
      purpose: open.purpose,
      console: canUseConsole(u.role),
      error,
    });
    return sendPage(reply, error ? 400 : 200, page);
  }

  app.get(PASSWORD_LINK_PATH, perIp, async (req, reply) => showForm(req, reply, field(req.query, 'password_token')));

  app.post(PASSWORD_LINK_PATH, perIp, async (req, reply) => {
    const problem = checkAnonymousCsrf(req);
    if (problem) throw problem;
    const token = field(req.body, 'password_token');
    try {
      const u = await usePasswordLink(app.db, token, field(req.body, 'password') ?? '');
      return sendPage(reply, 200, passwordSetPage(`${u.first_name} ${u.last_name}`, canUseConsole(u.role)));
    } catch (err) {
      if (err instanceof AppError && err.code === 'validation_failed') return showForm(req, reply, token, err.message);
      if (err instanceof AppError && err.status === 404) return sendPage(reply, 404, linkProblemPage(err.message));
      throw err;
    }
  });
}
