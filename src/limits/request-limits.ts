/**
 * Request-rate limits: a fixed window of RATE_LIMIT_WINDOW_S per key, counted before authentication in
 * one onRequest hook that runs ahead of the auth hook.
 * - Routes with a scope (the API) count per API credential: the Authorization bearer token or the
 *   X-Api-Key, chosen in the auth hook's order, keyed by its SHA-256 digest (never the secret).
 * - Routes declaring `rateLimitBy: 'device'` (the device API) count per device credential, digested.
 * - Routes declaring `rateLimitBy: 'ip'` (OAuth endpoints, sign-in pages) count per client IP address.
 * Past the limit: AppError rate_limited (429) with Retry-After, which each surface renders in its own
 * error form (JSON error_message, the OAuth error body, an HTML page).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../core/errors.js';
import { authenticators } from '../auth/authenticators.js';
import { digest } from '../auth/secrets.js';
import { deviceCredential } from '../telemetry/device-auth.js';
import { retryAfterS, type LimitStore, type WindowCount } from './store.js';
import type { LimitsConfig } from './settings.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * How this route's request rate is limited (src/limits): per client IP address, or per device
     * credential. Routes with a `scope` are limited per API credential without saying so.
     */
    rateLimitBy?: 'ip' | 'device';
  }
}

interface Rule {
  max: number;
  /** The counter's key for this request; null when the request carries nothing to count by. */
  key(req: FastifyRequest): string | null;
  /** What exceeded: "for this credential", … */
  what: string;
}

function apiCredentialKey(req: FastifyRequest): string | null {
  for (const a of authenticators) {
    const credential = a.credential(req);
    if (credential !== null) return `${a.name}:${digest(credential.trim())}`;
  }
  return null;
}

function deviceKey(req: FastifyRequest): string | null {
  const credential = deviceCredential(req);
  return credential === null ? null : `device:${digest(credential)}`;
}

export function installRequestLimits(app: FastifyInstance, store: LimitStore, cfg: LimitsConfig): void {
  const windowMs = cfg.windowS * 1000;
  const rules: Record<'credential' | 'device' | 'ip', Rule> = {
    credential: { max: cfg.requestsPerCredential, key: apiCredentialKey, what: 'for this credential' },
    device: { max: cfg.requestsPerDevice, key: deviceKey, what: 'for this device credential' },
    ip: {
      max: cfg.requestsPerIp,
      key: (req) => `ip:${req.ip}`,
      what: 'from this IP address to the sign-in and OAuth endpoints',
    },
  };

  const ruleOf = (req: FastifyRequest): Rule | null => {
    const config = req.routeOptions.config;
    if (config?.rateLimitBy) return rules[config.rateLimitBy];
    return config?.scope ? rules.credential : null;
  };

  const verdict = (rule: Rule, { count, resetInMs }: WindowCount): AppError | undefined => {
    if (count <= rule.max) return undefined;
    const waitS = retryAfterS(resetInMs);
    return new AppError(
      'rate_limited',
      `Too many requests ${rule.what}: the limit is ${rule.max} requests per ${cfg.windowS} seconds. Try again in ${waitS} seconds.`,
      { 'Retry-After': String(waitS) },
    );
  };

  // A callback hook: a count kept in this process is answered without a promise (LimitStore.hit).
  app.addHook('onRequest', (req, _reply, done) => {
    const rule = ruleOf(req);
    if (!rule || rule.max === 0) return done();
    const key = rule.key(req);
    if (key === null) return done();
    const counted = store.hit(`r:${key}`, windowMs);
    if (counted instanceof Promise) counted.then((c) => done(verdict(rule, c)), done);
    else done(verdict(rule, counted));
  });
}
