/**
 * Requests of the device API (POST /device/v1/batches) built from the record types of
 * docs/device-protocol.md, written here as schemas so the same valid/broken arbitraries apply: batches
 * of 1–4 records, most with one defect, plus defects of the batch as a whole, of the credential and of
 * the body. And requests of the OsmAnd listener: its parameters with bad values, by GET and POST.
 */
import fc from 'fast-check';
import { gzipSync } from 'node:zlib';
import { encode, type FuzzRequest } from './openapi-arbitrary.js';
import { rawBody } from './raw-bodies.js';
import { badScalar, broken, valid, type Schema } from './schema-arbitrary.js';
import { DATES, DATETIMES, EDGE_STRINGS, NUMBER_TEXTS, toJson } from './values.js';

const num = (minimum?: number, maximum?: number): Schema => ({ type: 'number', minimum, maximum });
const int = (minimum: number, maximum: number): Schema => ({ type: 'integer', minimum, maximum });
const str = (maxLength: number, extra: Schema = {}): Schema => ({ type: 'string', maxLength, ...extra });
const oneOf = (...values: string[]): Schema => ({ type: 'string', enum: values });
const obj = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  type: 'object',
  properties,
  required,
});

const position = { lat: num(-90, 90), lon: num(-180, 180) };
const counters = {
  speed_kph: num(0, 400),
  bearing_deg: num(0, 360),
  altitude_m: num(-1000, 10000),
  accuracy_m: num(0, 10000),
  odometer_km: num(0, 5e6),
  engine_hours: num(0, 1e6),
  fuel_used_l: num(0, 1e7),
  fuel_level_pct: num(0, 100),
  battery_v: num(0, 60),
  battery_pct: num(0, 100),
  ignition: { type: 'boolean' },
  pto: { type: 'boolean' },
} satisfies Record<string, Schema>;

/** The record types, without seq/type/time (added by `record`). Driver ids 1–3 are the fixtures' users. */
export const RECORD_TYPES: Record<string, Schema> = {
  location: obj({ ...position, ...counters }, ['lat', 'lon']),
  engine: obj({ state: oneOf('on', 'off'), ...position, ...counters }, ['state']),
  driver: obj({ action: oneOf('login', 'logout'), driver_id: int(1, 2147483647) }, ['action']),
  fault: obj({
    protocol: oneOf('j1939', 'obd2', 'j1708'),
    spn: int(0, 524287),
    fmi: int(0, 31),
    source_address: int(0, 255),
    occurrence_count: int(0, 127),
    code: str(16, { pattern: '^[PCBU][0-3][0-9A-F]{3}$' }),
    mid: int(0, 255),
    pid: int(0, 511),
    sid: int(0, 255),
    status: oneOf('active', 'cleared'),
    lamps: obj({
      mil: { type: 'boolean' },
      red_stop: { type: 'boolean' },
      amber_warning: { type: 'boolean' },
      protect: { type: 'boolean' },
    }),
  }),
  acceleration: obj({
    longitudinal_g: num(-5, 5),
    lateral_g: num(-5, 5),
    duration_ms: int(0, 60000),
    speed_kph: num(0, 400),
    end_speed_kph: num(0, 400),
    ...position,
    bearing_deg: num(0, 360),
  }),
  power: obj({ state: oneOf('disconnected', 'connected'), ...position }, ['state']),
  duty_status: obj(
    {
      driver_id: int(1, 2147483647),
      status: oneOf('off_duty', 'sleeper', 'driving', 'on_duty', 'personal_conveyance', 'yard_move', 'waiting'),
      note: str(60),
      ...position,
    },
    ['driver_id', 'status'],
  ),
  inspection: obj({
    driver_id: int(1, 2147483647),
    inspection_type: oneOf('pre_trip', 'post_trip', 'other'),
    odometer: num(0, 5e6),
    carrier_name: str(255),
    trailer_nums: { type: 'array', items: str(64), maxItems: 20 },
    location: str(255),
    city: str(128),
    state: str(64),
    defects: {
      type: 'array',
      items: obj({ area: str(64), category: str(128), notes: str(2000) }, ['area', 'category']),
      maxItems: 200,
    },
    driver_signed_at: { type: 'string', format: 'date-time' },
    log_id: int(1, 2147483647),
  }),
  form_entry: obj(
    {
      form_id: { anyOf: [str(255, { minLength: 1 }), int(1, 2147483647)] },
      driver_id: int(1, 2147483647),
      entry: obj({ a: str(64) }),
      dispatch_id: int(1, 2147483647),
      vendor_dispatch_id: str(255, { minLength: 1 }),
      vendor_stop_id: str(255, { minLength: 1 }),
    },
    ['form_id'],
  ),
};

const SEQ: Schema = int(0, 2 ** 53 - 1);
/** A record time the server accepts: 1 minute to 30 days ago, as ISO text or epoch milliseconds. */
const goodTime = fc
  .integer({ min: 60, max: 30 * 86_400 })
  .chain((s) =>
    fc.constantFrom(
      new Date(Date.now() - s * 1000).toISOString(),
      Date.now() - s * 1000,
      new Date(Date.now() - s * 1000).toISOString().replace('Z', '+05:45'),
    ),
  );
const badTime = fc.oneof(
  fc.constantFrom(...DATETIMES, ...DATES),
  badScalar({ type: 'integer', minimum: 0 }),
  fc.constantFrom(
    Date.now() + 3_600_000,
    Date.now() - 500 * 86_400_000,
    new Date(Date.now() + 3_600_000).toISOString(),
  ),
);

type Rec = { value: Record<string, unknown>; at: string };

/** One record: valid, or with one defect in its fields, its seq, its time or its type. */
const record: fc.Arbitrary<Rec> = fc.constantFrom(...Object.keys(RECORD_TYPES)).chain((type) => {
  const schema = RECORD_TYPES[type];
  const seq = fc.integer({ min: 1000, max: 2 ** 48 });
  const ok = fc
    .tuple(valid(schema), seq, goodTime)
    .map(([v, s, time]) => ({ value: { ...(v as object), seq: s, type, time }, at: `${type} (valid)` }));
  return fc.oneof(
    { weight: 2, arbitrary: ok },
    {
      weight: 6,
      arbitrary: fc.tuple(broken(schema), seq, goodTime).map(([b, s, time]) => ({
        value: { ...(b.value as object), seq: s, type, time },
        at: `${type}${b.at || ' (whole)'}`,
      })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(ok, badScalar(SEQ)).map(([r, s]) => ({ value: { ...r.value, seq: s }, at: `${type}.seq` })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(ok, badTime).map(([r, time]) => ({ value: { ...r.value, time }, at: `${type}.time` })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(ok, fc.constantFrom(...EDGE_STRINGS, 'LOCATION', 'location '))
        .map(([r, t]) => ({ value: { ...r.value, type: t }, at: 'type' })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(ok, fc.constantFrom('seq', 'type', 'time')).map(([r, k]) => ({
        value: Object.fromEntries(Object.entries(r.value).filter(([x]) => x !== k)),
        at: `${type}.${k} (missing)`,
      })),
    },
  );
});

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
      arbitrary: fc
        .tuple(record, fc.constantFrom(0, 1001))
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
