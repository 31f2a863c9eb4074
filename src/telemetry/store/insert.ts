/**
 * The bulk insert of raw records: one statement whose text never changes, the rows passed as one JSON
 * parameter (SQLite `json_each`, PostgreSQL `json_to_recordset`). A statement with a parameter per
 * value would be parsed and planned again for every batch; this one is cheap to prepare, and the
 * database unpacks the rows itself. Duplicates of (device, channel, seq) are skipped; the new rows'
 * ids and seqs come back.
 */
import { sql, type Insertable } from 'kysely';
import type { DbKind } from '../../storage/db.js';
import type { TelemetryRecordsTable } from './tables.js';
import type { Trx } from './tx.js';

const COLUMNS: Array<[keyof TelemetryRecordsTable, string]> = [
  ['company_id', 'int'], ['device_id', 'int'], ['channel', 'int'], ['seq', 'bigint'], ['vehicle_id', 'int'], ['asset_id', 'int'],
  ['type', 'text'], ['fix_time', 'text'], ['received_at', 'text'], ['lat', 'float8'], ['lon', 'float8'], ['speed_kph', 'float8'],
  ['bearing_deg', 'float8'], ['odometer_km', 'float8'], ['engine_hours', 'float8'], ['fuel_used_l', 'float8'],
  ['fuel_level_pct', 'float8'], ['battery_v', 'float8'], ['driver_id', 'int'], ['description', 'text'], ['point_type', 'text'], ['data', 'text'], ['point_json', 'text'],
];

const NAMES = COLUMNS.map(([c]) => c).join(', ');
const SQLITE_SELECT = COLUMNS.map((_, i) => `value ->> '$[${i}]'`).join(', ');
const PG_TYPES = COLUMNS.map(([c, t]) => `${c} ${t}`).join(', ');

export async function insertRecords(trx: Trx, kind: DbKind, rows: Array<Insertable<TelemetryRecordsTable>>): Promise<Array<{ id: number; seq: number }>> {
  if (rows.length === 0) return [];
  if (kind === 'sqlite') {
    const payload = JSON.stringify(rows.map((r) => COLUMNS.map(([c]) => (r[c] === undefined ? null : r[c]))));
    const res = await sql<{ id: number; seq: number }>`insert into telemetry_records (${sql.raw(NAMES)}) select ${sql.raw(SQLITE_SELECT)} from json_each(${payload}) where true on conflict (device_id, channel, seq) do nothing returning id, seq`.execute(trx);
    return res.rows;
  }
  const payload = JSON.stringify(rows);
  const res = await sql<{ id: number; seq: number }>`insert into telemetry_records (${sql.raw(NAMES)}) select ${sql.raw(NAMES)} from json_to_recordset(${payload}::json) as x(${sql.raw(PG_TYPES)}) on conflict (device_id, channel, seq) do nothing returning id, seq`.execute(trx);
  return res.rows;
}
