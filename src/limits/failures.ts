/**
 * Failed-attempt limits of sign-in and of OAuth client authentication (docs/rate-limits.md, "Failed
 * sign-ins"). Failures are counted in fixed windows of the limits store, under three keys:
 * - the account from one address (`account_ip`): the lock an attacker at one address meets first;
 * - the address, whatever the account (`ip`): one address trying many accounts;
 * - the account, whatever the address (`account`): a high ceiling on an attacker spread over many
 *   addresses. Past it, only addresses that signed in to the account successfully before (within
 *   AUTH_KNOWN_ADDRESS_TTL_S) may still try, so the owner is not locked out by strangers.
 * An IPv6 address counts as its /64 network, the block one subscriber usually holds.
 */
import { isIPv6 } from 'node:net';
import { whole, type Env } from '../config/env.js';
import { retryAfterS, type LimitStore, type WindowCount } from './store.js';

/** AUTH_* settings, read by config/index.ts. */
export interface FailurePolicy {
  /** The fixed window failures are counted in, seconds (AUTH_RATE_WINDOW_S, default 900). */
  windowS: number;
  /** Failures per account from one address (AUTH_MAX_FAILURES_PER_ACCOUNT_IP, default 10). */
  perAccountIp: number;
  /** Failures per address over every account (AUTH_MAX_FAILURES_PER_IP, default 100). */
  perIp: number;
  /** Failures per account over every address, past which only known addresses may try (AUTH_MAX_FAILURES_PER_ACCOUNT, default 200). */
  perAccount: number;
  /** How long a successful sign-in makes its address known to the account, seconds (AUTH_KNOWN_ADDRESS_TTL_S, default 30 days). */
  knownAddressTtlS: number;
}

export function failurePolicy(env: Env, error: (m: string) => Error): FailurePolicy {
  const policy: FailurePolicy = {
    windowS: whole(env, 'AUTH_RATE_WINDOW_S', 900, 1, 86_400, error),
    perAccountIp: whole(env, 'AUTH_MAX_FAILURES_PER_ACCOUNT_IP', 10, 1, 1_000_000, error),
    perIp: whole(env, 'AUTH_MAX_FAILURES_PER_IP', 100, 1, 1_000_000, error),
    perAccount: whole(env, 'AUTH_MAX_FAILURES_PER_ACCOUNT', 200, 1, 1_000_000, error),
    knownAddressTtlS: whole(env, 'AUTH_KNOWN_ADDRESS_TTL_S', 2_592_000, 60, 31_536_000, error),
  };
  if (policy.perAccount < policy.perAccountIp) {
    throw error(
      `AUTH_MAX_FAILURES_PER_ACCOUNT (${policy.perAccount}) must be at least AUTH_MAX_FAILURES_PER_ACCOUNT_IP (${policy.perAccountIp}): ` +
        'the per-account ceiling is meant for attackers spread over many addresses',
    );
  }
  return policy;
}

/** The part of a client address failures are counted under: IPv4 as is, IPv6 as its /64. */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1];
  const bare = ip.split('%')[0];
  if (!isIPv6(bare)) return ip;
  const [left, right] = bare.split('::');
  const groups = (s: string | undefined) =>
    s ? s.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])) : [];
  const head = groups(left);
  const tail = right === undefined ? [] : groups(right);
  const all = [...head, ...Array<string>(8 - head.length - tail.length).fill('0'), ...tail];
  return `${all
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/** Which count refused an attempt, and for how long. */
export interface Refusal {
  limit: 'account_ip' | 'ip' | 'account';
  retryAfterS: number;
}

/**
 * The failure counts of one surface (`sign-in`, `token`) in the limits store. Keys:
 * `f:<surface>:ip:<address>`, `f:<surface>:account_ip:<address>|<account>`,
 * `f:<surface>:account:<account>` and the known-address mark `f:<surface>:known:<address>|<account>`
 * (an address never contains `|`).
 */
export class FailureGuard {
  private readonly windowMs: number;

  constructor(
    private readonly store: LimitStore,
    private readonly surface: string,
    private readonly policy: FailurePolicy,
  ) {
    this.windowMs = policy.windowS * 1000;
  }

  private key(kind: 'ip' | 'account_ip' | 'account' | 'known', ip: string, account = ''): string {
    const addr = addressKey(ip);
    const id = kind === 'ip' ? addr : kind === 'account' ? account : `${addr}|${account}`;
    return `f:${this.surface}:${kind}:${id}`;
  }

  /** Why an attempt at `account` (none: the client sent no identity) from `ip` is refused now, or null. */
  async check(account: string | undefined, ip: string): Promise<Refusal | null> {
    const none: WindowCount = { count: 0, resetInMs: 0 };
    const [byIp, byPair, byAccount] = await Promise.all([
      this.store.peek(this.key('ip', ip)),
      account === undefined ? none : this.store.peek(this.key('account_ip', ip, account)),
      account === undefined ? none : this.store.peek(this.key('account', ip, account)),
    ]);
    if (byIp.count >= this.policy.perIp) return { limit: 'ip', retryAfterS: retryAfterS(byIp.resetInMs) };
    if (byPair.count >= this.policy.perAccountIp)
      return { limit: 'account_ip', retryAfterS: retryAfterS(byPair.resetInMs) };
    if (account !== undefined && byAccount.count >= this.policy.perAccount) {
      const known = await this.store.peek(this.key('known', ip, account));
      if (known.count === 0) return { limit: 'account', retryAfterS: retryAfterS(byAccount.resetInMs) };
    }
    return null;
  }

  /** Counts a failed attempt against the address, and against the account when there is one. */
  async fail(account: string | undefined, ip: string): Promise<void> {
    const keys = [this.key('ip', ip)];
    if (account !== undefined) keys.push(this.key('account_ip', ip, account), this.key('account', ip, account));
    await Promise.all(keys.map((k) => this.store.hit(k, this.windowMs)));
  }

  /**
   * A successful attempt: forgets the account's failures from this address and marks the address
   * known to the account. The account's and the address's totals stay: a success proves nothing
   * about the other attempts they count.
   */
  async succeed(account: string, ip: string): Promise<void> {
    await Promise.all([
      this.store.clear(this.key('account_ip', ip, account)),
      this.store.hit(this.key('known', ip, account), this.policy.knownAddressTtlS * 1000),
    ]);
  }
}

/** The sentence a refused attempt is told: `what` names the attempts, `account` the thing attempted. */
export function refusalMessage(r: Refusal, what: string, account: string): string {
  const wait = `Try again in ${r.retryAfterS} second${r.retryAfterS === 1 ? '' : 's'}.`;
  switch (r.limit) {
    case 'ip':
      return `Too many ${what} from this address. ${wait}`;
    case 'account_ip':
      return `Too many ${what} for this ${account} from this address. ${wait}`;
    case 'account':
      return `Too many ${what} for this ${account} from many addresses; only addresses that succeeded before may try now. ${wait}`;
  }
}
