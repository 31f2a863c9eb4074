/**
 * Request bodies of the dispatch area. "The body must be a single JSON object" (docs/reference/api.md
 * §4.5): an array, a string, a number or null is a 400 saying which it was. For clients that send back
 * what they read, the singular wrapper (`{"dispatch": {...}}`) and wrapped collection items
 * (`{"dispatch_stop": {...}}`) are unwrapped before validation.
 */
import type { FastifyRequest } from 'fastify';
import { badRequest } from '../../../core/errors.js';

function kindOf(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return `a ${typeof v}`;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function unwrap(v: unknown, key: string): unknown {
  if (isObject(v) && Object.keys(v).length === 1 && isObject(v[key])) return v[key];
  return v;
}

/** A preValidation hook: the body is one JSON object; wrappers are removed. */
export function singleObjectBody(wrapper: string, collections: Record<string, string> = {}) {
  return async (req: FastifyRequest) => {
    const body = req.body;
    if (!isObject(body)) throw badRequest(`body must be a single JSON object, but it was ${kindOf(body)}`);
    const inner = unwrap(body, wrapper) as Record<string, unknown>;
    for (const [list, item] of Object.entries(collections)) {
      if (Array.isArray(inner[list])) inner[list] = (inner[list] as unknown[]).map((x) => unwrap(x, item));
    }
    req.body = inner;
  };
}
