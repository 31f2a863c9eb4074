/**
 * Delivery signatures (docs/webhooks.md):
 * - `X-Kt-Webhook-Signature`: lowercase hex HMAC-SHA1 of the exact body bytes, keyed with the webhook's
 *   secret (docs/reference/wire.md §7.5), as the real API sends it. Spelled as the real API's Ruby HTTP client puts
 *   it on the wire: receivers behind Apache or `php -S` read it case-sensitively. Node's http keeps the
 *   spelling given here;
 * - `X-Webhook-Signature-256: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, an addition: the
 *   signed timestamp lets a receiver refuse a replayed request (reject when t is far from its clock).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Kt-Webhook-Signature';
export const SIGNATURE_256_HEADER = 'X-Webhook-Signature-256';

export function signatureSha1(body: string | Buffer, secret: string): string {
  return createHmac('sha1', secret).update(body).digest('hex');
}

export function signatureSha256(body: string | Buffer, secret: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.`).update(body).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Receiver side of the SHA-1 header (used by the tests; documented for integrators). */
export function verifySha1(body: string | Buffer, secret: string, header: string | undefined): boolean {
  return !!header && same(signatureSha1(body, secret), header.trim().toLowerCase());
}

/** Receiver side of the SHA-256 header: the MAC must match and t be within `toleranceS` of `nowS`. */
export function verifySha256(
  body: string | Buffer,
  secret: string,
  header: string | undefined,
  nowS: number,
  toleranceS = 300,
): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header?.trim() ?? '');
  if (!m) return false;
  const t = Number(m[1]);
  if (Math.abs(nowS - t) > toleranceS) return false;
  return same(signatureSha256(body, secret, t), `t=${t},v1=${m[2]}`);
}
