/**
 * JSON-schema (as the OpenAPI document carries it) to fast-check arbitraries: `valid` draws values the
 * schema accepts, biased to its edges (limits, max lengths, fixture ids); `broken` draws a value with one
 * thing wrong somewhere inside it (a bound crossed, a wrong type, a required field missing, a hostile
 * string, a date off the calendar, a raw JSON number), recursing into objects, arrays and anyOf.
 */
import fc from 'fast-check';
import {
  DATES,
  DATETIMES,
  EDGE_STRINGS,
  HUGE_NUMBERS,
  RAW_NUMBERS,
  edgeString,
  longString,
  recentDate,
  wrongJson,
} from './values.js';

export type Schema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  [k: string]: unknown;
};

const DATE_PATTERN = /\\d\{4\}-\\d\{2\}-\\d\{2\}/;
const isDate = (s: Schema) =>
  s.format === 'date' || (typeof s.pattern === 'string' && DATE_PATTERN.test(s.pattern) && !s.pattern.includes('T'));
const isDateTime = (s: Schema) =>
  s.format === 'date-time' ||
  (typeof s.pattern === 'string' && DATE_PATTERN.test(s.pattern) && s.pattern.includes('T'));

/** The branches of a schema: anyOf/oneOf alternatives, or a list of types split up. */
function branches(s: Schema): Schema[] {
  if (s.anyOf) return s.anyOf;
  if (s.oneOf) return s.oneOf;
  if (Array.isArray(s.type)) return s.type.map((type) => ({ ...s, type }));
  return [s];
}

const lo = (s: Schema) =>
  s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + (s.type === 'integer' ? 1 : 1e-6) : s.minimum;
const hi = (s: Schema) =>
  s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - (s.type === 'integer' ? 1 : 1e-6) : s.maximum;

/** Small ids first: the fixtures of a fresh database have ids 1, 2, 3. */
const idLike = (min: number, max: number) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: Math.max(min, 1), max: Math.min(Math.max(min, 1) + 3, max) }) },
    { weight: 1, arbitrary: fc.constantFrom(min, max) },
    { weight: 1, arbitrary: fc.integer({ min, max }) },
  );

export function valid(s: Schema, depth = 0): fc.Arbitrary<unknown> {
  if (s.allOf) return valid(Object.assign({}, ...s.allOf), depth);
  const bs = branches(s);
  if (bs.length > 1) return fc.oneof(...bs.map((b) => valid(b, depth)));
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  switch (s.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = lo(s) ?? -(2 ** 31);
      const max = hi(s) ?? 2 ** 31 - 1;
      return idLike(min, max);
    }
    case 'number': {
      const min = lo(s) ?? -1e6;
      const max = hi(s) ?? 1e6;
      return fc.oneof(fc.constantFrom(min, max), fc.double({ min, max, noNaN: true, noDefaultInfinity: true }));
    }
    case 'string':
      return validString(s);
    case 'array': {
      if (depth > 4) return fc.constant([]);
      const minLength = s.minItems ?? 0;
      const maxLength = Math.min(s.maxItems ?? 3, minLength + 3);
      return fc.array(valid(s.items ?? {}, depth + 1), { minLength, maxLength });
    }
    case 'object':
      return validObject(s, depth);
    default:
      return fc.oneof(fc.constant('x'), fc.integer({ min: 1, max: 3 }), fc.boolean());
  }
}

function validString(s: Schema): fc.Arbitrary<string> {
  if (isDate(s))
    return fc.oneof(
      fc.integer({ min: 1, max: 60 }).map(recentDate),
      fc.constantFrom('2024-02-29', '1970-01-01', '2199-12-31'),
    );
  if (isDateTime(s)) return fc.integer({ min: 1, max: 60 }).map((d) => `${recentDate(d)}T12:00:00Z`);
  if (s.format === 'uuid') return fc.uuid();
  if (s.format === 'email') return fc.constant('fuzz@example.com');
  if (s.format === 'uri' || s.format === 'url') return fc.constant('https://example.com/hook');
  if (s.pattern) {
    const max = s.maxLength ?? Infinity;
    const min = s.minLength ?? 0;
    return fc
      .stringMatching(new RegExp(s.pattern))
      .map((x) => (x.length > max ? x.slice(0, max) : x.length < min ? x.padEnd(min, x || 'a') : x));
  }
  const minLength = s.minLength ?? 0;
  const maxLength = s.maxLength ?? 64;
  // (Picked before, not filtered after: a filter no value passes never ends.)
  const fits = ['🚚💨', 'مرحبا', '100%'].filter((x) => x.length >= minLength && x.length <= maxLength);
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength, maxLength: Math.min(maxLength, minLength + 12) }) },
    { weight: 1, arbitrary: fc.constant(longString(Math.max(minLength, maxLength), 'é')) },
    ...(fits.length ? [{ weight: 1, arbitrary: fc.constantFrom(...fits) }] : []),
  );
}

function validObject(s: Schema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const props = s.properties ?? {};
  const required = new Set(s.required ?? []);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, v] of Object.entries(props)) model[k] = valid(v, depth + 1);
  if (!Object.keys(model).length) return fc.constant({});
  return fc.record(model, { requiredKeys: [...required].filter((k) => k in props) }) as fc.Arbitrary<
    Record<string, unknown>
  >;
}

/** Values outside a scalar schema: its bounds crossed and values of other kinds. */
export function badScalar(s: Schema): fc.Arbitrary<unknown> {
  const out: fc.Arbitrary<unknown>[] = [
    wrongJson,
    fc.constantFrom(...HUGE_NUMBERS),
    fc.constantFrom(...RAW_NUMBERS),
    edgeString(s.maxLength),
  ];
  const types = branches(s).map((b) => b.type);
  if (types.includes('integer') || types.includes('number')) {
    const just: number[] = [];
    for (const b of branches(s)) {
      const min = lo(b);
      const max = hi(b);
      if (min !== undefined) just.push(min - (b.type === 'integer' ? 1 : 0.001), min - 1e-9);
      if (max !== undefined) just.push(max + (b.type === 'integer' ? 1 : 0.001), max + 1e-9);
      if (b.type === 'integer') just.push(1.5);
    }
    if (just.length) out.push(fc.constantFrom(...just));
    out.push(fc.constantFrom('1', '1.5', 'Infinity', 'NaN', '-0'));
  }
  if (types.includes('string')) {
    for (const b of branches(s)) {
      if (b.maxLength !== undefined)
        out.push(fc.constant(longString(b.maxLength + 1)), fc.constant(longString(b.maxLength + 1, '🚚')));
      if (b.minLength) out.push(fc.constant(longString(b.minLength - 1)));
      if (b.enum)
        out.push(fc.constantFrom(...b.enum.map((e) => `${String(e).toUpperCase()} `), `${String(b.enum[0])}\u0000`));
      if (isDate(b)) out.push(fc.constantFrom(...DATES), fc.constantFrom(...DATETIMES));
      if (isDateTime(b)) out.push(fc.constantFrom(...DATETIMES), fc.constantFrom(...DATES));
      if (b.format === 'uuid')
        out.push(fc.constantFrom('00000000-0000-0000-0000-00000000000g', 'not-a-uuid', '\u0000'));
    }
    out.push(fc.constantFrom(...EDGE_STRINGS));
  }
  return fc.oneof(...out);
}

/**
 * A value of the schema with one defect, with a path naming where the defect is (for the report).
 * Objects: one property broken, or a required one left out, or an unknown one added; arrays: one item
 * broken, one too many or too few items; anything: a value of the wrong kind.
 */
export function broken(s: Schema, depth = 0): fc.Arbitrary<{ value: unknown; at: string }> {
  if (s.allOf) return broken(Object.assign({}, ...s.allOf), depth);
  const type = branches(s).find((b) => b.type === 'object' || b.type === 'array');
  const scalar = badScalar(s).map((value) => ({ value, at: '' }));
  if (!type || depth > 4) return scalar;
  if (type.type === 'array') {
    const item = type.items ?? {};
    const base = valid(type, depth) as fc.Arbitrary<unknown[]>;
    const options: fc.Arbitrary<{ value: unknown; at: string }>[] = [
      fc
        .tuple(base, broken(item, depth + 1))
        .map(([arr, bad]) => ({ value: [...arr, bad.value], at: `[${arr.length}]${bad.at}` })),
      scalar,
    ];
    if (type.maxItems !== undefined && type.maxItems <= 5000) {
      options.push(
        valid(item, depth + 1).map((v) => ({
          value: Array.from({ length: type.maxItems! + 1 }, () => v),
          at: `(${type.maxItems! + 1} items)`,
        })),
      );
    }
    if (type.minItems) options.push(fc.constant({ value: [], at: '(no items)' }));
    return fc.oneof(...options);
  }
  const props = Object.entries(type.properties ?? {});
  const required = (type.required ?? []).filter((k) => (type.properties ?? {})[k]);
  const base = validObject(type, depth);
  const options: fc.Arbitrary<{ value: unknown; at: string }>[] = [scalar];
  if (props.length) {
    options.push(
      fc
        .constantFrom(...props)
        .chain(([k, ps]) =>
          fc
            .tuple(base, broken(ps, depth + 1))
            .map(([obj, bad]) => ({ value: { ...obj, [k]: bad.value }, at: `.${k}${bad.at}` })),
        ),
    );
    options.push(
      fc
        .tuple(base, fc.constantFrom(...props))
        .map(([obj, [k]]) => ({ value: { ...obj, [k]: null }, at: `.${k} (null)` })),
    );
  }
  if (required.length) {
    options.push(
      fc.tuple(base, fc.constantFrom(...required)).map(([obj, k]) => {
        const { [k]: _gone, ...rest } = obj;
        return { value: rest, at: `.${k} (missing)` };
      }),
    );
  }
  options.push(
    base.map((obj) => ({
      value: { ...obj, __proto__x: 1, constructor: { prototype: { polluted: true } } },
      at: ' (unknown keys)',
    })),
  );
  return fc.oneof(...options);
}
