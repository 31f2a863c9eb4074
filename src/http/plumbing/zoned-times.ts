/**
 * X-Time-Zone on the way out (docs/reference/wire.md §2.3: "all times are in UTC unless this header is sent"):
 * with the header naming a zone other than UTC, every datetime of a JSON answer is written in that
 * zone with its numeric offset, `2016-02-23T22:26:00-08:00` for `2016-02-24T06:26:00Z` in Pacific
 * time, the same instant. Without the header, with `UTC` or with an unknown zone, the answer is
 * untouched.
 *
 * Done once, on the serialized body: every route, the read cache's bodies and the location history
 * (written as text) are covered alike, and the wire mappers and stored snapshots stay in UTC.
 * A datetime is a whole JSON string of the form `YYYY-MM-DDTHH:MM:SS[.fff]Z`; dates without a time,
 * datetimes inside longer strings (messages, escaped JSON of the delivery log) and webhook deliveries
 * (no request) are left as they are.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requestTimeZone, zoneOffsetMs } from '../../core/time-zone.js';

const UTC_DATETIME = /"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d{1,9})?Z"/g;
/** Offsets change at whole quarter hours (DST and zone changes): one look-up per quarter hour. */
const QUARTER_HOUR_MS = 900_000;

const two = (n: number) => String(n).padStart(2, '0');

function offsetText(ms: number): string {
  const minutes = Math.round(Math.abs(ms) / 60_000);
  return `${ms < 0 ? '-' : '+'}${two(Math.floor(minutes / 60))}:${two(minutes % 60)}`;
}

/** The body with each UTC datetime string written in `zone` with its offset. */
export function zonedTimes(body: string, zone: string): string {
  const offsets = new Map<number, number>();
  return body.replace(UTC_DATETIME, (whole, time: string, fraction: string | undefined) => {
    const ms = Date.parse(`${time}Z`);
    if (Number.isNaN(ms)) return whole;
    const quarter = Math.floor(ms / QUARTER_HOUR_MS);
    let offset = offsets.get(quarter);
    if (offset === undefined) {
      offset = zoneOffsetMs(zone, ms);
      offsets.set(quarter, offset);
    }
    return `"${new Date(ms + offset).toISOString().slice(0, 19)}${fraction ?? ''}${offsetText(offset)}"`;
  });
}

/**
 * The zone this request's JSON answer writes its datetimes in, or null to leave them in UTC (no
 * X-Time-Zone, `UTC`, or a zone not known). An answer sent as a stream is not seen by the hook below:
 * its route applies zonedTimes to each piece (every piece holds whole datetime strings).
 */
export function answerZone(req: FastifyRequest): string | null {
  if (!req.headers['x-time-zone']) return null;
  const zone = requestTimeZone(req);
  return zone === 'UTC' || zone === 'Etc/UTC' ? null : zone;
}

export function installZonedTimes(app: FastifyInstance): void {
  app.addHook('onSend', (req, reply, payload, done) => {
    const zone = answerZone(req);
    if (!zone || !String(reply.getHeader('content-type') ?? '').startsWith('application/json'))
      return done(null, payload);
    if (typeof payload === 'string') return done(null, zonedTimes(payload, zone));
    // A cached answer is bytes (plumbing/cached.ts).
    if (Buffer.isBuffer(payload)) return done(null, zonedTimes(payload.toString('utf8'), zone));
    done(null, payload);
  });
}
