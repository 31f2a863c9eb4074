import type { Db } from '../../../storage/db.js';
import type { OAuthApp, GrantType } from '../apps.js';
import type { OAuthRuntime } from '../runtime.js';
import type { TokenResponse } from '../tokens.js';

/** Token-request parameters, merged from the query string and the form body (the body wins). */
export type Params = Record<string, string | undefined>;

/** One grant type of the token endpoint: its name, the parameters it needs and its handler. */
export interface GrantTypeHandler {
  name: GrantType;
  /** Parameters that must be present (else invalid_request). */
  required: string[];
  /** Runs after the client is authenticated and allowed this grant type. */
  handle(db: Db, rt: OAuthRuntime, app: OAuthApp, params: Params): Promise<TokenResponse>;
}
