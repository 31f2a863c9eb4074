import type { Authenticator } from '../http/plumbing/auth.js';
import { apiKeyAuthenticator } from './api-keys.js';

/**
 * Credential types, in order of precedence. When both `Authorization` and `X-Api-Key` are sent, the
 * bearer token wins (wire-format §2.2); the OAuth issue adds its authenticator at the front.
 */
export const authenticators: Authenticator[] = [apiKeyAuthenticator];
