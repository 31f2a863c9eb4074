/**
 * `Authorization: Bearer <access token>` (RFC 6750, docs/reference/wire.md §2.2). The scheme word is matched in any
 * letter case. A refused token is 401 `{"error_message"}` with `WWW-Authenticate: Bearer
 * error="invalid_token"`. Valid tokens are answered from the in-process cache (token-cache.ts) for at
 * most OAUTH_TOKEN_CACHE_MS, so steady traffic does not reach the database.
 */
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../storage/db.js';
import { fromJson } from '../../storage/values.js';
import { AppError } from '../../core/errors.js';
import type { Authenticator } from '../authenticator.js';
import type { Principal } from '../../core/context.js';
import { digest } from '../secrets.js';
import { msOf } from './clock.js';
import { runtimeFor } from './runtime.js';
import { TOKEN_FORMAT } from './tokens.js';

/** RFC 6750 §3: the challenge, with the description in a quoted string (no quotes or backslashes). */
export function bearerChallenge(error: string, description: string, extra: Record<string, string> = {}): string {
  const q = (s: string) => `"${s.replace(/["\\]/g, "'")}"`;
  const parts = [
    `error=${q(error)}`,
    `error_description=${q(description)}`,
    ...Object.entries(extra).map(([k, v]) => `${k}=${q(v)}`),
  ];
  return `Bearer realm="api", ${parts.join(', ')}`;
}

export function invalidToken(description: string): AppError {
  return new AppError('invalid_token', description, {
    'WWW-Authenticate': bearerChallenge('invalid_token', description),
  });
}

/** The token of `Authorization: Bearer …`, '' when the scheme is Bearer but no token follows; else null. */
export function bearerToken(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return null;
  const m = /^bearer(?:\s+(.*))?$/is.exec(h.trim());
  if (!m) return null;
  return (m[1] ?? '').trim();
}

export const bearerAuthenticator: Authenticator = {
  name: 'oauth_bearer',
  credential: bearerToken,
  authenticate(db: Db, token: string): Principal | AppError | Promise<Principal | AppError> {
    if (token === '') return invalidToken('the access token is missing');
    if (!TOKEN_FORMAT.test(token) || !token.startsWith('fa_')) return invalidToken('the access token is malformed');
    const rt = runtimeFor(db);
    const key = digest(token);
    const now = rt.clock();
    const hit = rt.tokenCache.get(key);
    if (hit) {
      if (hit.expiresAtMs <= now) return invalidToken('the access token has expired');
      return hit.principal;
    }
    return storedToken(db, rt, key, now);
  },
};

/** An access token not in this process's cache, from the database (and then cached). */
async function storedToken(
  db: Db,
  rt: ReturnType<typeof runtimeFor>,
  key: string,
  now: number,
): Promise<Principal | AppError> {
  const row = await db.kysely
    .selectFrom('oauth_tokens as t')
    .innerJoin('oauth_grants as g', 'g.id', 't.grant_id')
    .select([
      't.id',
      't.grant_id',
      't.company_id',
      't.scopes',
      't.expires_at',
      't.revoked_at',
      'g.revoked_at as grant_revoked_at',
    ])
    .where('t.token_hash', '=', key)
    .where('t.kind', '=', 'access')
    .executeTakeFirst();
  if (!row) return invalidToken('the access token is unknown');
  if (row.revoked_at !== null || row.grant_revoked_at !== null)
    return invalidToken('the access token has been revoked');
  const expiresAtMs = msOf(row.expires_at);
  if (expiresAtMs <= now) return invalidToken('the access token has expired');
  const principal: Principal = {
    companyId: row.company_id,
    credential: { type: 'oauth_token', id: row.id },
    scopes: new Set(fromJson<string[]>(row.scopes, [])),
  };
  rt.tokenCache.set(key, { principal, tokenId: row.id, grantId: row.grant_id, expiresAtMs });
  return principal;
}
