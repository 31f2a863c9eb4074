/**
 * Authorization codes and tokens: opaque 256-bit secrets (secrets.ts newSecret), stored only as SHA-256
 * digests and looked up by digest. Codes live 10 minutes and are single-use; access tokens live 7200 s;
 * refresh tokens rotate on every use and expire when unused for OAUTH_REFRESH_TOKEN_TTL_S.
 */
import type { Kysely } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { Database } from '../../storage/schema.js';
import { json } from '../../storage/values.js';
import { digest, newSecret } from '../secrets.js';
import { isoAt } from './clock.js';
import { ACCESS_TOKEN_TTL_S, CODE_TTL_S, type OAuthRuntime } from './runtime.js';

/** Prefixes: `fc_` code, `fa_` access token, `fr_` refresh token, then 43 base64url characters. */
export const TOKEN_FORMAT = /^f[acr]_[A-Za-z0-9_-]{43}$/;

export async function issueCode(
  db: Db,
  rt: OAuthRuntime,
  c: { grantId: number; appId: number; companyId: number; userId: number; redirectUri: string; scopes: string[] },
): Promise<string> {
  const code = newSecret('fc');
  const now = rt.clock();
  await db.kysely
    .insertInto('oauth_codes')
    .values({
      code_hash: digest(code),
      grant_id: c.grantId,
      app_id: c.appId,
      company_id: c.companyId,
      user_id: c.userId,
      redirect_uri: c.redirectUri,
      scopes: json(c.scopes),
      created_at: isoAt(now),
      expires_at: isoAt(now + CODE_TTL_S * 1000),
      consumed_at: null,
    })
    .execute();
  return code;
}

export interface IssueInput {
  grantId: number;
  appId: number;
  companyId: number;
  codeId: number | null;
  parentId: number | null;
  accessScopes: string[];
  /** Null: no refresh token (the app may not use the refresh_token grant). */
  refreshScopes: string[] | null;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  scope: string;
  created_at: number;
}

/** Inserts a new access token (and refresh token) and returns the token response (docs/reference/wire.md §8.5). */
export async function issueTokens(trx: Kysely<Database>, rt: OAuthRuntime, t: IssueInput): Promise<TokenResponse> {
  const now = rt.clock();
  const created = isoAt(now);
  const common = {
    grant_id: t.grantId,
    app_id: t.appId,
    company_id: t.companyId,
    code_id: t.codeId,
    parent_id: t.parentId,
    created_at: created,
    revoked_at: null,
    consumed_at: null,
  };
  const access = newSecret('fa');
  await trx
    .insertInto('oauth_tokens')
    .values({
      ...common,
      token_hash: digest(access),
      kind: 'access',
      scopes: json(t.accessScopes),
      expires_at: isoAt(now + ACCESS_TOKEN_TTL_S * 1000),
    })
    .execute();
  let refresh: string | undefined;
  if (t.refreshScopes) {
    refresh = newSecret('fr');
    await trx
      .insertInto('oauth_tokens')
      .values({
        ...common,
        token_hash: digest(refresh),
        kind: 'refresh',
        scopes: json(t.refreshScopes),
        expires_at: isoAt(now + rt.config.oauthRefreshTokenTtlS * 1000),
      })
      .execute();
  }
  return {
    access_token: access,
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_TTL_S,
    ...(refresh ? { refresh_token: refresh } : {}),
    scope: t.accessScopes.join(' '),
    created_at: Math.floor(now / 1000),
  };
}

/** Revokes every token descending from an authorization code (RFC 6749 §4.1.2, code reuse). */
export async function revokeTokensOfCode(db: Db, rt: OAuthRuntime, codeId: number): Promise<void> {
  const ids = await db.kysely.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('oauth_tokens')
      .select('id')
      .where('code_id', '=', codeId)
      .where('revoked_at', 'is', null)
      .execute();
    if (rows.length) {
      await trx
        .updateTable('oauth_tokens')
        .set({ revoked_at: rt.nowIso() })
        .where('code_id', '=', codeId)
        .where('revoked_at', 'is', null)
        .execute();
    }
    return rows.map((r) => r.id);
  });
  rt.tokenCache.forgetTokens(ids);
}
