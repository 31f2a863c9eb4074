/**
 * The v1 history of a vehicle's window as JSON text on PostgreSQL (./locations.ts, vehicleHistoryJson),
 * and what both databases' history reads share.
 */
import { sql } from 'kysely';
import type { Db } from '../../storage/db.js';
import { pointIdOfHex } from '../point-id.js';
import { pointJson } from '../point-json.js';
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
 * for null), and rendered here by the function that renders the stored text at ingestion: the same
 * bytes, without a result row per record. Only such slices read the columns, so the stored-text read
 * stays an index-only scan.
 */
const HISTORY_SLICES = 2;

type Slice = { texts: string | null; ids: string | null; drivers: string | null };

const POINT_COLUMNS = sql`concat(chr(2), fix_time, chr(3), lat::text, chr(3), lon::text, chr(3),
  coalesce(bearing_deg::text, chr(4)), chr(3), coalesce(engine_hours::text, chr(4)), chr(3),
  coalesce(point_type, chr(4)), chr(3), coalesce(description, chr(4)), chr(3), coalesce(speed_kph::text, chr(4)), chr(3),
  coalesce(odometer_km::text, chr(4)), chr(3), coalesce(fuel_used_l::text, chr(4)))`;

// A column sent in place of the stored text: U+0004 is null.
const num = (x: string) => (x === '\u0004' ? null : Number(x));
const str = (x: string) => (x === '\u0004' ? null : x);

/** A point's text: the stored text as it is, or the columns sent in its place rendered as ingestion renders them. */
function pointText(text: string): string {
  if (text.charCodeAt(0) !== 2) return text;
  const f = text.slice(1).split('\u0003');
  return pointJson({
    fix_time: f[0],
    lat: Number(f[1]),
    lon: Number(f[2]),
    bearing_deg: num(f[3]),
    engine_hours: num(f[4]),
    point_type: str(f[5]),
    description: str(f[6]),
    speed_kph: num(f[7]),
    odometer_km: num(f[8]),
    fuel_used_l: num(f[9]),
  });
}

export async function postgresHistoryText(
  db: Db,
  vehicleId: number,
  start: Date,
  end: Date,
  tails: HistoryTails,
): Promise<string> {
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
  const slice = async (from: Date, to: Date): Promise<Slice> => {
    const r = (await query(from, to).execute(db.kysely)).rows[0];
    return r.missing ? (await withColumns(from, to).execute(db.kysely)).rows[0] : r;
  };
  const n = HISTORY_SLICES;
  const at = (k: number) =>
    k === n ? end : new Date(start.getTime() + Math.floor(((end.getTime() - start.getTime()) * k) / n));
  const slices = await Promise.all(Array.from({ length: n }, (_, k) => slice(at(k), at(k + 1))));
  const parts = slices
    .filter((h) => h.ids !== null)
    .map((h) => ({ texts: h.texts!.split('\u0001'), ids: h.ids!.split(','), drivers: h.drivers!.split(',') }));
  const driverKeys = new Set<string>();
  for (const p of parts) for (const d of p.drivers) driverKeys.add(d);
  const byDriver = await tails([...driverKeys].map((k) => (k === '' ? null : Number(k))));
  const tailOf = new Map(
    [...driverKeys].map((k) => [k, byDriver.get(k === '' ? null : Number(k)) ?? byDriver.get(null)!]),
  );
  const out: string[] = [];
  for (const p of parts) {
    for (let i = 0; i < p.ids.length; i++)
      out.push(
        `{"vehicle_location":{"id":"${pointIdOfHex(p.ids[i])}",${pointText(p.texts[i])}${tailOf.get(p.drivers[i])}`,
      );
  }
  if (out.length === 0) return BODY_OPEN + BODY_CLOSE;
  out[0] = BODY_OPEN + out[0];
  out[out.length - 1] += BODY_CLOSE;
  return out.join(',');
}
