/**
 * One HTTP attempt: POST the stored body bytes, signed, to the webhook's URL. Redirects are not
 * followed (a 3xx is a failed attempt), at most MAX_RESPONSE_BYTES of the answer are read, and the
 * whole exchange (connect, send, answer) must finish within the timeout. Never throws: every failure
 * is an outcome. The secret and the body never reach a log.
 */
import http from 'node:http';
import https from 'node:https';
import { checkLiteral, guardedLookup, TargetRefused } from './address.js';
import { SIGNATURE_256_HEADER, SIGNATURE_HEADER, signatureSha1, signatureSha256 } from './signature.js';

export const MAX_RESPONSE_BYTES = 4096;
const USER_AGENT = 'fleet-webhooks/1';

export interface Attempt {
  url: string;
  secret: string;
  /** The exact body (UTF-8 JSON) to send and sign. */
  body: string;
  /** Sent as X-Webhook-Request-Id so that receivers can recognise a repeated delivery. */
  requestId: number | null;
  /** Signing time, epoch milliseconds. */
  nowMs: number;
}

export interface AttemptResult {
  /** The receiver's status, or null when there was none (timeout, refused, network error). */
  status: number | null;
  /** Why there was no usable answer: `timeout`, `refused`, `network`, `invalid_url`. */
  error: string | null;
  durationMs: number;
}

export interface Sender {
  send(a: Attempt): Promise<AttemptResult>;
  close(): void;
}

export interface SenderOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /** Most open connections per receiver host. */
  maxSockets: number;
}

export function createSender(opts: SenderOptions): Sender {
  const lookup = guardedLookup(opts.allowPrivate);
  const agentOpts = {
    keepAlive: true,
    maxSockets: opts.maxSockets,
    maxFreeSockets: Math.min(opts.maxSockets, 256),
    lookup,
  };
  const agents = { 'http:': new http.Agent(agentOpts), 'https:': new https.Agent(agentOpts) };

  function send(a: Attempt): Promise<AttemptResult> {
    const started = performance.now();
    const done = (status: number | null, error: string | null): AttemptResult => ({
      status,
      error,
      durationMs: Math.round(performance.now() - started),
    });
    let url: URL;
    try {
      url = new URL(a.url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
      checkLiteral(url.hostname, opts.allowPrivate);
    } catch (err) {
      return Promise.resolve(done(null, err instanceof TargetRefused ? 'refused' : 'invalid_url'));
    }
    const body = Buffer.from(a.body, 'utf8');
    const headers: Record<string, string | number> = {
      'content-type': 'application/json',
      'content-length': body.length,
      'user-agent': USER_AGENT,
      [SIGNATURE_HEADER]: signatureSha1(body, a.secret),
      [SIGNATURE_256_HEADER]: signatureSha256(body, a.secret, Math.floor(a.nowMs / 1000)),
    };
    if (a.requestId !== null) headers['x-webhook-request-id'] = String(a.requestId);
    const client = url.protocol === 'https:' ? https : http;
    return new Promise((resolve) => {
      let settled = false;
      const finish = (r: AttemptResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(r);
      };
      const req = client.request(url, {
        method: 'POST',
        headers,
        agent: agents[url.protocol as 'http:' | 'https:'],
        lookup,
      });
      const timer = setTimeout(() => {
        finish(done(null, 'timeout'));
        req.destroy();
      }, opts.timeoutMs);
      req.on('response', (res) => {
        const status = res.statusCode ?? null;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) {
            finish(done(status, null));
            res.destroy();
          }
        });
        res.on('end', () => finish(done(status, null)));
        res.on('error', () => finish(done(status, null)));
        res.on('close', () => finish(done(status, null)));
      });
      req.on('error', (err) =>
        finish(
          done(
            null,
            err instanceof TargetRefused || (err as { code?: string }).code === 'WEBHOOK_TARGET_REFUSED'
              ? 'refused'
              : 'network',
          ),
        ),
      );
      req.end(body);
    });
  }

  return {
    send,
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
