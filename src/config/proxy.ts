/**
 * TRUST_PROXY: which reverse proxy in front of the server may say who the client is. Behind a proxy
 * every connection comes from the proxy's address, so without this setting every client would share
 * one address for the per-address rate limits and sign-in failure counts (docs/rate-limits.md), and
 * the logs would name the proxy. With it, the client's address is read from `X-Forwarded-For` as
 * written by the trusted proxies (and the scheme and host from `X-Forwarded-Proto`/`-Host`).
 *
 * Values: unset, `off` or `false`: trust no one (the server faces the clients). A comma-separated list
 * of addresses, CIDR ranges or the names `loopback`, `linklocal`, `uniquelocal`: trust proxies at those
 * addresses (nginx on the same machine: `loopback`). A whole number n from 1 to 10: trust the n
 * nearest hops, whatever their address. "Trust everyone" is not offered: any client could then claim
 * any address and slip past the per-address limits.
 */
import { isIP } from 'node:net';
import type { Env } from './env.js';

export type TrustProxy = false | number | string[];

const NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function validEntry(entry: string): boolean {
  if (NAMES.includes(entry)) return true;
  const [addr, prefix, extra] = entry.split('/');
  const family = isIP(addr);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

export function trustProxy(env: Env, error: (m: string) => Error): TrustProxy {
  const raw = env.TRUST_PROXY?.trim() ?? '';
  const lower = raw.toLowerCase();
  if (lower === '' || lower === 'off' || lower === 'false' || lower === 'no') return false;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops < 1 || hops > 10) throw error(`TRUST_PROXY as a number of proxies must be from 1 to 10, got ${raw}`);
    return hops;
  }
  const entries = lower
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const bad = entries.find((e) => !validEntry(e));
  if (bad !== undefined || entries.length === 0) {
    throw error(
      `TRUST_PROXY must be off, a number of proxies (1 to 10), or a comma-separated list of the proxies' addresses, ` +
        `CIDR ranges or loopback/linklocal/uniquelocal; got "${raw}"`,
    );
  }
  return entries;
}
