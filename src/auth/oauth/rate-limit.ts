/**
 * Failed-attempt limits for sign-in and the token endpoint. A limiter counts failures per key (an
 * account, an OAuth client, an IP address) in a fixed window; once a key reaches its maximum it is
 * refused until the window ends. The interface is all callers see, so a shared implementation (Redis)
 * can replace the in-process one for several nodes.
 */
import type { Clock } from './clock.js';

export interface RateLimiter {
  /** Seconds until `key` may try again; 0 when it may try now. */
  blockedFor(key: string): Promise<number>;
  /** Counts one failed attempt against `key`. */
  fail(key: string): Promise<void>;
  /** Forgets `key`'s failures (after a success). */
  reset(key: string): Promise<void>;
}

interface Window {
  startMs: number;
  count: number;
}

/** One process's counters. Holds at most `maxKeys` keys and forgets the oldest window first. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
    private readonly maxKeys = 100_000,
  ) {}

  private current(key: string): Window | null {
    const w = this.windows.get(key);
    if (!w) return null;
    if (this.clock() - w.startMs >= this.windowMs) {
      this.windows.delete(key);
      return null;
    }
    return w;
  }

  async blockedFor(key: string): Promise<number> {
    const w = this.current(key);
    if (!w || w.count < this.max) return 0;
    return Math.max(1, Math.ceil((w.startMs + this.windowMs - this.clock()) / 1000));
  }

  async fail(key: string): Promise<void> {
    const w = this.current(key);
    if (w) {
      w.count++;
      return;
    }
    while (this.windows.size >= this.maxKeys) {
      const oldest = this.windows.keys().next();
      if (oldest.done) break;
      this.windows.delete(oldest.value);
    }
    this.windows.set(key, { startMs: this.clock(), count: 1 });
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }
}

/** The two buckets every guarded endpoint uses. */
export interface Limits {
  /** Per account (sign-in email) or per OAuth client id. */
  account: RateLimiter;
  /** Per client IP address. */
  ip: RateLimiter;
}

/** Seconds until none of `checks` is blocked; 0 when all may try now. */
export async function retryAfter(checks: Array<[RateLimiter, string]>): Promise<number> {
  let wait = 0;
  for (const [limiter, key] of checks) wait = Math.max(wait, await limiter.blockedFor(key));
  return wait;
}
