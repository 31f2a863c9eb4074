/**
 * The `scope` parameter: space-separated (a `+` in a URL is already a space once decoded), in any order,
 * repeats ignored. Nothing else separates: a comma-joined string is one unknown scope (docs/reference/wire.md §8.3).
 */
import { isScope, type Scope } from '../scopes.js';

export function splitScopes(raw: string): string[] {
  return [...new Set(raw.split(' ').filter((s) => s !== ''))];
}

/** The requested scopes when each is known and allowed for the app; null otherwise (→ invalid_scope). */
export function requestedScopes(raw: string | undefined, allowed: readonly string[]): Scope[] | null {
  if (raw === undefined) return null;
  const wanted = splitScopes(raw);
  if (wanted.length === 0) return null;
  for (const s of wanted) if (!isScope(s) || !allowed.includes(s)) return null;
  return wanted as Scope[];
}

export const joinScopes = (scopes: readonly string[]): string => scopes.join(' ');
