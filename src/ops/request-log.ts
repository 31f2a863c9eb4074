/**
 * The access log (docs/operations.md, Logs): one line per request, written when its answer is sent,
 * instead of Fastify's two (`incoming request`, `request completed`) and its `Route … not found`: a
 * Fastify LogController of our own, given to the app by buildApp.
 *
 * - Ordinary requests: info level.
 * - Device requests (routes declaring `rateLimitBy: 'device'`: POST /device/v1/batches; the OsmAnd
 *   listener logs its own through `deviceRequestLogger`) and long-lived ones (`config.longLived`: the
 *   console's live stream): debug level. A fleet's devices send a batch every few seconds each, which
 *   would drown everything else; instead a summary line at info level every LOG_SUMMARY_INTERVAL_S
 *   counts them (only when there were some).
 * - At trace level, Fastify's `incoming request` line as each request is routed as well, to find
 *   requests that never finish.
 */
import {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { Config } from '../config/index.js';
import { redactUrl } from '../events/webhooks/log-redaction.js';

/** What a device request that reached ingestion stored: the counts of its answer (docs/device-protocol.md). */
export interface BatchCounts {
  accepted: number;
  duplicates: number;
  rejected: number;
}

export interface TrafficSummary extends BatchCounts {
  /** Device requests answered (HTTP batches and OsmAnd positions). */
  batches: number;
  /** Of those, answered with an error status (4xx, 5xx): bad credential, malformed, too large, rate-limited, a rejected OsmAnd position. */
  refused: number;
  /** Records in the batches that reached ingestion: accepted + duplicates + rejected. */
  records: number;
}

/** The device traffic of one app since the last summary. */
export class DeviceTraffic {
  private now: TrafficSummary = DeviceTraffic.empty();

  private static empty(): TrafficSummary {
    return { batches: 0, refused: 0, records: 0, accepted: 0, duplicates: 0, rejected: 0 };
  }

  /** One device request answered with `status`; `counts` when it reached ingestion. */
  add(status: number, counts?: BatchCounts): void {
    const n = this.now;
    n.batches++;
    if (status >= 400) n.refused++;
    if (counts) {
      n.accepted += counts.accepted;
      n.duplicates += counts.duplicates;
      n.rejected += counts.rejected;
      n.records += counts.accepted + counts.duplicates + counts.rejected;
    }
  }

  /** The counts since the last call, or null when there was no device request; starts counting afresh. */
  take(): TrafficSummary | null {
    const n = this.now;
    if (n.batches === 0) return null;
    this.now = DeviceTraffic.empty();
    return n;
  }
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function summaryMessage(s: TrafficSummary, intervalS: number): string {
  return (
    `device traffic in the last ${intervalS} s: ${count(s.batches, 'batch', 'batches')} (${s.refused} refused), ` +
    `${count(s.records, 'record', 'records')} (${s.accepted} accepted, ${s.duplicates} duplicates, ${s.rejected} rejected)`
  );
}

/** The fields of the summary line (its message says them all). */
export const SUMMARY_FIELDS = [
  'component',
  'interval_s',
  'batches',
  'refused',
  'records',
  'accepted',
  'duplicates',
  'rejected',
] as const;
const SUMMARY_COMPONENT = 'device-traffic';

const round2 = (n: number) => Math.round(n * 100) / 100;

const requestMessage = (method: unknown, url: unknown, status: unknown, ms: unknown) =>
  `${method} ${url} ${status} ${ms} ms`;

/** The fields of a request line (its message says them all but the request id). */
export const REQUEST_FIELDS = ['method', 'url', 'status_code', 'duration_ms'] as const;

/** True for a request line or a summary line, whose message says what their fields say (the pretty format leaves those out). */
export function saidInMessage(log: Record<string, unknown>): boolean {
  return (
    log.component === SUMMARY_COMPONENT ||
    log.msg === requestMessage(log.method, log.url, log.status_code, log.duration_ms)
  );
}

type Level = 'info' | 'debug' | 'trace';

/** pino's level check (Fastify's logger type leaves it out); a logger without one writes everything. */
const enabled = (log: FastifyBaseLogger, level: Level) =>
  (log as FastifyBaseLogger & { isLevelEnabled?(l: string): boolean }).isLevelEnabled?.(level) ?? true;

/** Writes the one line of a request: method, URL (secrets redacted), status, duration; the logger adds the request id. */
export function logRequest(
  log: FastifyBaseLogger,
  level: Level,
  method: string,
  url: string,
  status: number,
  durationMs: number,
): void {
  if (!enabled(log, level)) return;
  const ms = round2(durationMs);
  const safeUrl = redactUrl(url);
  log[level](
    { method, url: safeUrl, status_code: status, duration_ms: ms },
    requestMessage(method, safeUrl, status, ms),
  );
}

/** For a device listener of its own (OsmAnd): its requests' lines at debug level, counted in the app's traffic. */
export interface DeviceRequestLogger {
  (req: { method: string; url: string }, status: number, durationMs: number, counts?: BatchCounts): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The device traffic counted for the summary line, and the request logger of the OsmAnd listener. */
    deviceLog: { traffic: DeviceTraffic; osmand: DeviceRequestLogger };
  }
}

const isDeviceRoute = (config: { rateLimitBy?: string } | undefined) => config?.rateLimitBy === 'device';

const hasCounts = (p: unknown): p is BatchCounts =>
  typeof p === 'object' &&
  p !== null &&
  typeof (p as BatchCounts).accepted === 'number' &&
  typeof (p as BatchCounts).rejected === 'number';

/** The request log of one app: Fastify's `logController`, then `install(app)` before the routes are added. */
export class RequestLog extends LogController {
  readonly traffic = new DeviceTraffic();
  /** The counts of a device batch's answer, taken as it is serialized. */
  private readonly counted = new WeakMap<FastifyRequest, BatchCounts>();

  override incomingRequest(request: FastifyRequest): void {
    if (enabled(request.log, 'trace'))
      request.log.trace({ method: request.method, url: redactUrl(request.url) }, 'incoming request');
  }

  /** The request's own line says 404. */
  override routeNotFound(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const config = request.routeOptions.config;
    const device = isDeviceRoute(config);
    if (device) this.traffic.add(reply.statusCode, this.counted.get(request));
    // `error`: the response stream failed (the connection broke while it was written).
    const log = error ? reply.log.child({ err: error }) : reply.log;
    logRequest(
      log,
      device || config?.longLived ? 'debug' : 'info',
      request.method,
      request.url,
      reply.statusCode,
      reply.elapsedTime,
    );
  }

  install(app: FastifyInstance, config: Pick<Config, 'logSummaryIntervalS'>): void {
    const counted = this.counted;
    const capture = async (req: FastifyRequest, _reply: FastifyReply, payload: unknown) => {
      if (hasCounts(payload))
        counted.set(req, {
          accepted: payload.accepted,
          duplicates: payload.duplicates ?? 0,
          rejected: payload.rejected,
        });
      return payload;
    };
    app.addHook('onRoute', (route) => {
      if (!isDeviceRoute(route.config)) return;
      const own = route.preSerialization;
      route.preSerialization = [...(own ? (Array.isArray(own) ? own : [own]) : []), capture] as never;
    });

    const traffic = this.traffic;
    const osmandLog = app.log.child({ listener: 'osmand' });
    app.decorate('deviceLog', {
      traffic,
      osmand: (req, status, durationMs, counts) => {
        traffic.add(status, counts);
        // The path only: the OsmAnd query string carries the device's identifier, its only credential.
        logRequest(osmandLog, 'debug', req.method, req.url.split('?')[0], status, durationMs);
      },
    });

    const intervalS = config.logSummaryIntervalS;
    if (intervalS === 0) return;
    let since = performance.now();
    const summarize = () => {
      const now = performance.now();
      // The last summary, written at close, covers less than an interval: it says how much.
      const seconds = Math.max(1, Math.round((now - since) / 1000));
      since = now;
      const s = traffic.take();
      if (s) app.log.info({ component: SUMMARY_COMPONENT, interval_s: seconds, ...s }, summaryMessage(s, seconds));
    };
    const timer = setInterval(summarize, intervalS * 1000).unref();
    // What came in since the last summary is written on the way out.
    app.addHook('onClose', async () => {
      clearInterval(timer);
      summarize();
    });
  }
}
