/**
 * The OsmAnd protocol as Traccar speaks it (phone tracking apps): one position per request, GET or
 * POST, as query or form parameters — `id` (or `deviceid`), `lat`, `lon` (or `location=lat,lon`),
 * `timestamp` (Unix seconds or milliseconds, or ISO-8601), `speed` in knots, `bearing` (or `heading`),
 * `altitude`, `accuracy`, `batt` (battery %) — or the Traccar Client's JSON body
 * (`{device_id, location: {timestamp, coords: {latitude, longitude, speed, heading, altitude, accuracy}, battery: {level}}}`).
 * `id` is the identifier of a provisioned device (no credential: the protocol has none, which is why
 * the listener is off unless OSMAND_PORT is set). Each position is stored as a location record on
 * channel 1 with seq = its fix time in milliseconds, so a re-sent position is a duplicate. Answers:
 * 200 (stored or duplicate), 400 (bad position, or a parameter with text the databases disagree on — a
 * NUL, a lone surrogate —, with the reason as text), 404 (unknown device), 405
 * (another method than GET or POST, HEAD and OPTIONS included, with `Allow: GET, POST`): all plain text.
 */
import Fastify, { type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { deviceByIdentifier } from '../domain/devices/service.js';
import { KPH_PER_KNOT } from './units.js';
import { unportableIn } from './records.js';
import { isoTextMs } from './record-fields.js';
import type { Telemetry } from './store/runner.js';
import type { BatchCounts, DeviceRequestLogger } from '../ops/request-log.js';

export interface OsmandServer {
  url: string;
  close(): Promise<void>;
}

type Params = Record<string, unknown>;

const str = (v: unknown): string | undefined =>
  Array.isArray(v) ? str(v[0]) : v === undefined || v === null ? undefined : String(v);

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
/** The latest instant a Date can hold, ms. */
const MAX_TIME = 8.64e15;
/** The protocol's speed limit in knots: the device protocol's 400 km/h. */
const MAX_KNOTS = 400 / KPH_PER_KNOT;
/** The same in m/s (the Traccar Client's JSON body). */
const MAX_MPS = 400 / 3.6;

function num(p: Params, ...names: string[]): number | undefined {
  for (const n of names) {
    const s = str(p[n]);
    if (s === undefined || s.trim() === '') continue;
    // Decimal only: Number() would also read "0x10" as 16 and "" or " " as 0.
    if (!DECIMAL.test(s.trim())) throw new Error(`${n} must be a decimal number, got "${s}"`);
    return Number(s);
  }
  return undefined;
}

/** Unix seconds, milliseconds, or a date-time text → epoch ms. */
export function osmandTime(raw: string | undefined, nowMs: number): number {
  if (raw === undefined || raw.trim() === '') return nowMs;
  const s = raw.trim();
  // A negative number is a time before 1970, never a date text ("-5" would parse as a year).
  const t = /^-\d+(\.\d+)?$/.test(s)
    ? -1
    : /^\d+(\.\d+)?$/.test(s)
      ? Math.round(Number(s) > 1e11 ? Number(s) : Number(s) * 1000)
      : // ISO-8601 as the device protocol reads it (a date that does not exist is refused, not rolled
        // over), with a space allowed for the T and UTC when no zone is given.
        isoTextMs(/[zZ]$|[+-]\d\d:?\d\d$/.test(s) ? s.replace(' ', 'T') : `${s.replace(' ', 'T')}Z`);
  // Before 1970 or past the last representable date: no position of a real phone.
  if (!(t >= 0 && t <= MAX_TIME))
    throw new Error(
      `timestamp must be Unix seconds or milliseconds, or an ISO-8601 date-time from 1970 on, got "${s}"`,
    );
  return t;
}

/** The position of one request as a device-protocol location record, and the device identifier. */
export function osmandRecord(
  query: Params,
  body: unknown,
  nowMs: number,
): { id: string; record: Record<string, unknown> } {
  // Every parameter, read or not: text one database stores and the other refuses (a NUL, a lone
  // surrogate) is a 400 naming it, before the device is looked up.
  const unportable =
    unportableIn(query, 'a parameter name') ??
    (body && typeof body === 'object' ? unportableIn(body as Params, 'a key of the body') : null);
  if (unportable) throw new Error(unportable);
  let p: Params = { ...query };
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const b = body as Params;
    const loc = b.location as Params | undefined;
    if (loc && typeof loc === 'object') {
      const c = (loc.coords ?? {}) as Params;
      const battery = (loc.battery ?? {}) as Params;
      p = {
        ...p,
        id: b.device_id ?? p.id,
        lat: c.latitude,
        lon: c.longitude,
        timestamp: loc.timestamp,
        speed: undefined,
        speed_mps: c.speed,
        bearing: c.heading,
        altitude: c.altitude,
        accuracy: c.accuracy,
        batt: typeof battery.level === 'number' && battery.level >= 0 ? battery.level * 100 : undefined,
      };
    } else p = { ...p, ...b };
  }
  const id = str(p.id) ?? str(p.deviceid);
  if (!id || !id.trim()) throw new Error('id is required (the identifier of a provisioned device)');
  let lat = num(p, 'lat');
  let lon = num(p, 'lon');
  const location = str(p.location);
  if ((lat === undefined || lon === undefined) && location) {
    const parts = location.split(',').map((x) => x.trim());
    if (parts.length !== 2 || !parts.every((x) => DECIMAL.test(x)))
      throw new Error(`location must be "lat,lon" in decimal degrees, got "${location}"`);
    [lat, lon] = parts.map(Number);
  }
  if (lat === undefined || lon === undefined) throw new Error('lat and lon are required');
  const t = osmandTime(str(p.timestamp), nowMs);
  const knots = num(p, 'speed');
  const mps = num(p, 'speed_mps');
  const record: Record<string, unknown> = { seq: t, type: 'location', time: t, lat, lon };
  if (knots !== undefined && knots > MAX_KNOTS)
    throw new Error(`speed must be at most ${MAX_KNOTS.toFixed(1)} knots, got ${knots}`);
  // Negative: the app does not know (iOS reports -1 m/s); left out, as for the JSON body.
  if (knots !== undefined && knots >= 0) record.speed_kph = knots * KPH_PER_KNOT;
  else if (mps !== undefined && mps > MAX_MPS)
    throw new Error(`speed must be at most ${MAX_MPS.toFixed(1)} m/s, got ${mps}`);
  else if (mps !== undefined && mps >= 0) record.speed_kph = mps * 3.6;
  const bearing = num(p, 'bearing', 'heading');
  if (bearing !== undefined && bearing >= 0) record.bearing_deg = bearing % 360;
  const altitude = num(p, 'altitude');
  if (altitude !== undefined) record.altitude_m = altitude;
  const accuracy = num(p, 'accuracy');
  if (accuracy !== undefined && accuracy >= 0) record.accuracy_m = accuracy;
  const batt = num(p, 'batt');
  // Negative: the app does not know (Traccar Client sends level -1).
  if (batt !== undefined && batt >= 0) record.battery_pct = Math.min(100, batt);
  return { id: id.trim(), record };
}

/** A record rejection in the protocol's own names (the record says `time`, the phone sent `timestamp`). */
const NAMES: Array<[RegExp, string]> = [
  [/^time\b/, 'timestamp'],
  [/^altitude_m\b/, 'altitude'],
  [/^accuracy_m\b/, 'accuracy'],
  [/^bearing_deg\b/, 'bearing'],
];
export function osmandMessage(m: string): string {
  for (const [re, name] of NAMES) if (re.test(m)) return m.replace(re, name);
  return m;
}

/** The protocol's methods; any other is answered 405. */
const ALLOWED = ['GET', 'POST'];

/**
 * Requests Node's HTTP parser refuses before Fastify sees them — a method it does not know, a malformed
 * request line, headers too large, too slow — answered in text as well (Fastify's default is JSON).
 */
function clientError(err: Error & { code?: string }, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, text, allow] =
    err.code === 'HPE_INVALID_METHOD'
      ? [405, 'unknown method: send positions with GET or POST', `Allow: ${ALLOWED.join(', ')}\r\n`]
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request timeout', '']
        : err.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'request headers too large', '']
          : [400, 'bad request', ''];
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${allow}Content-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(err);
}

/** `requests` logs each request (at debug level) and counts it in the app's device traffic (src/ops/request-log.ts). */
export async function startOsmand(
  telemetry: Telemetry,
  opts: { host: string; port: number; log?: FastifyBaseLogger; requests?: DeviceRequestLogger },
): Promise<OsmandServer> {
  // No implicit HEAD routes: a HEAD would run the GET handler and store a position.
  const app = Fastify({
    logger: false,
    bodyLimit: 65_536,
    exposeHeadRoutes: false,
    clientErrorHandler: clientError,
    // A path that cannot be decoded (`/%zz`), refused before routing (the only framework error without route constraints).
    frameworkErrors: (_err, _req, reply) =>
      void (reply as FastifyReply).code(400).type('text/plain').send('the path is not valid percent-encoding'),
  });
  await app.register(formbody);
  // A body of another type (apps send their query with whatever Content-Type) is read and ignored:
  // the position is in the query string. Its size still counts (413 past the limit).
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, _body, done) => done(null, undefined));
  // Before the body is read or parsed, so that a PUT with a JSON body is refused for its method, not its body.
  const stored = new WeakMap<FastifyRequest, BatchCounts>();
  const logRequest = opts.requests;
  if (logRequest) {
    app.addHook('onResponse', (req, reply, done) => {
      logRequest(req, reply.statusCode, reply.elapsedTime, stored.get(req));
      done();
    });
  }
  app.addHook('onRequest', async (req, reply) => {
    if (ALLOWED.includes(req.method)) return;
    return reply
      .code(405)
      .header('allow', ALLOWED.join(', '))
      .type('text/plain')
      .send(`method ${req.method} not allowed: send positions with GET or POST`);
  });
  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    let parsed: ReturnType<typeof osmandRecord>;
    try {
      parsed = osmandRecord((req.query ?? {}) as Params, req.body, Date.now());
    } catch (err) {
      return reply
        .code(400)
        .type('text/plain')
        .send((err as Error).message);
    }
    const device = await deviceByIdentifier(telemetry.db, parsed.id);
    // One answer for unknown and revoked: the protocol has no credential, so telling them apart would
    // let anyone list the revoked serials.
    if (!device)
      return reply
        .code(404)
        .type('text/plain')
        .send(`device ${parsed.id} not found (no active device has this identifier; a revoked one needs a new device)`);
    const out = await telemetry.ingest(device, 1, [parsed.record]);
    stored.set(req, out);
    const r = out.results[0];
    if (r.status === 'rejected')
      return reply
        .code(400)
        .type('text/plain')
        .send(osmandMessage(r.error_message ?? 'rejected'));
    return reply.code(200).send();
  };
  // Every answer is text, Fastify's own errors (a body that is not valid JSON, …) included.
  app.setErrorHandler((err: { statusCode?: number; message: string }, _req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) opts.log?.error({ err }, 'OsmAnd request failed');
    return reply
      .code(status)
      .type('text/plain')
      .send(status === 500 ? 'internal server error' : err.message);
  });
  // Every path takes positions (apps and proxies put their own before the query), so no path is unknown.
  app.route({ method: ALLOWED, url: '/', handler });
  app.route({ method: ALLOWED, url: '/*', handler });
  try {
    await app.listen({ host: opts.host, port: opts.port });
  } catch (err) {
    await app.close();
    throw new Error(`OSMAND_PORT ${opts.port}: the OsmAnd listener cannot start (${(err as Error).message})`);
  }
  const addr = app.server.address();
  const port = addr && typeof addr === 'object' ? addr.port : opts.port;
  opts.log?.info(`OsmAnd protocol listening on http://${opts.host}:${port}`);
  return { url: `http://${opts.host}:${port}`, close: () => app.close() };
}
