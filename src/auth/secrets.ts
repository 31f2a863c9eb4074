/**
 * Password hashing (scrypt) and high-entropy secret digests (SHA-256), with constant-time comparison.
 * Stored password format: `scrypt$N$r$p$<salt b64url>$<hash b64url>`.
 */
import { createHash, randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const N = 16384;
const R = 8;
const P = 1;
const KEYLEN = 32;

function scrypt(password: string, salt: Buffer, keylen: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEYLEN, { N, r: R, p: P });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (!stored) return false;
  const [alg, n, r, p, salt, hash] = stored.split('$');
  if (alg !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(key, expected);
}

/** A random token: `<prefix>_<43 base64url chars>` (256 bits). */
export function newSecret(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

/** SHA-256 hex digest, used to store and look up high-entropy tokens and keys. */
/**
 * The last digest made: a request's credential is digested by the rate limiter and again by its
 * authenticator, one after the other. Only the one most recent secret is held, which the request
 * being served holds anyway.
 */
let lastSecret = '';
let lastDigest = '';

export function digest(secret: string): string {
  if (secret === lastSecret && secret !== '') return lastDigest;
  lastDigest = createHash('sha256').update(secret).digest('hex');
  lastSecret = secret;
  return lastDigest;
}
