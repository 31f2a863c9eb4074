/**
 * Request and query metrics, recorded as they happen. Labels stay bounded: the route is the pattern it
 * matched (`/v1/vehicles/:id`), never the URL; a path that matched no route counts as `(unmatched)`.
 * The series of each (method, route, status) is looked up once and kept (series.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LogEvent } from 'kysely';
import type { Metrics } from './metrics.js';

export const UNMATCHED = '(unmatched)';

export const routeOf = (req: FastifyRequest): string => req.routeOptions.url ?? UNMATCHED;

const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'];

interface Series {
  requests: { inc(): void };
  durationS: { observe(v: number): void };
}

/** Counts a request and, unless `durationMs` is null (a long-lived stream), observes its duration. */
export function httpRecorder(
  m: Metrics,
): (req: FastifyRequest, reply: FastifyReply, durationMs: number | null) => void {
  const series = new Map<string, Series>();
  return (req, reply, durationMs) => {
    const route = routeOf(req);
    const status = reply.statusCode;
    const key = `${req.method} ${status} ${route}`;
    let s = series.get(key);
    if (!s) {
      const statusClass = STATUS_CLASSES[Math.floor(status / 100) - 1] ?? 'other';
      s = {
        requests: m.httpRequests.series({ method: req.method, route, status_code: String(status) }),
        durationS: m.httpDuration.series({ method: req.method, route, status_class: statusClass }),
      };
      series.set(key, s);
    }
    s.requests.inc();
    if (durationMs !== null) s.durationS.observe(durationMs / 1000);
  };
}

const OPERATIONS: Record<string, string> = {
  SelectQueryNode: 'select',
  InsertQueryNode: 'insert',
  UpdateQueryNode: 'update',
  DeleteQueryNode: 'delete',
  RawNode: 'raw',
};

export function queryRecorder(m: Metrics): (e: LogEvent) => void {
  const byKind = new Map<string, { durationS: { observe(v: number): void }; errors: { inc(): void } }>();
  return (e) => {
    const kind = e.query.query.kind;
    let s = byKind.get(kind);
    if (!s) {
      const op = OPERATIONS[kind] ?? 'other';
      s = { durationS: m.dbQueryDuration.series({ operation: op }), errors: m.dbQueryErrors.series({ operation: op }) };
      byKind.set(kind, s);
    }
    s.durationS.observe(e.queryDurationMillis / 1000);
    if (e.level === 'error') s.errors.inc();
  };
}
