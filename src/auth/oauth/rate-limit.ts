/**
 * Failed-attempt limits for sign-in and the token endpoint. A limiter counts failures per key (an
 * account, an OAuth client, an IP address) in a fixed window; once a key reaches its maximum it is
 * refused until the window ends. The counters live in the limits store (src/limits): this process's
 * memory, or Redis shared by every node when REDIS_URL is set.
 */
import { retryAfterS, type LimitStore } from '../../limits/store.js';

export interface RateLimiter {
  /** Seconds until `key` may try again; 0 when it may try now. */
  blockedFor(key: string): Promise<number>;
  /** Counts one failed attempt against `key`. */
  fail(key: string): Promise<void>;
  /** Forgets `key`'s failures (after a success). */
  reset(key: string): Promise<void>;
}

/** `max` failures per key in a window of `windowMs`, under the store key `<name>:<key>`. */
export class StoreRateLimiter implements RateLimiter {
  constructor(
    private readonly store: LimitStore,
    private readonly name: string,
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  async blockedFor(key: string): Promise<number> {
    const w = await this.store.peek(`${this.name}:${key}`);
    return w.count < this.max ? 0 : retryAfterS(w.resetInMs);
  }

  async fail(key: string): Promise<void> {
    await this.store.hit(`${this.name}:${key}`, this.windowMs);
  }

  async reset(key: string): Promise<void> {
    await this.store.clear(`${this.name}:${key}`);
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
