/**
 * The token endpoint (RFC 6749 §3.2, §4.1.3, §6) and the revocation endpoint (RFC 7009) as a list of
 * small named checks, independent of HTTP: the route hands in the merged parameters, the Authorization
 * header and the client's IP address.
 */
import type { Db } from '../../storage/db.js';
import { digest } from '../secrets.js';
import { authenticateClient, type OAuthApp } from './apps.js';
import { invalidClient, invalidRequest, OAuthError } from './errors.js';
import { refusalMessage } from '../../limits/failures.js';
import type { OAuthRuntime } from './runtime.js';
import { TOKEN_FORMAT, type TokenResponse } from './tokens.js';
import { authorizationCode } from './grant-types/authorization-code.js';
import { refreshToken } from './grant-types/refresh-token.js';
import type { GrantTypeHandler, Params } from './grant-types/types.js';

export const GRANT_HANDLERS: Record<string, GrantTypeHandler> = {
  authorization_code: authorizationCode,
  refresh_token: refreshToken,
};

export interface ClientRequest {
  params: Params;
  /** The raw Authorization header, if any (HTTP Basic client authentication, RFC 6749 §2.3.1). */
  authorization?: string;
  ip: string;
}

interface Credentials {
  clientId: string;
  secret: string;
}

/** `Basic base64(urlencode(id):urlencode(secret))` → the pair; null when the header is not Basic. */
export function basicCredentials(header: string | undefined): Credentials | null | 'malformed' {
  if (!header) return null;
  const m = /^basic\s+(\S+)\s*$/i.exec(header);
  if (!m) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 0) return 'malformed';
  try {
    const dec = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return { clientId: dec(decoded.slice(0, i)), secret: dec(decoded.slice(i + 1)) };
  } catch {
    return 'malformed';
  }
}

/** Client credentials from HTTP Basic or the client_id / client_secret parameters (not two different ones). */
function credentials(req: ClientRequest): Credentials | null {
  const basic = basicCredentials(req.authorization);
  if (basic === 'malformed')
    throw invalidClient('The Authorization header is not valid HTTP Basic client authentication.');
  const { client_id: id, client_secret: secret } = req.params;
  if (basic) {
    if ((id !== undefined && id !== basic.clientId) || (secret !== undefined && secret !== basic.secret)) {
      throw invalidRequest('Send the client credentials once: in the Authorization header or as parameters, not both.');
    }
    return basic;
  }
  if (id === undefined || id === '') return null;
  return { clientId: id, secret: secret ?? '' };
}

/** Refuses early while the client, the IP or the pair has too many recent failures (429, Retry-After). */
async function throttle(rt: OAuthRuntime, req: ClientRequest, clientId: string | undefined): Promise<void> {
  const refusal = await rt.token.check(clientId, req.ip);
  if (refusal) {
    throw new OAuthError(
      'temporarily_unavailable',
      refusalMessage(refusal, 'failed client authentications', 'client'),
      429,
      {
        'Retry-After': String(refusal.retryAfterS),
      },
    );
  }
}

/**
 * Authenticates the client (after the throttle); a failure counts against the client id and the IP, a
 * success makes the IP known to the client (docs/rate-limits.md).
 * Only failed client authentication counts: every other error needs a client that already proved its
 * secret, and codes and tokens (256 bits) cannot be guessed.
 */
async function client(db: Db, rt: OAuthRuntime, req: ClientRequest): Promise<OAuthApp> {
  const creds = credentials(req);
  await throttle(rt, req, creds?.clientId);
  if (!creds) {
    await rt.token.fail(undefined, req.ip);
    throw invalidClient('Client authentication is required: send client_id and client_secret, or HTTP Basic.');
  }
  const app = await authenticateClient(db, creds.clientId, creds.secret);
  if (!app) {
    await rt.token.fail(creds.clientId, req.ip);
    throw invalidClient();
  }
  await rt.token.succeed(creds.clientId, req.ip);
  return app;
}

export async function tokenRequest(db: Db, rt: OAuthRuntime, req: ClientRequest): Promise<TokenResponse> {
  const grantType = req.params.grant_type;
  if (grantType === undefined || grantType === '') throw invalidRequest('grant_type is required.');
  const handler = Object.prototype.hasOwnProperty.call(GRANT_HANDLERS, grantType)
    ? GRANT_HANDLERS[grantType]
    : undefined;
  if (!handler) {
    throw new OAuthError(
      'unsupported_grant_type',
      `grant_type "${grantType}" is not supported; use authorization_code or refresh_token.`,
    );
  }
  const app = await client(db, rt, req);
  if (!app.grant_types.includes(handler.name)) {
    throw new OAuthError('unauthorized_client', `This client may not use the ${handler.name} grant type.`);
  }
  for (const name of handler.required) {
    if (req.params[name] === undefined || req.params[name] === '') throw invalidRequest(`${name} is required.`);
  }
  return handler.handle(db, rt, app, req.params);
}

/**
 * RFC 7009: revokes an access or refresh token of the authenticated client. Unknown tokens and tokens
 * of other clients are answered the same way (200, nothing revoked), so the endpoint reveals nothing.
 * Revoking a refresh token also revokes every token of the same authorization (§2.1).
 */
export async function revokeRequest(db: Db, rt: OAuthRuntime, req: ClientRequest): Promise<void> {
  const app = await client(db, rt, req);
  const token = req.params.token;
  if (token === undefined || token === '') throw invalidRequest('token is required.');
  if (!TOKEN_FORMAT.test(token)) return;
  const row = await db.kysely
    .selectFrom('oauth_tokens')
    .select(['id', 'kind', 'app_id', 'code_id', 'grant_id'])
    .where('token_hash', '=', digest(token))
    .executeTakeFirst();
  if (!row || row.app_id !== app.id) return;
  const now = rt.nowIso();
  let q = db.kysely.updateTable('oauth_tokens').set({ revoked_at: now }).where('revoked_at', 'is', null);
  if (row.kind === 'refresh' && row.code_id !== null)
    q = q.where('code_id', '=', row.code_id).where('grant_id', '=', row.grant_id);
  else q = q.where('id', '=', row.id);
  await q.execute();
  if (row.kind === 'refresh') rt.tokenCache.forgetGrant(row.grant_id);
  else rt.tokenCache.forgetTokens([row.id]);
}
