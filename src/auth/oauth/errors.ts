/**
 * OAuth endpoint errors (RFC 6749 §4.1.2.1, §5.2; RFC 7009 §2.2.1). They never use the API's
 * `{"error_message"}` form: the token endpoint answers `{"error","error_description"}`, the
 * authorization endpoint redirects with the same names as query parameters.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'unsupported_response_type'
  | 'unsupported_token_type'
  | 'server_error'
  | 'temporarily_unavailable';

/** The exact RFC 6749 wording real clients and forum threads show for invalid_scope (docs/reference/wire.md §5.5). */
export const INVALID_SCOPE_DESCRIPTION = 'The requested scope is invalid, unknown, or malformed.';

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }
}

export const invalidRequest = (d: string) => new OAuthError('invalid_request', d);
export const invalidGrant = (d: string) => new OAuthError('invalid_grant', d);
export const invalidScope = () => new OAuthError('invalid_scope', INVALID_SCOPE_DESCRIPTION);
/** 401 with a Basic challenge (RFC 6749 §5.2). */
export const invalidClient = (d = 'Client authentication failed: unknown client or wrong client secret.') =>
  new OAuthError('invalid_client', d, 401, { 'WWW-Authenticate': 'Basic realm="oauth", charset="UTF-8"' });
