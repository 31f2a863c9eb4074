/**
 * One-time links with which a user chooses their own password, so that nobody else ever knows it:
 * - an **invite**, for a user without a password (valid INVITE_TTL_H hours);
 * - a **reset**, which first clears the user's password and ends their signed-in sessions (valid
 *   RESET_TTL_H hours): the old password stops working at once.
 * A new link replaces the user's earlier ones; using a link sets the password under the one password
 * policy (through updateUser, so the same checks and the same `user_upserted` webhook as
 * `PUT /v1/users/:id`) and uses up every link of that user. A deactivated user gets no link and cannot
 * use one. The token is 256 random bits, stored only as its SHA-256 digest.
 *
 * Making the token and making the link are separate (`passwordLinkUrl`): the console shows the link
 * once to whoever made it; a mailer can send the same link.
 */
import type { Db } from '../../storage/db.js';
import { AppError, validation } from '../../core/errors.js';
import { digest, newSecret } from '../../auth/secrets.js';
import { passwordProblem } from '../../auth/password-policy.js';
import { endSessionsOf } from '../../auth/oauth/session-end.js';
import { toIso } from '../../storage/values.js';
import type { Tenant } from '../tenant.js';
import * as repo from './repository.js';
import { getUser, updateUser, type UserRow } from './service.js';

export type LinkPurpose = 'invite' | 'reset';
export const INVITE_TTL_H = 7 * 24;
export const RESET_TTL_H = 24;
const TTL_H: Record<LinkPurpose, number> = { invite: INVITE_TTL_H, reset: RESET_TTL_H };
const TOKEN = /^pwl_[A-Za-z0-9_-]{43}$/;

/** The page a link opens. The token rides in a query parameter the request log redacts (`*_token`). */
export const PASSWORD_LINK_PATH = '/set-password';
export const passwordLinkPath = (token: string) => `${PASSWORD_LINK_PATH}?password_token=${token}`;
/** The whole link, for a page or a message: the server's public address and the path. */
export const passwordLinkUrl = (publicUrl: string, token: string) => new URL(passwordLinkPath(token), publicUrl).href;

export interface MadeLink {
  token: string;
  purpose: LinkPurpose;
  expires_at: string;
}

type Actor = Tenant & { actingUserId?: number | null };

function refuseDeactivated(user: UserRow) {
  if (user.status !== 'active')
    throw new AppError('invalid_state', `${user.first_name} ${user.last_name} is deactivated: reactivate them first`);
}

async function insertLink(db: Db, t: Actor, user: UserRow, purpose: LinkPurpose, now: number): Promise<MadeLink> {
  const token = newSecret('pwl');
  const expires_at = toIso(now + TTL_H[purpose] * 3_600_000);
  await db.kysely.transaction().execute(async (trx) => {
    await trx.deleteFrom('password_links').where('user_id', '=', user.id).execute();
    await trx
      .insertInto('password_links')
      .values({
        company_id: t.companyId,
        user_id: user.id,
        token_digest: digest(token),
        purpose,
        created_by: t.actingUserId ?? null,
        created_at: toIso(now),
        expires_at,
      })
      .execute();
  });
  return { token, purpose, expires_at };
}

/** An invite for a user who has no password yet (one who has one gets a reset instead). */
export async function inviteUser(db: Db, t: Actor, userId: number, now = Date.now()): Promise<MadeLink> {
  const user = await getUser(db, t, userId);
  refuseDeactivated(user);
  if (user.password_hash !== null)
    throw new AppError(
      'invalid_state',
      `${user.first_name} ${user.last_name} already has a password: reset it instead`,
    );
  return insertLink(db, t, user, 'invite', now);
}

/** Clears the user's password, ends their sessions and makes a link to choose a new one. */
export async function resetPassword(db: Db, t: Actor, userId: number, now = Date.now()): Promise<MadeLink> {
  const user = await getUser(db, t, userId);
  refuseDeactivated(user);
  await repo.updateUser(db.kysely, t.companyId, user.id, { password_hash: null });
  await endSessionsOf(db, 'fleet', user.id);
  return insertLink(db, t, user, 'reset', now);
}

/** The user a link is for and what it is for, while it can be used; null otherwise. */
export async function openPasswordLink(
  db: Db,
  token: string | undefined,
  now = Date.now(),
): Promise<{ linkId: number; purpose: LinkPurpose; user: UserRow } | null> {
  if (!token || !TOKEN.test(token)) return null;
  const link = await db.kysely
    .selectFrom('password_links')
    .selectAll()
    .where('token_digest', '=', digest(token))
    .executeTakeFirst();
  if (!link || Date.parse(link.expires_at) <= now) return null;
  const user = await repo.findUser(db.kysely, link.company_id, link.user_id);
  if (!user || user.status !== 'active') return null;
  return { linkId: link.id, purpose: link.purpose as LinkPurpose, user };
}

export const LINK_UNUSABLE =
  'This link cannot be used: it was used already, a newer one replaced it, it expired, or the account is deactivated. Ask your company admin or fleet manager for a new one.';

/**
 * Sets the password of the link's user. A password the policy refuses leaves the link usable; any
 * other outcome uses it up (and every other link of the user), whoever comes first.
 */
export async function usePasswordLink(db: Db, token: string | undefined, password: string, now = Date.now()) {
  const open = await openPasswordLink(db, token, now);
  if (!open) throw new AppError('not_found', LINK_UNUSABLE);
  const { user } = open;
  const problem = passwordProblem(password, { email: user.email, username: user.username });
  if (problem) throw validation('password', problem);
  const claimed = await db.kysely.deleteFrom('password_links').where('id', '=', open.linkId).executeTakeFirst();
  if (Number(claimed.numDeletedRows) !== 1) throw new AppError('not_found', LINK_UNUSABLE);
  await db.kysely.deleteFrom('password_links').where('user_id', '=', user.id).execute();
  return updateUser(db, { companyId: user.company_id }, user.id, { password });
}

/** When the user's newest usable link expires, if they have one (the console says a link is out). */
export async function pendingLink(
  db: Db,
  t: Tenant,
  userId: number,
  now = Date.now(),
): Promise<{ purpose: LinkPurpose; expires_at: string } | null> {
  const row = await db.kysely
    .selectFrom('password_links')
    .select(['purpose', 'expires_at'])
    .where('company_id', '=', t.companyId)
    .where('user_id', '=', userId)
    .where('expires_at', '>', toIso(now))
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row ? { purpose: row.purpose as LinkPurpose, expires_at: row.expires_at } : null;
}
