/**
 * Two validators: query strings and path params arrive as text, so they are coerced (`"5"` → 5, a bare
 * value → a one-element array); JSON bodies are typed by the client, so they are checked as sent
 * (`{"first_name": 5}` is a 400, not the string "5").
 *
 * Both hold every route to what the two databases store alike (storage/portable-values.ts), by
 * construction rather than route by route: each schema is compiled from a copy in which
 * - an integer without its own bounds gets PostgreSQL's `integer` range (2^31 − 1 would otherwise be
 *   stored by SQLite and refused by PostgreSQL);
 * - a day (`YYYY-MM-DD`), a day-or-datetime and a `date`/`date-time` string must name a real day in
 *   the accepted calendar, 1970-01-01 .. 2199-12-31;
 * - numbers must be finite (`strictNumbers`: `Infinity` in a query string is refused);
 * - an object drops the fields it does not name (an unknown `ids=5` never reaches a repository filter).
 * Text with NUL or lone surrogates is refused for every part of every request by ./portable-input.ts.
 * The route's own schema object is left as it is, so the OpenAPI document shows what the route declares.
 */
import { deferred, memoized, schemaKey } from './compiled-schemas.js';
import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import { INT32_MAX, INT32_MIN, dayProblem, instantProblem } from '../../storage/portable-values.js';
import { DAY_PATTERN, MOMENT_PATTERN } from '../../core/schema.js';

const CALENDAR = 'x-calendar';
type CalendarKind = 'day' | 'moment';

/** Why a day or day-or-datetime string falls outside the accepted calendar, or null. */
export function calendarProblem(kind: CalendarKind, v: string): string | null {
  const day = dayProblem(v.slice(0, 10));
  if (day || kind === 'day' || v.length === 10) return day;
  return instantProblem(Date.parse(v), v);
}

function make(opts: Options): Ajv {
  const ajv = new Ajv({
    removeAdditional: true,
    useDefaults: true,
    allErrors: false,
    strict: false,
    strictNumbers: true,
    ...opts,
  });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  ajv.addKeyword({
    keyword: CALENDAR,
    type: 'string',
    errors: true,
    validate: function check(kind: CalendarKind, data: string) {
      const problem = calendarProblem(kind, data);
      if (problem)
        (check as unknown as { errors: unknown[] }).errors = [
          { keyword: CALENDAR, message: problem, params: { problem } },
        ];
      return problem === null;
    },
  });
  return ajv;
}

function calendarKind(s: Record<string, unknown>): CalendarKind | null {
  if (s.pattern === DAY_PATTERN || s.format === 'date') return 'day';
  if (s.pattern === MOMENT_PATTERN || s.format === 'date-time') return 'moment';
  return null;
}

const LITERAL_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'example']);

/** A copy of `schema` with the storage bounds added where the schema states none (see above). */
export function withStorageBounds(schema: unknown, isPropertyMap = false): unknown {
  if (Array.isArray(schema)) return schema.map((s) => withStorageBounds(s));
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    // Values of these keywords are data, not schemas; under `properties` every key names a schema.
    out[k] = !isPropertyMap && LITERAL_KEYWORDS.has(k) ? v : withStorageBounds(v, !isPropertyMap && k === 'properties');
  }
  if (isPropertyMap) return out;
  const types = Array.isArray(out.type) ? out.type : [out.type];
  // Fields a schema does not name are dropped (removeAdditional), never passed on to a service.
  if (out.properties && out.additionalProperties === undefined && out.patternProperties === undefined)
    out.additionalProperties = false;
  if (types.includes('integer')) {
    if (out.maximum === undefined && out.exclusiveMaximum === undefined) out.maximum = INT32_MAX;
    if (out.minimum === undefined && out.exclusiveMinimum === undefined) out.minimum = INT32_MIN;
  }
  if (types.includes('string')) {
    const kind = calendarKind(out);
    if (kind) out[CALENDAR] = kind;
  }
  return out;
}

interface AjvIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}
type Check = ((data: unknown) => boolean) & { errors?: AjvIssue[] | null };

/** The numeric fields of a query or path schema, with the type each must have. */
function numericFields(schema: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const props =
    (schema as { properties?: Record<string, { type?: unknown; items?: { type?: unknown } }> })?.properties ?? {};
  for (const [name, p] of Object.entries(props)) {
    const type = p.type === 'array' ? p.items?.type : p.type;
    if (type === 'integer' || type === 'number') out.set(name, type);
  }
  return out;
}

/**
 * Query text that is not a finite number (`Infinity`, `NaN`, `1e400`) for a numeric field: Ajv's
 * coercion turns it into null instead of refusing it, so it is refused here first.
 */
function refuseNonFinite(inner: Check, numeric: Map<string, string>): Check {
  if (numeric.size === 0) return inner;
  const check: Check = (data) => {
    for (const [name, type] of numeric) {
      const v = (data as Record<string, unknown> | null)?.[name];
      const bad = (Array.isArray(v) ? v : [v]).findIndex(
        (x) => typeof x === 'string' && x.trim() !== '' && !Number.isFinite(Number(x)),
      );
      if (bad !== -1) {
        check.errors = [
          { keyword: 'type', instancePath: Array.isArray(v) ? `/${name}/${bad}` : `/${name}`, params: { type } },
        ];
        return false;
      }
    }
    const ok = inner(data);
    check.errors = inner.errors;
    return ok;
  };
  return check;
}

let ajvs: { coercing: Ajv; strict: Ajv } | null = null;
const validators = new Map<string, unknown>();

/** Every app of the process shares the two Ajv instances and the validators (compiled-schemas.ts). */
export function validatorCompiler(): FastifySchemaCompiler<FastifySchema> {
  const { coercing, strict } = (ajvs ??= {
    coercing: make({ coerceTypes: 'array' }),
    strict: make({ coerceTypes: false }),
  });
  return ({ schema, httpPart }) => {
    const body = httpPart === 'body';
    return memoized(validators, schemaKey(body ? 'body' : 'coerced', schema), (): Check => {
      const compiled = deferred((): Check => {
        const bounded = withStorageBounds(schema) as object;
        if (body) return strict.compile(bounded) as Check;
        return refuseNonFinite(coercing.compile(bounded) as Check, numericFields(bounded));
      });
      const check: Check = (data) => {
        const inner = compiled();
        const ok = inner(data);
        check.errors = inner.errors;
        return ok;
      };
      return check;
    }) as never;
  };
}
