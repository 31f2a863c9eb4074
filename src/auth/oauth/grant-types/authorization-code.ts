/**
 * grant_type=authorization_code (RFC 6749 §4.1.3): the code must be known, issued to this client,
 * unexpired (10 minutes), unused, for the same redirect_uri, and its grant still active. A second use
 * fails and revokes every token issued from the code (§4.1.2, RFC 6819 §5.1.5.4).
 */
import { fromJson } from '../../../storage/values.js';
import { digest } from '../../secrets.js';
import { msOf } from '../clock.js';
import { invalidGrant } from '../errors.js';
import { issueTokens, revokeTokensOfCode, TOKEN_FORMAT } from '../tokens.js';
import type { GrantTypeHandler } from './types.js';
import { assertGrantActive } from '../grants.js';

const REUSED = 'The authorization code has already been used; every token issued from it is revoked.';

export const authorizationCode: GrantTypeHandler = {
  name: 'authorization_code',
  required: ['code', 'redirect_uri'],
  async handle(db, rt, app, p) {
    const code = p.code!;
    const row =
      TOKEN_FORMAT.test(code) && code.startsWith('fc_')
        ? await db.kysely.selectFrom('oauth_codes').selectAll().where('code_hash', '=', digest(code)).executeTakeFirst()
        : undefined;
    if (!row || row.app_id !== app.id)
      throw invalidGrant('The authorization code is unknown or was issued to another client.');
    if (row.consumed_at !== null) {
      await revokeTokensOfCode(db, rt, row.id);
      throw invalidGrant(REUSED);
    }
    if (msOf(row.expires_at) <= rt.clock()) throw invalidGrant('The authorization code has expired; authorize again.');
    if (row.redirect_uri !== p.redirect_uri) {
      throw invalidGrant('redirect_uri does not match the redirect URI of the authorization request.');
    }
    await assertGrantActive(db, row.grant_id);
    const scopes = fromJson<string[]>(row.scopes, []);
    const issued = await db.kysely.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable('oauth_codes')
        .set({ consumed_at: rt.nowIso() })
        .where('id', '=', row.id)
        .where('consumed_at', 'is', null)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0) return null; // another request used it first
      return issueTokens(trx, rt, {
        grantId: row.grant_id,
        appId: app.id,
        companyId: row.company_id,
        codeId: row.id,
        parentId: null,
        accessScopes: scopes,
        refreshScopes: app.grant_types.includes('refresh_token') ? scopes : null,
      });
    });
    if (!issued) {
      await revokeTokensOfCode(db, rt, row.id);
      throw invalidGrant(REUSED);
    }
    return issued;
  },
};
