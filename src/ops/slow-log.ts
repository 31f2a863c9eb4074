/**
 * The slow-request line: a request that took at least SLOW_REQUEST_MS is logged at warn level with
 * what it takes to trace it (docs/operations.md lists the fields); the database fields only while the
 * request scope counts them (SLOW_REQUEST_QUERIES). Never a credential's secret: only the kind and row
 * id of the credential, and the company it belongs to.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { routeOf } from './http-metrics.js';

interface DeviceCaller {
  deviceId: number;
  companyId: number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The authenticated caller: an API credential (req.auth) or a device (the device API sets req.device). */
function caller(req: FastifyRequest) {
  if (req.auth)
    return {
      company_id: req.auth.companyId,
      credential_type: req.auth.credential.type,
      credential_id: req.auth.credential.id,
    };
  const device = (req as unknown as { device?: DeviceCaller }).device;
  if (device) return { company_id: device.companyId, credential_type: 'device', credential_id: device.deviceId };
  return {};
}

export function logSlowRequest(req: FastifyRequest, reply: FastifyReply, durationMs: number): void {
  const scope = req.opsScope;
  req.log.warn(
    {
      method: req.method,
      route: routeOf(req),
      status_code: reply.statusCode,
      duration_ms: round2(durationMs),
      ...(scope && { db_queries: scope.dbQueries, db_time_ms: round2(scope.dbTimeMs) }),
      ...caller(req),
    },
    'slow request',
  );
}
