/**
 * Operations settings (METRICS_TOKEN, SLOW_REQUEST_MS, SLOW_REQUEST_QUERIES), read by config/index.ts.
 * README.md and docs/operations.md list them.
 */
import { flag } from '../config/env.js';

export interface OpsConfig {
  /**
   * The operator token that `GET /metrics` requires as `Authorization: Bearer <token>` (METRICS_TOKEN,
   * at least 16 characters). Unset: no metrics are collected and /metrics is a 404 like any unknown path.
   */
  metricsToken: string | null;
  /**
   * A request taking at least this long, milliseconds, is logged at warn level (SLOW_REQUEST_MS,
   * default 1000; 0 logs every request; `off` turns the line off).
   */
  slowRequestMs: number | null;
  /**
   * Count each request's database queries for that line (SLOW_REQUEST_QUERIES, default off). It needs an
   * AsyncLocalStorage scope per request, which on Node 20 taxes every promise of the process — about
   * 20 µs on a request with a few queries, measured (docs/operations.md) — so it is turned on to hunt.
   */
  slowRequestQueries: boolean;
}

type Env = Record<string, string | undefined>;

export const METRICS_TOKEN_MIN_LENGTH = 16;
const SLOW_REQUEST_MAX_MS = 3_600_000;

function slowRequestMs(env: Env, error: (m: string) => Error): number | null {
  const raw = env.SLOW_REQUEST_MS?.trim();
  if (raw === undefined || raw === '') return 1000;
  if (raw.toLowerCase() === 'off') return null;
  if (!/^\d+$/.test(raw) || Number(raw) > SLOW_REQUEST_MAX_MS) {
    throw error(
      `SLOW_REQUEST_MS must be a whole number of milliseconds from 0 to ${SLOW_REQUEST_MAX_MS}, or off, got "${env.SLOW_REQUEST_MS}"`,
    );
  }
  return Number(raw);
}

function metricsToken(env: Env, error: (m: string) => Error): string | null {
  const raw = env.METRICS_TOKEN;
  if (raw === undefined || raw === '') return null;
  if (raw.length < METRICS_TOKEN_MIN_LENGTH || /\s/.test(raw)) {
    throw error(
      `METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN_LENGTH} characters without spaces, got ${raw.length} characters`,
    );
  }
  return raw;
}

export function opsConfig(env: Env, error: (m: string) => Error): OpsConfig {
  return {
    metricsToken: metricsToken(env, error),
    slowRequestMs: slowRequestMs(env, error),
    slowRequestQueries: flag(env, 'SLOW_REQUEST_QUERIES', false, error),
  };
}
