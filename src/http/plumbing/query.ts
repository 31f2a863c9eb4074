/**
 * Query-string parsing. Array parameters arrive as `x[]=1&x[]=2`, `x[0]=1`, `x=1,2`, `x=1&x=2` or a
 * bare `x=1` (wire-format §10); all become arrays before validation, driven by the route's schema:
 * a property whose schema type is `array` is normalized, everything else is left as sent.
 */
import qs from 'qs';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export function parseQuery(str: string): Record<string, unknown> {
  return qs.parse(str, { arrayLimit: 10_000, parameterLimit: 10_000, depth: 2, allowDots: false });
}

interface SchemaLike {
  type?: string;
  properties?: Record<string, SchemaLike>;
}

function toArray(v: unknown): unknown {
  if (Array.isArray(v)) return v.flatMap((x) => (typeof x === 'string' ? x.split(',') : [x])).filter((x) => x !== '');
  if (typeof v === 'string') return v === '' ? [] : v.split(',');
  if (v && typeof v === 'object') return Object.values(v as Record<string, unknown>);
  return v;
}

export function installArrayParams(app: FastifyInstance): void {
  app.addHook('preValidation', async (req: FastifyRequest) => {
    const schema = req.routeOptions.schema?.querystring as SchemaLike | undefined;
    const props = schema?.properties;
    if (!props || !req.query || typeof req.query !== 'object') return;
    const q = req.query as Record<string, unknown>;
    for (const [key, s] of Object.entries(props)) {
      if (s.type === 'array' && q[key] !== undefined) q[key] = toArray(q[key]);
    }
  });
}
