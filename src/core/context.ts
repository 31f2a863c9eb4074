/** Who is calling: the tenant, the credential and what it may do. Every service takes this first. */
export interface AuthContext {
  companyId: number;
  credential: { type: 'api_key' | 'oauth_token' | 'session'; id: number };
  /** `all` for API keys (a company key carries every scope), otherwise the granted scopes. */
  scopes: ReadonlySet<string> | 'all';
  /** The admin the request acts as when X-User-Id names one; otherwise the company's first active admin. */
  actingUserId: number | null;
}

/** What a credential proves on its own: the context before X-User-Id picks the acting admin. */
export type Principal = Omit<AuthContext, 'actingUserId'>;

/**
 * A GET needs the read scope of its area and any other method the write (`.manage`) scope.
 * Write access includes read access: `vehicles.manage` satisfies `vehicles.read`.
 */
export function hasScope(ctx: AuthContext, required: string): boolean {
  if (ctx.scopes === 'all') return true;
  if (ctx.scopes.has(required)) return true;
  if (required.endsWith('.read')) return ctx.scopes.has(`${required.slice(0, -'.read'.length)}.manage`);
  return false;
}
