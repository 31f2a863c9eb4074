/**
 * Alert settings (ALERT_*, SMTP_*), read by config/index.ts; README.md and docs/alerts.md list them.
 */
import { flag, whole, type Env } from '../../config/env.js';

export interface SmtpConfig {
  /** smtp://user:pass@host:port (STARTTLS when the server offers it) or smtps://… (TLS from the start). */
  url: string;
  /** The From of every alert email (SMTP_FROM): an address, or `Name <address>`. */
  from: string;
  /** How long the SMTP server has to answer each step, milliseconds (SMTP_TIMEOUT_MS). */
  timeoutMs: number;
}

export interface AlertConfig {
  /** Make alerts and send their emails from this process (ALERT_WORKER, default on). */
  worker: boolean;
  /** How often an idle worker looks for new events and due emails, milliseconds (ALERT_POLL_MS). */
  pollMs: number;
  /** Alerts kept per company, newest first (ALERT_FEED_MAX); older ones leave every feed. */
  feedMax: number;
  /** Email, when SMTP_URL is set; null: alerts only in the console. */
  smtp: SmtpConfig | null;
  /** Delays before each retry of an email that could not be sent, seconds (ALERT_EMAIL_RETRY_SCHEDULE_S). */
  emailRetryScheduleS: number[];
  /** How long a claimed email belongs to the node that claimed it, milliseconds. */
  emailLeaseMs: number;
}

export const DEFAULT_EMAIL_RETRY_S = [30, 120, 600, 1800, 3600, 3600, 7200, 21_600, 43_200, 86_400];

function schedule(env: Env, error: (m: string) => Error): number[] {
  const raw = env.ALERT_EMAIL_RETRY_SCHEDULE_S?.trim();
  if (raw === undefined || raw === '') return [...DEFAULT_EMAIL_RETRY_S];
  if (raw === 'none') return [];
  const parts = raw.split(',').map((s) => s.trim());
  if (parts.length > 50 || parts.some((p) => !/^\d+$/.test(p) || Number(p) < 1 || Number(p) > 604_800)) {
    throw error(
      `ALERT_EMAIL_RETRY_SCHEDULE_S must be up to 50 comma-separated delays in seconds (1 to 604800), or none; got "${raw}"`,
    );
  }
  return parts.map(Number);
}

function smtp(env: Env, error: (m: string) => Error): SmtpConfig | null {
  const url = env.SMTP_URL?.trim();
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw error('SMTP_URL must be a URL such as smtp://user:password@mail.example.com:587');
  }
  if ((parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') || !parsed.hostname) {
    throw error(`SMTP_URL must start with smtp:// or smtps:// and name a host, got "${parsed.protocol}//…"`);
  }
  const from = env.SMTP_FROM?.trim();
  if (!from || !/^[^<>@\s]+@[^<>@\s]+$|<[^<>@\s]+@[^<>@\s]+>$/.test(from)) {
    throw error(
      'SMTP_FROM must be set with SMTP_URL: an address (alerts@example.com) or "Fleet alerts <alerts@example.com>"',
    );
  }
  return { url, from, timeoutMs: whole(env, 'SMTP_TIMEOUT_MS', 10_000, 100, 120_000, error) };
}

export function alertConfig(env: Env, error: (m: string) => Error): AlertConfig {
  const config = {
    worker: flag(env, 'ALERT_WORKER', true, error),
    pollMs: whole(env, 'ALERT_POLL_MS', 500, 10, 60_000, error),
    feedMax: whole(env, 'ALERT_FEED_MAX', 1000, 10, 100_000, error),
    smtp: smtp(env, error),
    emailRetryScheduleS: schedule(env, error),
    emailLeaseMs: 0,
  };
  // A send takes at most a few SMTP steps, each within the timeout: the lease outlasts them.
  config.emailLeaseMs = Math.max(60_000, 6 * (config.smtp?.timeoutMs ?? 10_000));
  return config;
}
