/**
 * Every operation of the OpenAPI document, and for each a fast-check arbitrary of requests with one
 * defect: a query or path parameter out of its schema, a JSON body broken somewhere inside, a raw
 * malformed body, or a hostile header. A route added to the document is fuzzed with no new test code.
 */
import fc from 'fast-check';
import { rawBody } from './raw-bodies.js';
import { broken, badScalar, valid, type Schema } from './schema-arbitrary.js';
import { EDGE_STRINGS, NUMBER_TEXTS, RawJson, toJson } from './values.js';

/**
 * Operations of the document that are not fuzzed, and why. (Routes hidden from the document — the
 * OAuth browser pages and token endpoint, the console — are not in it at all: they answer HTML or the
 * RFC 6749 error form, not `{"error_message"}`.)
 */
export const SKIPPED: Record<string, string> = {
  // Nothing is skipped today: every documented operation answers JSON errors. Add entries as
  // 'METHOD /path': 'reason'.
};

export interface Operation {
  key: string;
  method: string;
  path: string;
  query: Array<{ name: string; schema: Schema; required: boolean }>;
  pathParams: Array<{ name: string; schema: Schema }>;
  body?: Schema;
}

export interface FuzzRequest {
  op: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  what: string;
}

type OpenApi = { paths: Record<string, Record<string, any>> };

export function operations(doc: OpenApi, only?: RegExp): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const op = item[method];
      if (!op) continue;
      const key = `${method.toUpperCase()} ${path}`;
      if (key in SKIPPED || (only && !only.test(key))) continue;
      const params: any[] = [...(item.parameters ?? []), ...(op.parameters ?? [])];
      out.push({
        key,
        method: method.toUpperCase(),
        path,
        query: params
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, schema: p.schema ?? {}, required: !!p.required })),
        pathParams: params.filter((p) => p.in === 'path').map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        body: op.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
  return out;
}

/** Percent-encoding that also writes lone surrogates (as the UTF-8 bytes of the code unit, invalid UTF-8). */
export function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    let out = '';
    for (const ch of text) {
      const c = ch.codePointAt(0)!;
      if (c >= 0xd800 && c <= 0xdfff)
        out +=
          `%${(0xe0 | (c >> 12)).toString(16)}%${(0x80 | ((c >> 6) & 63)).toString(16)}%${(0x80 | (c & 63)).toString(16)}`.toUpperCase();
      else out += encodeURIComponent(ch);
    }
    return out;
  }
}

/** Text of a value in a URL: numbers as JavaScript writes them, raw JSON literals verbatim. */
const text = (v: unknown): string =>
  v instanceof RawJson
    ? v.text
    : typeof v === 'string'
      ? v
      : v === null || v === undefined
        ? ''
        : typeof v === 'object'
          ? JSON.stringify(v)
          : String(v);

/** `name=value` pairs of one query parameter; arrays as `name[]=` (or repeated names), objects as `name[key]=`. */
function queryPairs(name: string, value: unknown, style: number, rawPercent: boolean): string[] {
  const enc = (s: string) => (rawPercent && /%/.test(s) ? s : encode(s));
  if (Array.isArray(value)) {
    if (!value.length) return [`${name}[]=`];
    return value.map((v, i) => `${name}${style === 0 ? '[]' : style === 1 ? '' : `[${i}]`}=${enc(text(v))}`);
  }
  if (value && typeof value === 'object' && !(value instanceof RawJson))
    return Object.entries(value).map(([k, v]) => `${name}[${encode(k)}]=${enc(text(v))}`);
  return [`${name}=${enc(text(value))}`];
}

/** A query parameter's bad value: the schema's, or a number-ish text, or an edge string. */
function badQuery(schema: Schema): fc.Arbitrary<unknown> {
  const items = schema.type === 'array' ? (schema.items ?? {}) : undefined;
  const scalar = fc.oneof(
    badScalar(items ?? schema),
    fc.constantFrom(...NUMBER_TEXTS),
    fc.constantFrom(...EDGE_STRINGS),
  );
  if (!items)
    return fc.oneof(
      { weight: 5, arbitrary: scalar },
      { weight: 1, arbitrary: fc.array(scalar, { minLength: 2, maxLength: 3 }) },
      { weight: 1, arbitrary: fc.constant({ x: '1' }) },
    );
  return fc.oneof(
    fc.tuple(valid(schema) as fc.Arbitrary<unknown[]>, scalar).map(([arr, bad]) => [...arr, bad]),
    fc.constant(Array.from({ length: (schema.maxItems ?? 10_000) + 1 }, (_, i) => i + 1)),
    scalar,
    fc.constant({ x: '1' }),
  );
}

const BAD_HEADERS: Array<[string, string]> = [
  ['x-api-key', ''],
  ['x-api-key', 'fk_nope'],
  ['x-api-key', 'x'.repeat(10_000)],
  ['x-api-key', '%00'],
  ['authorization', 'Bearer '],
  ['authorization', 'Bearer fk_nope'],
  ['authorization', 'Basic Zm9vOmJhcg=='],
  ['authorization', 'Bearer fd_nope'],
  ['x-user-id', '0'],
  ['x-user-id', '-1'],
  ['x-user-id', '2147483648'],
  ['x-user-id', '99999999999999999999'],
  ['x-user-id', 'abc'],
  ['x-user-id', '1'],
  ['x-user-id', '2'],
  ['x-time-zone', 'Mars/Olympus'],
  ['x-time-zone', ''],
  ['x-time-zone', 'Pacific/Kiritimati'],
  ['x-time-zone', 'Etc/GMT+12'],
  ['x-time-zone', 'Eastern Time (US & Canada)'],
  ['x-time-zone', '+14:00'],
  ['x-time-zone', 'x'.repeat(5_000)],
  ['x-time-zone', '../../../etc/localtime'],
  ['accept', 'application/xml'],
  ['accept-encoding', 'gzip;q=abc'],
  ['if-none-match', '"x"'.repeat(1_000)],
];

/** Requests for one operation, each with one defect (or none: a schema-valid request at the edges). */
export function requestsFor(op: Operation, auth: Record<string, string>): fc.Arbitrary<FuzzRequest> {
  const baseQuery = fc.record(
    Object.fromEntries(
      op.query.map((q) => [
        q.name,
        q.required ? valid(q.schema) : fc.option(valid(q.schema), { freq: 3, nil: undefined }),
      ]),
    ),
  ) as fc.Arbitrary<Record<string, unknown>>;
  const basePath = fc.record(Object.fromEntries(op.pathParams.map((p) => [p.name, valid(p.schema)]))) as fc.Arbitrary<
    Record<string, unknown>
  >;
  const baseBody = op.body ? valid(op.body) : fc.constant(undefined);
  const style = fc.integer({ min: 0, max: 2 });

  const build = (
    q: Record<string, unknown>,
    p: Record<string, unknown>,
    body: unknown,
    s: number,
    what: string,
    opts: {
      rawPercent?: string;
      headers?: Record<string, string>;
      raw?: { payload: string | Buffer; headers: Record<string, string> };
    } = {},
  ): FuzzRequest => {
    const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) =>
      opts.rawPercent === name ? text(p[name]) : encode(text(p[name])),
    );
    const pairs = Object.entries(q)
      .filter(([, v]) => v !== undefined)
      .flatMap(([k, v]) => queryPairs(k, v, s, opts.rawPercent === `?${k}`));
    const url = pairs.length ? `${path}?${pairs.join('&')}` : path;
    const headers: Record<string, string> = { ...auth, ...(opts.headers ?? {}) };
    let payload: string | Buffer | undefined;
    if (opts.raw) {
      payload = opts.raw.payload;
      Object.assign(headers, opts.raw.headers);
    } else if (body !== undefined) {
      payload = toJson(body);
      headers['content-type'] = 'application/json';
    }
    return { op: op.key, method: op.method, url, headers, payload, what };
  };

  const choices: Array<{ weight: number; arbitrary: fc.Arbitrary<FuzzRequest> }> = [];
  choices.push({
    weight: 4,
    arbitrary: fc
      .tuple(baseQuery, basePath, baseBody, style)
      .map(([q, p, b, s]) => build(q, p, b, s, 'schema-valid request')),
  });
  for (const qp of op.query) {
    choices.push({
      weight: Math.max(1, Math.round(12 / op.query.length)),
      arbitrary: fc
        .tuple(baseQuery, basePath, baseBody, style, badQuery(qp.schema), fc.boolean())
        .map(([q, p, b, s, bad, raw]) =>
          build({ ...q, [qp.name]: bad }, p, b, s, `query ${qp.name}`, { rawPercent: raw ? `?${qp.name}` : undefined }),
        ),
    });
  }
  const required = op.query.filter((q) => q.required);
  if (required.length) {
    choices.push({
      weight: 2,
      arbitrary: fc
        .tuple(baseQuery, basePath, baseBody, style, fc.constantFrom(...required))
        .map(([q, p, b, s, gone]) => build({ ...q, [gone.name]: undefined }, p, b, s, `query ${gone.name} missing`)),
    });
  }
  for (const pp of op.pathParams) {
    choices.push({
      weight: 6,
      arbitrary: fc
        .tuple(
          baseQuery,
          basePath,
          baseBody,
          style,
          fc.oneof(badScalar(pp.schema), fc.constantFrom(...NUMBER_TEXTS)),
          fc.boolean(),
        )
        .map(([q, p, b, s, bad, raw]) =>
          build(q, { ...p, [pp.name]: bad }, b, s, `path ${pp.name}`, { rawPercent: raw ? pp.name : undefined }),
        ),
    });
  }
  if (op.body) {
    choices.push({
      weight: 20,
      arbitrary: fc
        .tuple(baseQuery, basePath, broken(op.body), style)
        .map(([q, p, bad, s]) => build(q, p, bad.value, s, `body${bad.at || ' (whole)'}`)),
    });
  }
  choices.push({
    weight: op.body ? 6 : 2,
    arbitrary: fc
      .tuple(baseQuery, basePath, rawBody(op.body ? baseBody.map((b) => toJson(b)) : undefined), style)
      .map(([q, p, raw, s]) => build(q, p, undefined, s, `raw body: ${raw.what}`, { raw })),
  });
  choices.push({
    weight: 2,
    arbitrary: fc
      .tuple(baseQuery, basePath, baseBody, style, fc.constantFrom(...BAD_HEADERS))
      .map(([q, p, b, s, [name, value]]) => {
        const headers = name === 'authorization' ? { 'x-api-key': '', authorization: value } : { [name]: value };
        return build(q, p, b, s, `header ${name}`, { headers });
      }),
  });
  choices.push({
    weight: 2,
    arbitrary: fc
      .tuple(
        baseQuery,
        basePath,
        baseBody,
        style,
        fc.constantFrom('__proto__', 'constructor', 'per_page', 'x'.repeat(300), '%zz', 'a[b][c][d][e]'),
        fc.constantFrom(...NUMBER_TEXTS, ...EDGE_STRINGS),
      )
      .map(([q, p, b, s, name, v]) => {
        const r = build(q, p, b, s, `extra query ${name.slice(0, 20)}`);
        return {
          ...r,
          url: `${r.url}${r.url.includes('?') ? '&' : '?'}${name === '%zz' ? name : encode(name)}=${encode(v)}`,
        };
      }),
  });
  return fc.oneof(...choices);
}

/** Requests across every operation (each operation equally likely). */
export function apiRequests(ops: Operation[], auth: Record<string, string>): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(...ops.map((op) => requestsFor(op, auth)));
}
