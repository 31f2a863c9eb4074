/**
 * Path tolerance and the answers for paths that match no route:
 * - runs of `/` collapse to one and, on versioned API paths, a trailing `.json` is dropped before
 *   routing (docs/reference/wire.md §2.6);
 * - an unknown path is 404, a known path with another method is 405 with `Allow`.
 */
import type { FastifyInstance } from 'fastify';
import { sendError } from './error-handler.js';

export function rewriteUrl(url: string): string {
  const q = url.indexOf('?');
  let path = q === -1 ? url : url.slice(0, q);
  // What nearly every request sends: nothing to rewrite, so the very string comes back (no copy).
  if (!path.includes('//') && !path.endsWith('.json') && (path.length === 1 || !path.endsWith('/'))) return url;
  const rest = q === -1 ? '' : url.slice(q);
  path = path.replace(/\/{2,}/g, '/');
  if (path.endsWith('.json') && /^\/v\d+\//.test(path)) path = path.slice(0, -5);
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  return path + rest;
}

interface Pattern {
  re: RegExp;
  methods: Set<string>;
}

export function installRouteIndex(app: FastifyInstance): void {
  const patterns = new Map<string, Pattern>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const src = route.url
      .split('/')
      .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg === '*' ? '.*' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    const p = patterns.get(route.url) ?? { re: new RegExp(`^${src}$`), methods: new Set<string>() };
    for (const m of methods) p.methods.add(m.toUpperCase());
    patterns.set(route.url, p);
  });

  app.setNotFoundHandler((req, reply) => {
    const path = (req.url.split('?')[0] ?? '/').replace(/\/{2,}/g, '/');
    const allowed = new Set<string>();
    for (const p of patterns.values()) if (p.re.test(path)) for (const m of p.methods) allowed.add(m);
    if (allowed.size > 0 && !allowed.has(req.method)) {
      reply.header('Allow', [...allowed].sort().join(', '));
      return sendError(
        reply,
        405,
        `method ${req.method} is not allowed on ${path}; allowed: ${[...allowed].sort().join(', ')}`,
      );
    }
    return sendError(reply, 404, `no such endpoint: ${req.method} ${path}`);
  });
}
