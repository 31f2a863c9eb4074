/**
 * Request bodies no schema describes: truncated and malformed JSON, bodies of the wrong media type,
 * multipart without a boundary, bad encodings, deep nesting and bodies over the size limit.
 */
import fc from 'fast-check';
import { gzipSync } from 'node:zlib';

export interface RawBody {
  payload: string | Buffer;
  headers: Record<string, string>;
  what: string;
}

const json = { 'content-type': 'application/json' };

const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
const deepObject = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;

const FIXED: RawBody[] = [
  { payload: '', headers: json, what: 'empty JSON body' },
  { payload: ' \n', headers: json, what: 'whitespace JSON body' },
  { payload: 'null', headers: json, what: 'JSON null' },
  { payload: '[]', headers: json, what: 'JSON array' },
  { payload: '"text"', headers: json, what: 'JSON string' },
  { payload: '1', headers: json, what: 'JSON number' },
  { payload: '{"a":1,}', headers: json, what: 'trailing comma' },
  { payload: "{'a':1}", headers: json, what: 'single quotes' },
  { payload: '{"a":NaN}', headers: json, what: 'NaN literal' },
  { payload: '{"a":Infinity}', headers: json, what: 'Infinity literal' },
  { payload: '\uFEFF{}', headers: json, what: 'byte order mark' },
  { payload: '{"__proto__":{"polluted":true}}', headers: json, what: '__proto__ key' },
  { payload: '{"constructor":{"prototype":{"polluted":true}}}', headers: json, what: 'constructor.prototype key' },
  { payload: '{"a":1,"a":2}', headers: json, what: 'duplicate keys' },
  { payload: '{"a":"\\ud800"}', headers: json, what: 'escaped lone surrogate' },
  { payload: '{"a":"\\u0000"}', headers: json, what: 'escaped NUL' },
  { payload: deep(5_000), headers: json, what: 'arrays nested 5000 deep' },
  { payload: deepObject(5_000), headers: json, what: 'objects nested 5000 deep' },
  { payload: deep(100_000), headers: json, what: 'arrays nested 100000 deep' },
  { payload: `{"a":"${'x'.repeat(1_100_000)}"}`, headers: json, what: 'body over 1 MiB' },
  {
    payload: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x22, 0x7d]),
    headers: json,
    what: 'invalid UTF-8 bytes',
  },
  {
    payload: Buffer.from('{"a":1}', 'utf16le'),
    headers: { 'content-type': 'application/json; charset=utf-16' },
    what: 'UTF-16 body',
  },
  { payload: '{}', headers: { 'content-type': 'application/json; charset=latin1' }, what: 'charset latin1' },
  { payload: '{}', headers: { 'content-type': 'APPLICATION/JSON' }, what: 'upper-case media type' },
  { payload: '{}', headers: { 'content-type': 'application/vnd.api+json' }, what: 'vendor JSON media type' },
  { payload: '{}', headers: { 'content-type': 'application/json, text/plain' }, what: 'two media types' },
  { payload: '{}', headers: { 'content-type': ';;;' }, what: 'garbage media type' },
  { payload: '{}', headers: { 'content-type': 'text/plain' }, what: 'text/plain' },
  { payload: '<a/>', headers: { 'content-type': 'application/xml' }, what: 'XML' },
  { payload: 'a=1&b=2', headers: { 'content-type': 'application/x-www-form-urlencoded' }, what: 'form body' },
  {
    payload: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n',
    headers: { 'content-type': 'multipart/form-data' },
    what: 'multipart without a boundary',
  },
  {
    payload: 'garbage',
    headers: { 'content-type': 'multipart/form-data; boundary=zzz' },
    what: 'multipart, body without its boundary',
  },
  {
    payload:
      '--x\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\r\n',
    headers: { 'content-type': 'multipart/form-data; boundary=x' },
    what: 'truncated multipart',
  },
  {
    payload: Buffer.from([0x1f, 0x8b, 0x08, 0, 1, 2, 3]),
    headers: { ...json, 'content-encoding': 'gzip' },
    what: 'corrupt gzip',
  },
  {
    payload: gzipSync(Buffer.from(deep(20_000))),
    headers: { ...json, 'content-encoding': 'gzip' },
    what: 'gzipped deep nesting',
  },
  {
    payload: gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20)),
    headers: { ...json, 'content-encoding': 'gzip' },
    what: 'gzip bomb (8 MiB of spaces)',
  },
  { payload: '{}', headers: { ...json, 'content-encoding': 'br' }, what: 'brotli encoding named' },
  { payload: '{}', headers: { ...json, 'content-encoding': 'gzip, gzip' }, what: 'two encodings' },
  {
    payload: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]),
    headers: { 'content-type': 'image/jpeg' },
    what: 'JPEG bytes',
  },
  { payload: '{}', headers: {}, what: 'no content type' },
];

/** A raw body: one of the fixed ones, or the JSON of a valid body cut short. */
export function rawBody(validJson?: fc.Arbitrary<string>): fc.Arbitrary<RawBody> {
  const fixed = fc.constantFrom(...FIXED);
  if (!validJson) return fixed;
  const truncated = fc
    .tuple(validJson, fc.double({ min: 0, max: 1, noNaN: true }))
    .map(([json, f]) => [json.length > 1 ? json : '{"a":1}', f] as const)
    .map(([text, f]) => ({
      payload: text.slice(0, Math.min(text.length - 1, Math.max(1, Math.floor(text.length * f)))),
      headers: json,
      what: 'truncated JSON',
    }));
  return fc.oneof({ weight: 3, arbitrary: fixed }, { weight: 1, arbitrary: truncated });
}
