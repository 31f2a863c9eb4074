/**
 * OAuth and web-session tables (migration 0006_oauth). Secrets (client secrets, codes, tokens, session
 * ids) are never stored: only their SHA-256 digests. Timestamps are ISO text, JSON columns are text
 * (storage/values.ts).
 */
import type { Generated } from 'kysely';

/** Developer-portal accounts: the people who register applications. */
export interface DevelopersTable {
  id: Generated<number>;
  email: string;
  name: string;
  password_hash: string;
  created_at: string;
  updated_at: string;
}

export interface OAuthAppsTable {
  id: Generated<number>;
  /** Public client identifier. */
  client_id: string;
  /** SHA-256 hex digest of the client secret. */
  client_secret_hash: string;
  name: string;
  /** JSON array of exact redirect URIs. */
  redirect_uris: string;
  /** JSON array of the scopes the app may ask for. */
  scopes: string;
  /** JSON array: `authorization_code`, `refresh_token`. */
  grant_types: string;
  /** The developer who owns the app; null for apps registered by an operator (`fleet app create`). */
  developer_id: number | null;
  created_at: string;
  updated_at: string;
}

/** A company's consent to an app: while active (revoked_at null), the app is "installed" for the company. */
export interface OAuthGrantsTable {
  id: Generated<number>;
  company_id: number;
  app_id: number;
  /** The fleet user who (last) consented. */
  user_id: number | null;
  /** JSON array: every scope consented so far. */
  scopes: string;
  created_at: string;
  updated_at: string;
  revoked_at: string | null;
}

export interface OAuthCodesTable {
  id: Generated<number>;
  code_hash: string;
  grant_id: number;
  app_id: number;
  company_id: number;
  user_id: number | null;
  redirect_uri: string;
  /** JSON array: the scopes of this authorization. */
  scopes: string;
  created_at: string;
  expires_at: string;
  consumed_at: string | null;
}

export interface OAuthTokensTable {
  id: Generated<number>;
  token_hash: string;
  kind: 'access' | 'refresh';
  grant_id: number;
  app_id: number;
  company_id: number;
  /** The authorization code this token descends from (through any number of refreshes). */
  code_id: number | null;
  /** The refresh token that was exchanged for this one. */
  parent_id: number | null;
  scopes: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  /** Refresh tokens: when it was exchanged (rotation); presenting it again revokes the grant. */
  consumed_at: string | null;
}

export interface WebSessionsTable {
  id: Generated<number>;
  session_hash: string;
  kind: 'fleet' | 'developer';
  /** users.id for `fleet`, developers.id for `developer`. */
  subject_id: number;
  csrf_secret: string;
  created_at: string;
  expires_at: string;
}

export interface OAuthTables {
  developers: DevelopersTable;
  oauth_apps: OAuthAppsTable;
  oauth_grants: OAuthGrantsTable;
  oauth_codes: OAuthCodesTable;
  oauth_tokens: OAuthTokensTable;
  web_sessions: WebSessionsTable;
}
