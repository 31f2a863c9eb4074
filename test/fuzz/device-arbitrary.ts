/**
 * Requests of the device API (POST /device/v1/batches): batches of 1–4 records of every type
 * (./device-records.ts), most with one defect, plus defects of the batch as a whole, of the credential
 * and of the body. And requests of the OsmAnd listener: its parameters with bad values, by GET and POST.
 */
import fc from 'fast-check';
import { gzipSync } from 'node:zlib';
import { encode, type FuzzRequest } from './openapi-arbitrary.js';
import { rawBody } from './raw-bodies.js';
import { badScalar, broken } from './schema-arbitrary.js';
import { record, str } from './device-records.js';
import { DATES, DATETIMES, EDGE_STRINGS, NUMBER_TEXTS, toJson } from './values.js';

export function deviceRequests(device: { identifier: string; token: string }): fc.Arbitrary<FuzzRequest> {
  const auth = { authorization: `Bearer ${device.token}` };
  const req = (payload: string | Buffer, what: string, headers: Record<string, string> = {}): FuzzRequest => ({
    op: 'POST /device/v1/batches',
    method: 'POST',
    url: '/device/v1/batches',
    headers: { ...auth, 'content-type': 'application/json', ...headers },
    payload,
    what,
  });
  const records = fc.array(record, { minLength: 1, maxLength: 4 });
  const batch = fc.tuple(records, fc.option(fc.constant(device.identifier), { nil: undefined }));
  return fc.oneof(
    {
      weight: 12,
      arbitrary: batch.map(([rs, d]) =>
        req(toJson({ device: d, records: rs.map((r) => r.value) }), `records: ${rs.map((r) => r.at).join(', ')}`),
      ),
    },
    {
      weight: 1,
      arbitrary: batch.map(([rs]) =>
        req(
          gzipSync(toJson({ records: rs.map((r) => r.value) })),
          `gzipped records: ${rs.map((r) => r.at).join(', ')}`,
          { 'content-encoding': 'gzip' },
        ),
      ),
    },
    {
      weight: 1,
      // Records of at most 1 KiB: a thousand copies of one with a 100,000-character text would be more
      // text than a JavaScript string holds (and the body limit's case, not the count's).
      arbitrary: fc
        .tuple(
          record.filter((r) => toJson(r.value).length <= 1024),
          fc.constantFrom(0, 1001),
        )
        .map(([r, n]) => req(toJson({ records: Array.from({ length: n }, () => r.value) }), `${n} records`)),
    },
    {
      weight: 1,
      arbitrary: fc
        .oneof(
          fc.constantFrom(...EDGE_STRINGS, 'FUZZ-2', device.identifier.toLowerCase()),
          badScalar({ type: 'string', maxLength: 64 }),
        )
        .chain((d) => records.map((rs) => req(toJson({ device: d, records: rs.map((r) => r.value) }), 'device'))),
    },
    {
      weight: 1,
      arbitrary: broken({
        type: 'object',
        required: ['records'],
        properties: { device: str(64), records: { type: 'array', items: {}, minItems: 1, maxItems: 1000 } },
      }).map((b) => req(toJson(b.value), `batch${b.at || ' (whole)'}`)),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          '',
          'Bearer ',
          'Bearer fd_nope',
          `Bearer ${device.token}\u0000`,
          `Basic ${device.token}`,
          `bearer ${device.token}`,
        )
        .chain((a) =>
          records.map((rs) => ({
            ...req(toJson({ records: rs.map((r) => r.value) }), 'authorization'),
            headers: { 'content-type': 'application/json', authorization: a },
          })),
        ),
    },
    {
      weight: 2,
      arbitrary: rawBody().map((raw) => ({
        ...req(raw.payload, `raw body: ${raw.what}`),
        headers: { ...auth, ...raw.headers },
      })),
    },
  );
}

/** OsmAnd parameters: a good value of each, and the bad ones. */
const OSMAND_PARAMS: Record<string, { good: fc.Arbitrary<string>; bad: fc.Arbitrary<string> }> = {
  lat: {
    good: fc.double({ min: -89, max: 89, noNaN: true }).map(String),
    bad: fc.constantFrom(...NUMBER_TEXTS, '91', '-90.0000001', '0x10'),
  },
  lon: {
    good: fc.double({ min: -179, max: 179, noNaN: true }).map(String),
    bad: fc.constantFrom(...NUMBER_TEXTS, '181', '-180.0000001'),
  },
  timestamp: {
    good: fc
      .integer({ min: 60, max: 30 * 86_400 })
      .chain((s) =>
        fc.constantFrom(
          String(Math.floor(Date.now() / 1000) - s),
          String(Date.now() - s * 1000),
          new Date(Date.now() - s * 1000).toISOString(),
        ),
      ),
    bad: fc.constantFrom(
      ...DATES,
      ...DATETIMES,
      ...NUMBER_TEXTS,
      '-1',
      '99999999999999999',
      '2024-01-01 00:00:00',
      'yesterday',
    ),
  },
  speed: {
    good: fc.double({ min: 0, max: 200, noNaN: true }).map(String),
    bad: fc.constantFrom(...NUMBER_TEXTS, '216.1', '-1', '1e5'),
  },
  bearing: {
    good: fc.integer({ min: 0, max: 359 }).map(String),
    bad: fc.constantFrom(...NUMBER_TEXTS, '360', '720', '-1'),
  },
  altitude: { good: fc.integer({ min: -100, max: 3000 }).map(String), bad: fc.constantFrom(...NUMBER_TEXTS) },
  accuracy: { good: fc.integer({ min: 0, max: 100 }).map(String), bad: fc.constantFrom(...NUMBER_TEXTS, '-5') },
  batt: { good: fc.integer({ min: 0, max: 100 }).map(String), bad: fc.constantFrom(...NUMBER_TEXTS, '101', '-1') },
  location: {
    good: fc.constant('41.25,-95.99'),
    bad: fc.constantFrom('41.25', '91,0', 'a,b', '41.25,-95.99,1', ',', '1e400,0', 'NaN,NaN'),
  },
};

export function osmandRequests(identifier: string): fc.Arbitrary<FuzzRequest> {
  const names = Object.keys(OSMAND_PARAMS);
  const base = fc.record(
    Object.fromEntries(
      names.map((n) => [
        n,
        n === 'lat' || n === 'lon' ? OSMAND_PARAMS[n].good : fc.option(OSMAND_PARAMS[n].good, { nil: undefined }),
      ]),
    ),
  ) as fc.Arbitrary<Record<string, string | undefined>>;
  const idValue = fc.oneof(
    { weight: 6, arbitrary: fc.constant(identifier) },
    { weight: 1, arbitrary: fc.constantFrom(...EDGE_STRINGS, 'NO-SUCH') },
  );
  const bad = fc.constantFrom(...names).chain((n) => OSMAND_PARAMS[n].bad.map((v) => [n, v] as const));
  const edge = fc.constantFrom(...names).chain((n) => fc.constantFrom(...EDGE_STRINGS).map((v) => [n, v] as const));
  const qs = (p: Record<string, string | undefined>, raw: boolean) =>
    Object.entries(p)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${raw ? v : encode(v!)}`)
      .join('&');
  return fc
    .tuple(
      base,
      idValue,
      fc.oneof(bad, edge, fc.constant(null)),
      fc.constantFrom('GET', 'GET', 'POST-form', 'POST-json', 'PUT', 'HEAD'),
      fc.constantFrom('/', '/api/positions', '/%zz', '/\u00e9', '/a/b/c'),
      fc.boolean(),
      fc.constantFrom('id', 'deviceid'),
    )
    .map(([p, id, defect, how, path, raw, idName]): FuzzRequest => {
      const params: Record<string, string | undefined> = {
        [idName]: id,
        ...p,
        ...(defect ? { [defect[0]]: defect[1] } : {}),
      };
      const what = defect
        ? `${defect[0]}=${JSON.stringify(defect[1]).slice(0, 40)}`
        : id === identifier
          ? 'valid position'
          : `id=${JSON.stringify(id).slice(0, 40)}`;
      const safePath = path === '/\u00e9' ? '/%C3%A9' : path;
      if (how === 'POST-form')
        return {
          op: 'OsmAnd POST form',
          method: 'POST',
          url: safePath,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: qs(params, false),
          what,
        };
      if (how === 'POST-json') {
        const n = (v?: string) =>
          v === undefined ? undefined : Number.isFinite(Number(v)) && v.trim() !== '' ? Number(v) : v;
        const body = {
          device_id: params[idName],
          location: {
            timestamp: params.timestamp,
            coords: {
              latitude: n(params.lat),
              longitude: n(params.lon),
              speed: n(params.speed),
              heading: n(params.bearing),
              altitude: n(params.altitude),
              accuracy: n(params.accuracy),
            },
            battery: { level: n(params.batt) },
          },
        };
        return {
          op: 'OsmAnd POST json',
          method: 'POST',
          url: safePath,
          headers: { 'content-type': 'application/json' },
          payload: toJson(body),
          what,
        };
      }
      return { op: `OsmAnd ${how}`, method: how, url: `${safePath}?${qs(params, raw)}`, headers: {}, what };
    });
}
