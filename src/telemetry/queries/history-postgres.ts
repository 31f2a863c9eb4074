/**
 * The v1 history of a vehicle's window as JSON text on PostgreSQL (./locations.ts, vehicleHistoryJson),
 * and what both databases' history reads share.
 */
import { sql } from 'kysely';
import type { Db } from '../../storage/db.js';
import { POINT_ID_PREFIX } from '../point-id.js';
import { writePointColumns } from '../point-json.js';
import { BodyBytes } from '../body-bytes.js';
import { KM_PER_MI, L_PER_GAL } from '../units.js';
import type { HistoryTails } from './locations.js';

export const BODY_OPEN = '{"vehicle_locations":[';
export const BODY_CLOSE = ']}';

export const historyWindow = (vehicleId: number, start: Date, end: Date) =>
  sql`vehicle_id = ${vehicleId} and fix_time >= ${start.toISOString()} and fix_time < ${end.toISOString()} and lat is not null and type in ('location', 'engine')`;

/**
 * PostgreSQL: the window is read as HISTORY_SLICES consecutive slices at once, on as many connections
 * (separate server processes, so both cores work), and each slice comes back as one row: its stored
 * texts joined by U+0001 (which JSON text never holds raw), its record ids in hex and its driver ids,
 * each joined by commas. The three come in the same order, the subquery's (fix_time, id): the
 * aggregates of one query see the same input rows in turn, and an aggregate over an ordered subquery
 * keeps its order (the out-of-order endpoint tests would catch it if not). Decoding 8,640 result rows
 * cost this process more than the query itself; one row per slice costs the database no more than
 * sending the rows (string_agg of stored text). The texts are joined here with their ids and their
 * drivers' tails: building them in the database (lpad, concatenation) doubled its work. Slices read
 * at slightly different moments; every record falls in exactly one, and the tails come from the
 * drivers the slices found. Two slices: p50 of a vehicle-day 34 ms instead of 42 with one
 * (bench/RESULTS.md); three or four measured the same as two on the two-core machine.
 *
 * A slice with records that have no stored text (a compacted week, docs/storage.md) is read again with
 * their columns in place of the text, joined the same way (U+0002 first, fields split by U+0003, U+0004
 * for null), and written by writePointColumns (../point-json.ts): the bytes the ingestion's renderer
 * writes, without a result row or a string per record. Only such slices read the columns, so the
 * stored-text read stays an index-only scan; a day found without text is read with its columns first
 * from then on (daysWithoutText).
 *
 * The answer is written as bytes into one buffer (../body-bytes.ts) and sent as it is: joining ~8,640
 * points of strings and encoding the result cost a compacted day a third more CPU (bench/RESULTS.md).
 */
const HISTORY_SLICES = 2;

type Slice = { texts: string | null; ids: string | null; drivers: string | null };

const POINT_COLUMNS = sql`concat(chr(2), fix_time, chr(3), lat::text, chr(3), lon::text, chr(3),
  coalesce(bearing_deg::text, chr(4)), chr(3), coalesce(engine_hours::text, chr(4)), chr(3),
  coalesce(point_type, chr(4)), chr(3), coalesce(description, chr(4)), chr(3), coalesce((speed_kph / ${KM_PER_MI}::float8)::text, chr(4)), chr(3),
  coalesce((odometer_km / ${KM_PER_MI}::float8)::text, chr(4)), chr(3),
  coalesce((fuel_used_l / ${L_PER_GAL}::float8)::text, chr(4)))`;

const bytesOf = (s: string) => Buffer.from(s, 'utf8');
const OPEN = bytesOf(BODY_OPEN);
const CLOSE = bytesOf(BODY_CLOSE);
const COMMA = bytesOf(',');
const HEAD = bytesOf(`{"vehicle_location":{"id":"${POINT_ID_PREFIX}`);
const AFTER_ID = bytesOf('",');

/**
 * The UTC days (of a slice's start) where this process last found records without stored text, by
 * database: a slice starting on such a day reads the columns at once instead of first trying the
 * text (a compacted week stays compacted, so the first read would only find that out again). The
 * columns read is right for any records, with or without text. At most MAX_DAYS_REMEMBERED a database.
 */
const daysWithoutText = new WeakMap<Db, Set<number>>();
const MAX_DAYS_REMEMBERED = 4096;
const dayOf = (d: Date) => Math.floor(d.getTime() / 86_400_000);

export async function postgresHistoryText(
  db: Db,
  vehicleId: number,
  start: Date,
  end: Date,
  tails: HistoryTails,
): Promise<Buffer> {
  const query = (from: Date, to: Date) =>
    sql<Slice & { missing: boolean | null }>`select
        string_agg(point_json, chr(1)) as texts, string_agg(to_hex(id), ',') as ids,
        string_agg(coalesce(driver_id::text, ''), ',') as drivers, bool_or(point_json is null) as missing
      from (select id, point_json, driver_id from telemetry_records where ${historyWindow(vehicleId, from, to)} order by fix_time, id) s`;
  const withColumns = (from: Date, to: Date) =>
    sql<Slice>`select
        string_agg(coalesce(point_json, ${POINT_COLUMNS}), chr(1)) as texts, string_agg(to_hex(id), ',') as ids,
        string_agg(coalesce(driver_id::text, ''), ',') as drivers
      from (select * from telemetry_records where ${historyWindow(vehicleId, from, to)} order by fix_time, id) s`;
  let known = daysWithoutText.get(db);
  if (!known) daysWithoutText.set(db, (known = new Set()));
  const slice = async (from: Date, to: Date): Promise<Slice> => {
    if (known.has(dayOf(from))) return (await withColumns(from, to).execute(db.kysely)).rows[0];
    const r = (await query(from, to).execute(db.kysely)).rows[0];
    if (!r.missing) return r;
    if (known.size < MAX_DAYS_REMEMBERED) known.add(dayOf(from));
    return (await withColumns(from, to).execute(db.kysely)).rows[0];
  };
  const n = HISTORY_SLICES;
  const at = (k: number) =>
    k === n ? end : new Date(start.getTime() + Math.floor(((end.getTime() - start.getTime()) * k) / n));
  const slices = await Promise.all(Array.from({ length: n }, (_, k) => slice(at(k), at(k + 1))));
  const parts = slices.filter((h): h is { [K in keyof Slice]: string } => h.ids !== null);
  const tailOf = await tailsOf(parts.map((p) => p.drivers).join(','), tails);
  // The answer's size, about, so that the buffer need not grow: the texts, and per point its id and
  // tail (96 bytes), or for a point sent as columns also its keys (109 bytes) in place of the
  // separators. A vehicle-day of bench/scenarios/history-day.ts: 2.64 MB estimated for 2.52 as stored,
  // 3.13 MB compacted.
  let size = OPEN.length + CLOSE.length;
  for (const p of parts) size += p.texts.length + (count(p.ids, 0x2c) + 1) * (p.texts.charCodeAt(0) === 2 ? 200 : 96);
  const w = new BodyBytes(size);
  w.bytes(OPEN);
  let first = true;
  for (const p of parts) first = writeSlice(w, p, tailOf, first);
  w.bytes(CLOSE);
  return w.done();
}

/** Where the item of `s` that starts at `from` ends: at the next `sep`, or at the end. */
function endOf(s: string, sep: string, from: number): number {
  const i = s.indexOf(sep, from);
  return i < 0 ? s.length : i;
}

function count(s: string, c: number): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === c) n++;
  return n;
}

/** Each driver's tail, encoded, by the driver's text in `drivers` (a comma-separated list, '' for none). */
async function tailsOf(drivers: string, tails: HistoryTails): Promise<Map<string, Buffer>> {
  const keys = [...new Set(drivers.split(','))];
  const byDriver = await tails(keys.map((k) => (k === '' ? null : Number(k))));
  return new Map(keys.map((k) => [k, bytesOf(byDriver.get(k === '' ? null : Number(k)) ?? byDriver.get(null)!)]));
}

/**
 * The points of one slice: the three lists walked in step, by position, with no string per point.
 * Returns whether nothing has been written yet (the next point needs no comma before it).
 */
function writeSlice(
  w: BodyBytes,
  { texts, ids, drivers }: { [K in keyof Slice]: string },
  tailOf: Map<string, Buffer>,
  first: boolean,
): boolean {
  let t = 0;
  let i = 0;
  let d = 0;
  let driver = '';
  let tail = tailOf.get(driver);
  while (i < ids.length) {
    const tEnd = endOf(texts, '\u0001', t);
    const iEnd = endOf(ids, ',', i);
    const dEnd = endOf(drivers, ',', d);
    if (!first) w.bytes(COMMA);
    first = false;
    w.bytes(HEAD);
    w.repeat(0x30, 12 - (iEnd - i));
    w.ascii(ids, i, iEnd);
    w.bytes(AFTER_ID);
    if (texts.charCodeAt(t) === 2) writePointColumns(w, texts, t, tEnd);
    else w.text(texts.slice(t, tEnd));
    if (dEnd - d !== driver.length || !drivers.startsWith(driver, d))
      tail = tailOf.get((driver = drivers.slice(d, dEnd)));
    w.bytes(tail!);
    t = tEnd + 1;
    i = iEnd + 1;
    d = dEnd + 1;
  }
  return first;
}
