/**
 * The request line of the access log without secrets: clients that send fields in the query string
 * (a webhook's `secret` on POST /v1/company_webhooks, an OAuth `client_secret` or `refresh_token` on
 * /oauth/token) would otherwise have them written to the log. The values of query parameters named
 * `secret`, `password` or ending in `_secret` or `_token` become `[redacted]`.
 */
import type { FastifyRequest } from 'fastify';

const SENSITIVE = /^(?:secret|password|[a-z_]*_secret|[a-z_]*_token)(?:\[[^\]]*\])?$/i;

export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const parts = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // keep it as sent
      }
      return SENSITIVE.test(name) ? `${pair.slice(0, eq)}=[redacted]` : pair;
    });
  return `${url.slice(0, q)}?${parts.join('&')}`;
}

/** Fastify's own `req` log serializer, with the URL redacted. */
export function requestLogSerializer(req: FastifyRequest) {
  const version = req.headers?.['accept-version'];
  return {
    method: req.method,
    url: redactUrl(req.url),
    version: Array.isArray(version) ? version[0] : version,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket ? req.socket.remotePort : undefined,
  };
}
