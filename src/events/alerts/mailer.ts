/**
 * Sends the queued alert emails (src/domain/alerts/email-queue.ts) over SMTP with nodemailer: claims
 * due emails, sends each outside any transaction, and records the outcome. A failure is retried on the
 * schedule (ALERT_EMAIL_RETRY_SCHEDULE_S), then the email is `failed` (and logged); a recipient the
 * server refuses for good (a 5xx answer to the envelope) fails at once. Delivery is at least once: a
 * node that dies after the server took an email but before recording it sends it again.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import type { Db } from '../../storage/db.js';
import { claimEmails, recordAttempt, type ClaimedEmail } from '../../domain/alerts/email-queue.js';
import type { AlertConfig, SmtpConfig } from './settings.js';

export interface Mailer {
  /** One pass: claims and sends due emails; returns how many were tried and whether more are due. */
  sendDue(now: () => Date): Promise<{ tried: number; more: boolean }>;
  close(): void;
}

/** Emails sent at once by one node. */
const BATCH = 20;

interface Log {
  warn(o: object, m: string): void;
  error(o: object, m: string): void;
}

/** A 5xx answer to the sender or a recipient: the server will never take this email. */
function permanent(err: unknown): boolean {
  const e = err as { code?: string; responseCode?: number };
  return e.code === 'EENVELOPE' && typeof e.responseCode === 'number' && e.responseCode >= 500;
}

export function createMailer(db: Db, config: AlertConfig & { smtp: SmtpConfig }, log: Log): Mailer {
  const smtp = config.smtp;
  // One pooled connection, reused while emails keep coming (the URL's own settings win over these).
  const transport: Transporter = nodemailer.createTransport({
    url: smtp.url,
    pool: true,
    maxConnections: 1,
    connectionTimeout: smtp.timeoutMs,
    greetingTimeout: smtp.timeoutMs,
    socketTimeout: smtp.timeoutMs,
  });

  async function sendOne(e: ClaimedEmail, now: () => Date) {
    try {
      await transport.sendMail({ from: smtp.from, to: e.to_address, subject: e.subject, text: e.body });
      await recordAttempt(db, e, now(), { sent: true });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const delay = permanent(err) ? undefined : config.emailRetryScheduleS[e.attempts];
      const retryAt = delay === undefined ? null : new Date(now().getTime() + delay * 1000);
      await recordAttempt(db, e, now(), { sent: false, error: message, retryAt });
      const entry = { email_id: e.id, attempt: e.attempts + 1, err: message };
      if (retryAt) log.warn({ ...entry, retry_at: retryAt.toISOString() }, 'alert email not sent; will retry');
      else log.error(entry, 'alert email failed for good');
    }
  }

  return {
    async sendDue(now) {
      const claimed = await claimEmails(db, now(), config.emailLeaseMs, BATCH);
      for (const e of claimed) await sendOne(e, now);
      return { tried: claimed.length, more: claimed.length === BATCH };
    },
    close: () => transport.close(),
  };
}
