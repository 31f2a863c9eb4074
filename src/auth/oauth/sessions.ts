/**
 * Web sessions of the sign-in, consent, installed-apps and developer pages. The cookie holds a 256-bit
 * random session id; the table holds its SHA-256 digest, the subject and the session's CSRF secret
 * (every form of a signed-in page carries it). Fleet and developer sessions are separate kinds.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../storage/db.js';
import { digest, newSecret } from '../secrets.js';
import { isoAt, msOf } from './clock.js';
import type { OAuthRuntime } from './runtime.js';

export type SessionKind = 'fleet' | 'developer';

export interface WebSession {
  id: number;
  kind: SessionKind;
  subjectId: number;
  csrf: string;
}

export async function createSession(
  db: Db,
  rt: OAuthRuntime,
  kind: SessionKind,
  subjectId: number,
): Promise<{ cookie: string; session: WebSession }> {
  const cookie = newSecret('fw');
  const csrf = randomBytes(32).toString('base64url');
  const now = rt.clock();
  const row = await db.kysely
    .insertInto('web_sessions')
    .values({
      session_hash: digest(cookie),
      kind,
      subject_id: subjectId,
      csrf_secret: csrf,
      created_at: isoAt(now),
      expires_at: isoAt(now + rt.config.webSessionTtlS * 1000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { cookie, session: { id: row.id, kind, subjectId, csrf } };
}

export async function findSession(
  db: Db,
  rt: OAuthRuntime,
  kind: SessionKind,
  cookie: string | undefined,
): Promise<WebSession | null> {
  if (!cookie || !/^fw_[A-Za-z0-9_-]{43}$/.test(cookie)) return null;
  const row = await db.kysely
    .selectFrom('web_sessions')
    .selectAll()
    .where('session_hash', '=', digest(cookie))
    .where('kind', '=', kind)
    .executeTakeFirst();
  if (!row) return null;
  if (msOf(row.expires_at) <= rt.clock()) {
    await db.kysely.deleteFrom('web_sessions').where('id', '=', row.id).execute();
    return null;
  }
  return { id: row.id, kind, subjectId: row.subject_id, csrf: row.csrf_secret };
}

export async function destroySession(db: Db, cookie: string | undefined): Promise<void> {
  if (!cookie) return;
  await db.kysely.deleteFrom('web_sessions').where('session_hash', '=', digest(cookie)).execute();
}

/** Constant-time equality of two CSRF tokens (false when either is missing). */
export function sameToken(expected: string | undefined, given: string | undefined): boolean {
  if (!expected || !given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
