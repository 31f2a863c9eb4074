/**
 * grant_type=refresh_token (RFC 6749 §6): every use returns a new access token and a new refresh token
 * and retires the one presented. Presenting a retired refresh token again means it leaked: the whole
 * grant is revoked, access tokens included (RFC 6819 §5.2.2.3, RFC 9700 §4.14) — unless it comes within
 * OAUTH_REFRESH_REUSE_GRACE_S of the first use. That is a client racing itself (two processes
 * refreshing at once, or a retry after a lost answer): it gets a token pair of its own and nothing is
 * revoked (docs/oauth.md, "Concurrent refreshes"). `redirect_uri` is accepted and not checked
 * (docs/reference/wire.md §8.4). `scope` may narrow the new access token, never widen it.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../../storage/schema.js';
import { fromJson } from '../../../storage/values.js';
import { digest } from '../../secrets.js';
import { msOf } from '../clock.js';
import { invalidGrant, invalidScope } from '../errors.js';
import { assertGrantActive, revokeGrant } from '../grants.js';
import type { OAuthRuntime } from '../runtime.js';
import { splitScopes } from '../scope-param.js';
import { issueTokens, TOKEN_FORMAT } from '../tokens.js';
import type { GrantTypeHandler } from './types.js';

const REUSED = 'The refresh token has already been used; the authorization is revoked. Authorize again.';
const REVOKED = 'The refresh token has been revoked.';

/** Whether a refresh token first used at `consumedAt` may still be exchanged again (the grace period). */
function inGrace(rt: OAuthRuntime, consumedAt: string): boolean {
  return rt.clock() - msOf(consumedAt) < rt.config.oauthRefreshReuseGraceS * 1000;
}

/**
 * Retires the token in `trx`: `used` when this request is the first to exchange it, `grace` when an
 * earlier exchange is within the grace period, `revoked` or `reused` otherwise. On PostgreSQL a
 * concurrent exchange waits on the row until the first one commits, then sees its `consumed_at`.
 */
async function retire(
  trx: Kysely<Database>,
  rt: OAuthRuntime,
  id: number,
): Promise<'used' | 'grace' | 'revoked' | 'reused'> {
  const res = await trx
    .updateTable('oauth_tokens')
    .set({ consumed_at: rt.nowIso() })
    .where('id', '=', id)
    .where('consumed_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 1) return 'used';
  const now = await trx
    .selectFrom('oauth_tokens')
    .select(['consumed_at', 'revoked_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  if (now.revoked_at !== null) return 'revoked';
  return now.consumed_at !== null && inGrace(rt, now.consumed_at) ? 'grace' : 'reused';
}

export const refreshToken: GrantTypeHandler = {
  name: 'refresh_token',
  required: ['refresh_token'],
  async handle(db, rt, app, p) {
    const token = p.refresh_token!;
    const row =
      TOKEN_FORMAT.test(token) && token.startsWith('fr_')
        ? await db.kysely
            .selectFrom('oauth_tokens')
            .selectAll()
            .where('token_hash', '=', digest(token))
            .where('kind', '=', 'refresh')
            .executeTakeFirst()
        : undefined;
    if (!row || row.app_id !== app.id)
      throw invalidGrant('The refresh token is unknown or was issued to another client.');
    if (row.consumed_at !== null && row.revoked_at === null && !inGrace(rt, row.consumed_at)) {
      await revokeGrant(db, rt, row.grant_id);
      throw invalidGrant(REUSED);
    }
    if (row.revoked_at !== null) throw invalidGrant(REVOKED);
    if (msOf(row.expires_at) <= rt.clock()) throw invalidGrant('The refresh token has expired; authorize again.');
    await assertGrantActive(db, row.grant_id);

    const original = fromJson<string[]>(row.scopes, []);
    let accessScopes = original;
    if (p.scope !== undefined) {
      const wanted = splitScopes(p.scope);
      if (wanted.length === 0 || wanted.some((s) => !original.includes(s))) throw invalidScope();
      accessScopes = wanted;
    }
    const issued = await db.kysely.transaction().execute(async (trx) => {
      const outcome = await retire(trx, rt, row.id);
      if (outcome === 'revoked' || outcome === 'reused') return outcome;
      return issueTokens(trx, rt, {
        grantId: row.grant_id,
        appId: app.id,
        companyId: row.company_id,
        codeId: row.code_id,
        parentId: row.id,
        accessScopes,
        refreshScopes: original,
      });
    });
    if (issued === 'revoked') throw invalidGrant(REVOKED);
    if (issued === 'reused') {
      await revokeGrant(db, rt, row.grant_id);
      throw invalidGrant(REUSED);
    }
    return issued;
  },
};
