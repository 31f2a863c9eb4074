/**
 * Query-string parsing. Array parameters arrive as `x[]=1&x[]=2`, `x[0]=1`, `x=1,2`, `x=1&x=2` or a
 * bare `x=1` (docs/reference/wire.md §10); all become arrays before validation, driven by the route's schema:
 * a property whose schema type is `array` is normalized, everything else is left as sent.
 */
import qs from 'qs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from '../../core/errors.js';
import { objectOf } from './unvalidated.js';

/**
 * At most this many parameters, and items in one array parameter. Parsing costs grow faster than the
 * query (indexed arrays, `x[0]=…&x[1]=…`, are merged item by item): at these limits the worst query
 * that fits Node's 16 KiB header limit parses in well under 100 ms; past them the request is a 400
 * naming the limit, never a silently shortened filter.
 */
export const MAX_QUERY_PARAMETERS = 1000;

/** Set on the (empty) query of a request whose query string was refused; see installArrayParams. */
const REFUSED = Symbol('query refused');

// Called by the router while the request is built: a throw here would escape every handler, so a
// refused query is marked and answered by the first hook instead.
export function parseQuery(str: string): Record<string, unknown> {
  try {
    return qs.parse(str, {
      arrayLimit: MAX_QUERY_PARAMETERS,
      parameterLimit: MAX_QUERY_PARAMETERS,
      throwOnLimitExceeded: true,
      depth: 2,
      allowDots: false,
    });
  } catch {
    return { [REFUSED]: `the query string has more than ${MAX_QUERY_PARAMETERS} parameters or array items` };
  }
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

/** Why parseQuery refused the query string, if it did. */
function refusal(query: unknown): string | undefined {
  return query !== null && typeof query === 'object' && REFUSED in query ? String(query[REFUSED]) : undefined;
}

export function installArrayParams(app: FastifyInstance): void {
  app.addHook('preValidation', async (req: FastifyRequest) => {
    const refused = refusal(req.query);
    if (refused) throw badRequest(refused);
    const schema = req.routeOptions.schema?.querystring as SchemaLike | undefined;
    const props = schema?.properties;
    const q = objectOf(req.query);
    if (!props || !q) return;
    for (const [key, s] of Object.entries(props)) {
      if (s.type === 'array' && q[key] !== undefined) q[key] = toArray(q[key]);
    }
  });
}
