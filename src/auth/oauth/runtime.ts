/**
 * The per-app OAuth state that is not in the database: the clock, the access-token cache and the
 * failed-attempt limiters. buildApp creates one per app and links it to the app's database so that the
 * bearer authenticator (which sees only the database) finds it.
 */
import type { Db } from '../../storage/db.js';
import type { Config } from '../../config/index.js';
import { isoAt, systemClock, type Clock } from './clock.js';
import { TokenCache } from './token-cache.js';
import { FailureGuard } from '../../limits/failures.js';
import { MemoryStore } from '../../limits/memory-store.js';
import type { LimitStore } from '../../limits/store.js';

/** Lifetimes fixed by the wire contract (docs/reference/wire.md §8.4–8.5). */
export const ACCESS_TOKEN_TTL_S = 7200;
export const CODE_TTL_S = 600;

export interface OAuthRuntime {
  clock: Clock;
  config: Config;
  tokenCache: TokenCache;
  /** Sign-in failures: per email from one address, per address, per email (docs/rate-limits.md). */
  signIn: FailureGuard;
  /** Token-endpoint failures: the same, with the client id for the email. */
  token: FailureGuard;
  nowIso(): string;
}

/** `store` holds the failed-attempt counters: the app's limits store, or one of its own in memory. */
export function createRuntime(
  config: Config,
  clock: Clock = systemClock,
  store: LimitStore = new MemoryStore(clock),
): OAuthRuntime {
  return {
    clock,
    config,
    tokenCache: new TokenCache(config.oauthTokenCacheMs, config.oauthTokenCacheSize, clock),
    signIn: new FailureGuard(store, 'sign-in', config.authFailures),
    token: new FailureGuard(store, 'token', config.authFailures),
    nowIso: () => isoAt(clock()),
  };
}

const byDb = new WeakMap<Db, OAuthRuntime>();

export function attachRuntime(db: Db, rt: OAuthRuntime): void {
  byDb.set(db, rt);
}

export function detachRuntime(db: Db, rt: OAuthRuntime): void {
  if (byDb.get(db) === rt) byDb.delete(db);
}

/**
 * The runtime of the app using `db`, which buildApp attaches (src/http/oauth/install.ts). There is no default: a
 * runtime built from an empty configuration would carry other token-cache and failure settings than the
 * app's, so a caller without an app builds its own with createRuntime(config), as the CLI does.
 */
export function runtimeFor(db: Db): OAuthRuntime {
  const rt = byDb.get(db);
  if (!rt) throw new Error('no OAuth runtime is attached to this database: build the app first (installOAuth)');
  return rt;
}
