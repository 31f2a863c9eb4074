/**
 * The error catalogue. Domain code throws these; the error handler (src/http/plumbing/error-handler.ts) maps them to
 * the wire: `{"error_message": "..."}` with the status here. Codes are stable and listed in docs/errors.md.
 */
export const ERROR_CODES = {
  bad_request: 400,
  validation_failed: 400,
  bad_url: 400,
  malformed_request: 400,
  duplicate: 400,
  invalid_state: 400,
  unauthenticated: 401,
  invalid_api_key: 401,
  invalid_token: 401,
  forbidden: 403,
  insufficient_scope: 403,
  not_found: 404,
  route_not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  uri_too_long: 414,
  rate_limited: 429,
  headers_too_large: 431,
  internal: 500,
  database_unavailable: 503,
  overloaded: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class AppError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(
    readonly code: ErrorCode,
    message: string,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = ERROR_CODES[code];
    this.headers = headers;
  }
}

export const badRequest = (message: string) => new AppError('bad_request', message);
export const validation = (field: string, problem: string) => new AppError('validation_failed', `${field} ${problem}`);
export const duplicate = (field: string, value: string) =>
  new AppError('duplicate', `${field} "${value}" is already taken`);
export const notFound = (what: string) => new AppError('not_found', `${what} not found`);
export const forbidden = (message: string) => new AppError('forbidden', message);
