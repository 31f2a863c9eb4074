/**
 * Errors raised before a request reaches a route — by the router, or by Node's HTTP parser on the
 * connection — answered in the catalogue's wire form like every other error (docs/errors.md):
 * - a path whose percent-encoding is broken: 400 `bad_url`;
 * - a path parameter longer than the router takes (`maxParamLength`, 100): 414 `uri_too_long`;
 * - a request line or headers over Node's limit (16 KiB, a long query string counts): 431
 *   `headers_too_large`;
 * - a request that took too long to arrive: 408 `request_timeout`;
 * - anything else the HTTP parser cannot read (a malformed request line, bad chunked encoding): 400
 *   `malformed_request`.
 * Connection-level answers are written to the socket, which is then closed (as Node itself does).
 */
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES, type ErrorCode } from '../../core/errors.js';
import { sendError } from './error-handler.js';

const shown = (path: string) => (path.length > 120 ? `${path.slice(0, 120)}…` : path);

/** Fastify's `frameworkErrors` option: router-level failures, with a request and a reply to answer on. */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const path = req.raw.url?.split('?')[0] ?? '';
  // The request hooks that set these on every other answer do not run before routing.
  reply.header('X-Request-Id', req.id).header('X-Content-Type-Options', 'nosniff');
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void sendError(reply, ERROR_CODES.uri_too_long, `a path segment of ${shown(path)} is longer than 100 characters`);
    return;
  }
  void sendError(reply, ERROR_CODES.bad_url, `the path is not valid percent-encoding: ${shown(path)}`);
}

function connectionError(code: string | undefined): { code: ErrorCode; message: string } {
  if (code === 'HPE_HEADER_OVERFLOW')
    return {
      code: 'headers_too_large',
      message: 'the request line and headers are larger than 16 KiB (a long query string counts)',
    };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return { code: 'request_timeout', message: 'the request did not arrive in time' };
  return { code: 'malformed_request', message: 'the request is not valid HTTP/1.1' };
}

/** Fastify's `clientErrorHandler` option: Node's HTTP parser could not read a request on `socket`. */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const e = connectionError(err.code);
    const status = ERROR_CODES[e.code];
    const body = JSON.stringify({ error_message: e.message });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
