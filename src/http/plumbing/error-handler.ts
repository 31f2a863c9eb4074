/**
 * Maps every failure to the wire form `{"error_message": "..."}` (error_message first and alone).
 * Only errors below 500 expose a message; anything unexpected is an opaque 500 with the request id.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ERROR_CODES } from '../../core/errors.js';

const CATALOGUE_STATUSES = new Set<number>(Object.values(ERROR_CODES));
import { isDatabaseUnavailable } from '../../storage/unavailable.js';

interface AjvError {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

/** `/stops/0/vendor_id` → `stops[0].vendor_id` */
function fieldName(instancePath: string): string {
  return instancePath
    .split('/')
    .filter(Boolean)
    .map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`))
    .join('')
    .replace(/^\./, '');
}

export function describeValidation(errors: AjvError[], context: string | undefined): string {
  const e = errors[0];
  const where = context === 'body' ? 'body' : context === 'querystring' ? 'query parameter' : (context ?? 'input');
  let field = fieldName(e.instancePath);
  const p = e.params;
  switch (e.keyword) {
    case 'required':
      field = [field, String(p.missingProperty)].filter(Boolean).join('.');
      return `${field} is required`;
    case 'type':
      if (!field) return `${where} must be ${p.type === 'object' ? 'a JSON object' : String(p.type)}`;
      return `${field} must be ${article(String(p.type))}`;
    case 'enum':
      return `${field} must be one of: ${(p.allowedValues as unknown[]).join(', ')}`;
    case 'anyOf':
      return `${field || where} has an invalid value`;
    case 'maxLength':
      return `${field} must be at most ${p.limit} characters long`;
    case 'minLength':
      return p.limit === 1 ? `${field} must not be empty` : `${field} must be at least ${p.limit} characters long`;
    case 'minimum':
      return `${field} must be ${p.comparison === '>=' ? 'at least' : 'greater than'} ${p.limit}`;
    case 'maximum':
      return `${field} must be ${p.comparison === '<=' ? 'at most' : 'less than'} ${p.limit}`;
    case 'minItems':
      return `${field} must have at least ${p.limit} item${p.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `${field} must have at most ${p.limit} items`;
    case 'format':
      return `${field} must be a valid ${String(p.format)}`;
    case 'pattern':
      return `${field} has an invalid format`;
    case 'x-calendar':
      return `${field} ${String(p.problem)}`;
    default:
      return `${field || where} ${e.message ?? 'is invalid'}`;
  }
}

function article(type: string): string {
  if (type === 'integer') return 'an integer';
  if (type === 'array') return 'an array';
  if (type === 'object') return 'an object';
  return `a ${type}`;
}

function clientMessage(err: FastifyError): { status: number; message: string } | null {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 400, message: 'Content-Type must be application/json' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 400, message: 'request body is larger than the limit' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, message: 'body must be a JSON object, but it was empty' };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, message: 'body is not valid JSON' };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, message: 'Content-Length does not match the body' };
  }
  if (err instanceof SyntaxError || (err.statusCode === 400 && /JSON/i.test(err.message))) {
    return { status: 400, message: `body is not valid JSON: ${err.message}` };
  }
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    // Only the catalogue's statuses reach the wire (docs/errors.md, "Every status"): another 4xx of a
    // plugin (406, 413, 415, 422, …) is a 400 with its message.
    return { status: CATALOGUE_STATUSES.has(err.statusCode) ? err.statusCode : 400, message: err.message };
  }
  return null;
}

export function sendError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ error_message: message }));
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof AppError) {
      for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
      return sendError(reply, err.status, err.message);
    }
    if (err.validation) {
      return sendError(reply, 400, describeValidation(err.validation as AjvError[], err.validationContext));
    }
    const known = clientMessage(err);
    if (known) return sendError(reply, known.status, known.message);
    if (isDatabaseUnavailable(err)) {
      req.log.warn({ err: { code: (err as { code?: unknown }).code, message: err.message } }, 'database unavailable');
      reply.header('Retry-After', '2');
      return sendError(reply, 503, `database unavailable; retry shortly (request id ${req.id})`);
    }
    req.log.error({ err }, 'unhandled error');
    return sendError(reply, 500, `internal server error (request id ${req.id})`);
  });
}
