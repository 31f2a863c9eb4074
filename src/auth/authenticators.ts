import type { Authenticator } from './authenticator.js';
import { apiKeyAuthenticator } from './api-keys.js';
import { bearerAuthenticator } from './oauth/bearer.js';

/**
 * Credential types, in order of precedence. When both `Authorization` and `X-Api-Key` are sent, the
 * bearer token wins (docs/reference/wire.md §2.2).
 */
export const authenticators: Authenticator[] = [bearerAuthenticator, apiKeyAuthenticator];
