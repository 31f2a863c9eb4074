/**
 * Which addresses a webhook may reach. Unless the operator allows it (WEBHOOK_ALLOW_PRIVATE=1), a
 * target that is, or resolves to, a loopback, private, shared, link-local (cloud metadata lives at
 * 169.254.169.254 and fd00:ec2::254), multicast, reserved or documentation address is refused. The check
 * runs when a webhook is saved and again at connect time on every attempt (the resolver hook below), so
 * a name that later resolves elsewhere (DNS rebinding) is still refused.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** The IPv4 address inside an IPv4-mapped, -compatible or NAT64 (64:ff9b::/96) IPv6 address, if any. */
function embeddedV4(v6: string): string | null {
  const lower = v6.toLowerCase();
  const m = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (m) return m[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const hi = parseInt(hex[1], 16);
    const lo = parseInt(hex[2], 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return null;
}

/** True when a webhook must not be sent to this IP address. */
export function isForbiddenAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return blocked.check(ip, 'ipv4');
  if (family === 6) {
    const v4 = embeddedV4(ip.split('%')[0]);
    if (v4) return blocked.check(v4, 'ipv4');
    return blocked.check(ip.split('%')[0], 'ipv6');
  }
  return true;
}

export class TargetRefused extends Error {
  readonly code = 'WEBHOOK_TARGET_REFUSED';
}

export const refusalText =
  'points at a loopback, private, link-local or metadata address; webhooks may only reach public addresses';

/** `[::1]` → `::1`: URL.hostname keeps the brackets of an IPv6 literal. */
export const bareHost = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * A resolver for http.request that refuses forbidden addresses. Node calls it for host names only, so
 * the sender checks IP literals itself (checkLiteral).
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return ((hostname: string, options: object, callback: (...args: unknown[]) => void) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err);
      const usable = allowPrivate ? addresses : addresses.filter((a) => !isForbiddenAddress(a.address));
      if (usable.length === 0 || usable.length < addresses.length) {
        return callback(new TargetRefused(`${hostname} ${refusalText}`));
      }
      if ((options as { all?: boolean }).all) return callback(null, usable);
      callback(null, usable[0].address, usable[0].family);
    });
  }) as LookupFunction;
}

/** Refuses a forbidden IP-literal host; host names are left to guardedLookup. */
export function checkLiteral(hostname: string, allowPrivate: boolean): void {
  const host = bareHost(hostname);
  if (!allowPrivate && isIP(host) && isForbiddenAddress(host)) throw new TargetRefused(`${host} ${refusalText}`);
}

/**
 * Resolves a URL's host now and says whether it is refused (the save-time check). A name that does not
 * resolve is not refused here: the test delivery fails instead, and the webhook stays disabled.
 */
const SAVE_LOOKUP_TIMEOUT_MS = 2000;

export async function targetRefusal(url: URL, allowPrivate: boolean): Promise<string | null> {
  if (allowPrivate) return null;
  const host = bareHost(url.hostname);
  if (isIP(host)) return isForbiddenAddress(host) ? `${host} ${refusalText}` : null;
  const addresses = await new Promise<LookupAddress[]>((resolve) => {
    // A resolver that does not answer in time counts as a name that does not resolve.
    const timer = setTimeout(() => resolve([]), SAVE_LOOKUP_TIMEOUT_MS);
    dnsLookup(host, { all: true }, (err, list) => {
      clearTimeout(timer);
      resolve(err ? [] : list);
    });
  });
  return addresses.some((a) => isForbiddenAddress(a.address)) ? `${host} ${refusalText}` : null;
}
