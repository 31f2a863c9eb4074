/**
 * The bulk insert of raw records. Duplicates of (device, channel, seq) are skipped; the answer is the
 * new row's id for each row, or null for a duplicate, in the order given.
 *
 * - SQLite: one single-row INSERT whose text never changes, run once per row with its values bound.
 *   The compiled statement stays in the connection's statement cache and runs in-process, so a row
 *   costs one bind and one step: measured here, half the cost of unpacking the rows from one JSON
 *   parameter (`json_each`, which parses the JSON again for every value) and less than multi-row
 *   VALUES with RETURNING. Whether a row was new and its id come from the statement's change count
 *   and last insert rowid. The loop runs the statement directly on the connection (inside the batch's
 *   transaction, which holds it), not through Kysely: its per-query machinery cost more than the
 *   insert itself at 500 rows a batch.
 * - PostgreSQL: every round trip counts, so the rows go as one JSON parameter of one statement whose
 *   text never changes (`json_to_recordset`), returning the new rows' ids and seqs.
 *
 * Both statements are handed to Kysely already compiled (`CompiledQuery.raw`): nothing is built or
 * compiled per batch.
 */
import { CompiledQuery, type Insertable } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { TelemetryRecordsTable } from './tables.js';
import type { Trx } from './tx.js';

const COLUMNS: Array<[keyof TelemetryRecordsTable, string]> = [
  ['company_id', 'int'], ['device_id', 'int'], ['channel', 'int'], ['seq', 'bigint'], ['vehicle_id', 'int'], ['asset_id', 'int'],
  ['type', 'text'], ['fix_time', 'text'], ['received_at', 'text'], ['lat', 'float8'], ['lon', 'float8'], ['speed_kph', 'float8'],
  ['bearing_deg', 'float8'], ['odometer_km', 'float8'], ['engine_hours', 'float8'], ['fuel_used_l', 'float8'],
  ['fuel_level_pct', 'float8'], ['battery_v', 'float8'], ['driver_id', 'int'], ['description', 'text'], ['point_type', 'text'], ['data', 'text'], ['point_json', 'text'],
];

const NAMES = COLUMNS.map(([c]) => c).join(', ');
const CONFLICT = 'on conflict (device_id, channel, seq) do nothing';
const SQLITE_ONE = `insert into telemetry_records (${NAMES}) values (${COLUMNS.map(() => '?').join(', ')}) ${CONFLICT}`;
const PG_MANY = `insert into telemetry_records (${NAMES}) select ${NAMES} from json_to_recordset($1::json) as x(${COLUMNS.map(([c, t]) => `${c} ${t}`).join(', ')}) ${CONFLICT} returning id, seq`;
/** Rows per PostgreSQL statement. */
const PG_CHUNK = 500;

type Row = Insertable<TelemetryRecordsTable>;

const valuesOf = (r: Row): unknown[] => [
  r.company_id, r.device_id, r.channel, r.seq, r.vehicle_id ?? null, r.asset_id ?? null, r.type, r.fix_time, r.received_at,
  r.lat ?? null, r.lon ?? null, r.speed_kph ?? null, r.bearing_deg ?? null, r.odometer_km ?? null, r.engine_hours ?? null,
  r.fuel_used_l ?? null, r.fuel_level_pct ?? null, r.battery_v ?? null, r.driver_id ?? null, r.description ?? null,
  r.point_type ?? null, r.data ?? null, r.point_json ?? null,
];

export async function insertRecords(trx: Trx, db: Db, rows: Row[]): Promise<Array<number | null>> {
  const ids: Array<number | null> = new Array(rows.length).fill(null);
  if (db.sqliteStatement) {
    const stmt = db.sqliteStatement(SQLITE_ONE);
    for (let i = 0; i < rows.length; i++) {
      const res = stmt.run(valuesOf(rows[i]));
      if (res.changes) ids[i] = Number(res.lastInsertRowid);
    }
    db.changes.observe(SQLITE_ONE);
    return ids;
  }
  for (let i = 0; i < rows.length; i += PG_CHUNK) {
    const part = rows.slice(i, i + PG_CHUNK);
    const res = await trx.executeQuery<{ id: number; seq: number }>(CompiledQuery.raw(PG_MANY, [JSON.stringify(part)]));
    const bySeq = new Map<number, number>();
    for (const g of res.rows) bySeq.set(Number(g.seq), Number(g.id));
    part.forEach((r, k) => {
      const id = bySeq.get(r.seq);
      if (id !== undefined) ids[i + k] = id;
    });
  }
  return ids;
}
