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
  const plain = plainQuery(str);
  if (plain) return plain;
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

/** `name=value&…` where names are plain words and values need no decoding: what most requests send. */
const PLAIN = /^[\w.-]+=[^&[\]%+]*(?:&[\w.-]+=[^&[\]%+]*){0,31}$/;

/**
 * A query string that qs would parse into exactly one string per name, parsed without it (about 0.2 µs
 * against qs's 1.2): plain names, each once and none a property of Object.prototype (qs drops those),
 * values with nothing to decode. Anything else is qs's (null here). test/http/plumbing/query.test.ts
 * checks the two agree on generated query strings.
 */
export function plainQuery(str: string): Record<string, string> | null {
  if (!PLAIN.test(str)) return null;
  const out: Record<string, string> = {};
  for (const part of str.split('&')) {
    const eq = part.indexOf('=');
    const name = part.slice(0, eq);
    // A repeated name, or one of Object.prototype's (which qs drops): both are `in` an object literal.
    if (name in out) return null;
    out[name] = part.slice(eq + 1);
  }
  return out;
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
  // A callback hook: synchronous work needs no promise.
  app.addHook('preValidation', (req: FastifyRequest, _reply, done) => {
    const refused = refusal(req.query);
    if (refused) return done(badRequest(refused));
    const schema = req.routeOptions.schema?.querystring as SchemaLike | undefined;
    const props = schema?.properties;
    const q = objectOf(req.query);
    if (props && q) {
      for (const [key, s] of Object.entries(props)) {
        if (s.type === 'array' && q[key] !== undefined) q[key] = toArray(q[key]);
      }
    }
    done();
  });
}
