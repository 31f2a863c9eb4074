/**
 * What the web pages share: cookies (HttpOnly, SameSite=Lax, Secure when PUBLIC_URL is https), CSRF
 * tokens, the signed-in session, form fields, local return paths, and an error handler that answers
 * with an HTML page instead of JSON.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { CookieSerializeOptions } from '@fastify/cookie';
import { AppError } from '../../core/errors.js';
import type { Api } from '../api.js';
import { findSession, sameToken, type SessionKind, type WebSession } from '../../auth/oauth/sessions.js';
import { runtimeFor } from '../../auth/oauth/runtime.js';
import { PAGE_HEADERS } from './html.js';
import { errorPage } from '../oauth/views/flow-pages.js';

export const SESSION_COOKIE: Record<SessionKind, string> = { fleet: 'fleet_session', developer: 'fleet_dev_session' };
/** The signed double-submit cookie that protects the forms of signed-out pages (sign-in, sign-up). */
export const CSRF_COOKIE = 'fleet_csrf';

export function cookieOptions(app: Api, maxAgeS?: number): CookieSerializeOptions {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: app.config.publicUrl.startsWith('https:'),
    ...(maxAgeS !== undefined ? { maxAge: maxAgeS } : {}),
  };
}

export function sendPage(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).headers(PAGE_HEADERS).send(body);
}

/** A form field or query parameter given once as text; undefined otherwise. */
export function field(source: unknown, name: string): string | undefined {
  const v = source && typeof source === 'object' ? (source as Record<string, unknown>)[name] : undefined;
  return typeof v === 'string' ? v : undefined;
}

/** Every value of a repeatable form field (checkboxes). */
export function fields(source: unknown, name: string): string[] {
  const v = source && typeof source === 'object' ? (source as Record<string, unknown>)[name] : undefined;
  if (typeof v === 'string') return [v];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** A same-origin path to return to after sign-in; anything else (another origin, `//host`) → fallback. */
export function localPath(value: string | undefined, fallback: string): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || /[\\\s]/.test(value)) return fallback;
  return value;
}

/** The CSRF token of a signed-out form, setting its signed cookie when the browser has none yet. */
export function anonymousCsrf(app: Api, req: FastifyRequest, reply: FastifyReply): string {
  const raw = req.cookies[CSRF_COOKIE];
  if (raw) {
    const u = req.unsignCookie(raw);
    if (u.valid && u.value) return u.value;
  }
  const token = randomBytes(32).toString('base64url');
  reply.setCookie(CSRF_COOKIE, token, { ...cookieOptions(app), signed: true });
  return token;
}

/** 400 when the form has no CSRF token, 403 when it is not the expected one. */
export function csrfProblem(expected: string | undefined, given: string | undefined): AppError | null {
  if (!given)
    return new AppError(
      'bad_request',
      'The form has expired or was not sent from this site (missing CSRF token). Go back, reload the page and try again.',
    );
  if (!sameToken(expected, given))
    return new AppError(
      'forbidden',
      'The form was not sent from this site (wrong CSRF token). Go back, reload the page and try again.',
    );
  return null;
}

export function checkAnonymousCsrf(req: FastifyRequest): AppError | null {
  const raw = req.cookies[CSRF_COOKIE];
  const u = raw ? req.unsignCookie(raw) : null;
  return csrfProblem(u?.valid ? (u.value ?? undefined) : undefined, field(req.body, 'csrf_token'));
}

export function sessionOf(app: Api, req: FastifyRequest, kind: SessionKind): Promise<WebSession | null> {
  return findSession(app.db, runtimeFor(app.db), kind, req.cookies[SESSION_COOKIE[kind]]);
}

export function clientIp(req: FastifyRequest): string {
  return req.ip || req.socket.remoteAddress || 'unknown';
}

/** Errors of the web pages become pages: 4xx with their message, anything else an opaque 500. */
export function installPageErrors(app: Api): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof AppError) {
      for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
      const title =
        err.status === 429
          ? 'Too many attempts'
          : err.status === 404
            ? 'Not found'
            : err.status === 403
              ? 'Not allowed'
              : 'Something is wrong';
      return sendPage(reply, err.status, errorPage(title, err.message));
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return sendPage(
        reply,
        400,
        errorPage('Something is wrong', 'The form could not be read. Go back and try again.'),
      );
    }
    req.log.error({ err }, 'unhandled error');
    return sendPage(
      reply,
      500,
      errorPage('Something went wrong', `The server could not complete this request (request id ${req.id}).`),
    );
  });
}
