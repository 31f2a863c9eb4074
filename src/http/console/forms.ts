/**
 * What the console's page routes share: the signed-in caller of a page (or the sign-in redirect), the
 * caller of a form post after its CSRF check, an id from the path, and which errors go back to the form.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Api } from '../api.js';
import { AppError, notFound } from '../../core/errors.js';
import { CONSOLE_HEADERS } from './views/layout.js';
import { csrfProblem, field } from '../plumbing/web-pages.js';
import { consoleCaller, type ConsoleCaller } from './caller.js';
import { unreadCount } from '../../domain/alerts/service.js';
import { ID_MAX } from '../../core/ids.js';

export function send(reply: FastifyReply, status: number, body: string) {
  return reply.code(status).headers(CONSOLE_HEADERS).send(body);
}

/** The caller of a page, or null after redirecting to the sign-in page (which comes back here). */
export function consolePageCaller(app: Api) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<ConsoleCaller | null> => {
    const who = await consoleCaller(app, req);
    if (!who) {
      await reply.redirect(`/sign-in?return_to=${encodeURIComponent(req.url)}`, 303);
      return null;
    }
    // The header's unread-alert count (views/alerts-badge.ts).
    const user = { ...who.user, alerts_unread: await unreadCount(app.db, who.viewer.userId) };
    return { ...who, user };
  };
}

/**
 * The caller of a form post: 401 without a session, 400 without the CSRF token, 403 with another one —
 * always before anything is read or written.
 */
export async function consoleFormCaller(app: Api, req: FastifyRequest): Promise<ConsoleCaller> {
  const who = await consoleCaller(app, req);
  if (!who) throw new AppError('unauthenticated', 'Your session has ended. Sign in again.');
  const problem = csrfProblem(who.csrf, field(req.body, 'csrf_token'));
  if (problem) throw problem;
  return who;
}

/** A database id from the path; anything else names no record (404, as another company's record). */
export function pathId(raw: string, what: string): number {
  const n = /^\d{1,10}$/.test(raw) ? Number(raw) : 0;
  if (n < 1 || n > ID_MAX) throw notFound(`${what} ${raw}`);
  return n;
}

/**
 * What a form shows next to itself: the refusal (4xx) of a service with its status and message, as the
 * API would answer the same input. Anything unexpected goes on to the error page.
 */
export function formRefusal(err: unknown): { status: number; message: string } {
  if (err instanceof AppError && err.status < 500) return { status: err.status, message: err.message };
  throw err;
}
