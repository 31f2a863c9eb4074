/**
 * The authorization request (RFC 6749 §4.1.1, docs/reference/wire.md §8.2), checked in the RFC's order: an unknown
 * client or a redirect URI that is not registered (exact string match) is shown on an error page and
 * never redirected to (§4.1.2.1, RFC 6819 §5.2.3.5); every later problem is redirected to the redirect
 * URI with `error`, `error_description` and `state`.
 */
import type { Db } from '../../storage/db.js';
import { findApp, type OAuthApp } from './apps.js';
import { INVALID_SCOPE_DESCRIPTION, type OAuthErrorCode } from './errors.js';
import { requestedScopes } from './scope-param.js';

export const AUTHORIZE_PARAMS = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state'] as const;
export type AuthorizeParams = Partial<Record<(typeof AUTHORIZE_PARAMS)[number], string>>;

export type AuthorizeCheck =
  | { kind: 'page'; status: number; message: string }
  | { kind: 'redirect'; to: string }
  | {
      kind: 'ok';
      app: OAuthApp;
      redirectUri: string;
      scopes: string[];
      state: string | undefined;
      params: AuthorizeParams;
    };

/** `uri` with `params` added to its query (undefined values left out). */
export function withQuery(uri: string, params: Record<string, string | undefined>): string {
  const u = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.append(k, v);
  return u.toString();
}

export function errorRedirect(
  redirectUri: string,
  error: OAuthErrorCode,
  description: string,
  state: string | undefined,
): string {
  return withQuery(redirectUri, { error, error_description: description, state });
}

/** A single string value of a query parameter: undefined when absent, null when repeated or not text. */
function one(query: Record<string, unknown>, name: string): string | undefined | null {
  const v = query[name];
  if (v === undefined) return undefined;
  return typeof v === 'string' ? v : null;
}

export async function checkAuthorizeRequest(db: Db, query: Record<string, unknown>): Promise<AuthorizeCheck> {
  const clientId = one(query, 'client_id');
  if (clientId === null) return { kind: 'page', status: 400, message: 'client_id must be given exactly once.' };
  if (!clientId)
    return {
      kind: 'page',
      status: 400,
      message: 'The request has no client_id: the application that sent you here is misconfigured.',
    };
  const app = await findApp(db, clientId);
  if (!app)
    return {
      kind: 'page',
      status: 400,
      message: 'The application that sent you here is not registered (unknown client_id).',
    };

  const redirectUri = one(query, 'redirect_uri');
  if (redirectUri === null) return { kind: 'page', status: 400, message: 'redirect_uri must be given exactly once.' };
  if (!redirectUri) return { kind: 'page', status: 400, message: `The request from ${app.name} has no redirect_uri.` };
  if (!app.redirect_uris.includes(redirectUri)) {
    return {
      kind: 'page',
      status: 400,
      message: `The redirect URI is not one that ${app.name} registered, so you will not be sent there.`,
    };
  }

  const state = one(query, 'state');
  if (state === null)
    return {
      kind: 'redirect',
      to: errorRedirect(redirectUri, 'invalid_request', 'state must be given at most once.', undefined),
    };
  const fail = (error: OAuthErrorCode, description: string): AuthorizeCheck => ({
    kind: 'redirect',
    to: errorRedirect(redirectUri, error, description, state),
  });

  const responseType = one(query, 'response_type');
  if (responseType === null) return fail('invalid_request', 'response_type must be given exactly once.');
  if (!responseType) return fail('invalid_request', 'response_type is required; use response_type=code.');
  if (responseType !== 'code') return fail('unsupported_response_type', 'Only response_type=code is supported.');
  if (!app.grant_types.includes('authorization_code')) {
    return fail('unauthorized_client', 'This client may not use the authorization code grant.');
  }
  const scope = one(query, 'scope');
  const scopes = scope === null ? null : requestedScopes(scope, app.scopes);
  if (!scopes) return fail('invalid_scope', INVALID_SCOPE_DESCRIPTION);
  return {
    kind: 'ok',
    app,
    redirectUri,
    scopes,
    state,
    params: {
      client_id: clientId,
      redirect_uri: redirectUri,
      response_type: responseType,
      scope: scopes.join(' '),
      state,
    },
  };
}
