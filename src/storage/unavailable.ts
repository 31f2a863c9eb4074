/**
 * Errors that mean "the database cannot be reached right now" rather than "this request is wrong" or
 * "the code is wrong": PostgreSQL restarting or shutting down, a connection refused, reset or timed
 * out, too many connections, or an SQLite file locked by another process for longer than busy_timeout.
 * The API answers these with 503 and Retry-After; the request can be sent again as it is.
 */
const PG_CODES = new Set([
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down)
  '53300', // too_many_connections
  '08000',
  '08001',
  '08003',
  '08004',
  '08006', // connection exceptions
]);
const NET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
const SQLITE_CODES = new Set(['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_LOCKED']);
const PG_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection closed)/;

export function isDatabaseUnavailable(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 3;
    e = e.cause as typeof e, depth++
  ) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (PG_CODES.has(code) || NET_CODES.has(code) || SQLITE_CODES.has(code)) return true;
    if (typeof e.message === 'string' && PG_MESSAGES.test(e.message)) return true;
  }
  return false;
}
