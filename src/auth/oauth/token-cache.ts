/**
 * The in-process cache of access tokens that keeps the database out of the hot path of bearer requests.
 * An entry lives at most `ttlMs` (1000 ms by default), so a revocation made on any node is seen by every
 * node within that time; revocations made on this node also drop the entries at once. The cache holds at
 * most `maxEntries` tokens and forgets the oldest first. Keys are token digests, never tokens.
 */
import type { Principal } from '../../core/context.js';
import type { Clock } from './clock.js';

export interface CachedToken {
  principal: Principal;
  tokenId: number;
  grantId: number;
  /** When the token itself expires (epoch ms); checked on every hit. */
  expiresAtMs: number;
}

interface Entry extends CachedToken {
  cachedAtMs: number;
}

export class TokenCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly clock: Clock,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(digest: string): CachedToken | null {
    const e = this.entries.get(digest);
    if (!e) return null;
    if (this.clock() - e.cachedAtMs >= this.ttlMs) {
      this.entries.delete(digest);
      return null;
    }
    return e;
  }

  set(digest: string, value: CachedToken): void {
    if (this.ttlMs <= 0 || this.maxEntries <= 0) return;
    this.entries.delete(digest);
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
    this.entries.set(digest, { ...value, cachedAtMs: this.clock() });
  }

  /** Drops every token of a grant (revocation on this node). */
  forgetGrant(grantId: number): void {
    for (const [k, e] of this.entries) if (e.grantId === grantId) this.entries.delete(k);
  }

  forgetTokens(tokenIds: Iterable<number>): void {
    const ids = new Set(tokenIds);
    if (ids.size === 0) return;
    for (const [k, e] of this.entries) if (ids.has(e.tokenId)) this.entries.delete(k);
  }

  clear(): void {
    this.entries.clear();
  }
}
