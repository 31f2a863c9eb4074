/**
 * The bulk insert of one device batch's raw records. Duplicates of (device, channel, seq) are skipped;
 * the answer is the new row's id for each row, or null for a duplicate, in the order given.
 *
 * - SQLite: the batch's seqs already stored are found first, with one range read of the unique index
 *   (the batch's transaction holds the write lock, BEGIN IMMEDIATE, so the answer holds until the
 *   insert). The other rows go in as 50-row INSERTs whose text never changes, the values every row of
 *   a batch shares (company, device, channel, subject, receipt time) bound once per statement; the
 *   remainder one row at a time (a batch of fewer than 50 rows goes one row at a time without the
 *   range read). A statement's rows get consecutive ids (AUTOINCREMENT gives each new
 *   row the largest id so far plus one), so the last insert rowid names them all. Measured in a bare
 *   better-sqlite3 loop: 5.0 µs a row against 6.0 for one statement a row (docs/telemetry.md,
 *   Performance). A batch whose seqs are scattered (more than 4 × its size apart) would make the range
 *   read long: it goes one row at a time, duplicates skipped by ON CONFLICT and told by the change
 *   count. The statements run directly on the connection (inside the batch's transaction, which holds
 *   it), not through Kysely: its per-query machinery cost more than the insert itself.
 * - PostgreSQL: every round trip counts, so the rows go as one JSON parameter of one statement whose
 *   text never changes (`json_to_recordset`), returning the new rows' ids and seqs, handed to Kysely
 *   already compiled (`CompiledQuery.raw`). A duplicate is one its week's partition already holds.
 */
import { CompiledQuery, type Insertable } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { TelemetryRecordsTable } from './tables.js';
import type { Trx } from './tx.js';

const COLUMNS: Array<[keyof TelemetryRecordsTable, string]> = [
  ['company_id', 'int'],
  ['device_id', 'int'],
  ['channel', 'int'],
  ['seq', 'bigint'],
  ['vehicle_id', 'int'],
  ['asset_id', 'int'],
  ['type', 'text'],
  ['fix_time', 'text'],
  ['received_at', 'text'],
  ['lat', 'float8'],
  ['lon', 'float8'],
  ['speed_kph', 'float8'],
  ['bearing_deg', 'float8'],
  ['odometer_km', 'float8'],
  ['engine_hours', 'float8'],
  ['fuel_used_l', 'float8'],
  ['fuel_level_pct', 'float8'],
  ['battery_v', 'float8'],
  ['driver_id', 'int'],
  ['description', 'text'],
  ['point_type', 'text'],
  ['data', 'text'],
  ['point_json', 'text'],
];

const NAMES = COLUMNS.map(([c]) => c).join(', ');
const CONFLICT = 'on conflict (device_id, channel, seq) do nothing';
/**
 * PostgreSQL's table is partitioned by week (src/storage/partitions/telemetry.ts): the unique
 * (device, channel, seq) index is each partition's own, which an ON CONFLICT without a target checks.
 */
const PG_MANY = `insert into telemetry_records (${NAMES}) select ${NAMES} from json_to_recordset($1::json) as x(${COLUMNS.map(([c, t]) => `${c} ${t}`).join(', ')}) on conflict do nothing returning id, seq`;
/** Rows per PostgreSQL statement. */
const PG_CHUNK = 500;

/** The columns every row of one device batch shares, bound once per SQLite statement. */
const SHARED = ['company_id', 'device_id', 'channel', 'vehicle_id', 'asset_id', 'received_at'] as const;
const OWN = COLUMNS.map(([c]) => c).filter((c) => !(SHARED as readonly string[]).includes(c));
const SQLITE_ONE = `insert into telemetry_records (${[...SHARED, ...OWN].join(', ')}) values (${COLUMNS.map(() => '?').join(', ')}) ${CONFLICT}`;
/** Rows per multi-row SQLite statement: 25–100 measured alike. */
const SQLITE_CHUNK = 50;
const SQLITE_MANY = `insert into telemetry_records (${[...SHARED, ...OWN].join(', ')}) select ${SHARED.map(() => '?').join(', ')}, * from (values ${Array.from({ length: SQLITE_CHUNK }, () => `(${OWN.map(() => '?').join(', ')})`).join(', ')})`;
const SQLITE_STORED = 'select seq from telemetry_records where device_id = ? and channel = ? and seq between ? and ?';
/** Widest seq range read for stored duplicates, in multiples of the batch's size. */
const SPREAD = 4;

type Row = Insertable<TelemetryRecordsTable>;
type Statements = NonNullable<Db['sqliteStatement']>;

/** Writes a row's own values, in the order of OWN, into `into` from index `at`. */
function ownValues(r: Row, into: unknown[], at: number): void {
  into[at] = r.seq;
  into[at + 1] = r.type;
  into[at + 2] = r.fix_time;
  into[at + 3] = r.lat ?? null;
  into[at + 4] = r.lon ?? null;
  into[at + 5] = r.speed_kph ?? null;
  into[at + 6] = r.bearing_deg ?? null;
  into[at + 7] = r.odometer_km ?? null;
  into[at + 8] = r.engine_hours ?? null;
  into[at + 9] = r.fuel_used_l ?? null;
  into[at + 10] = r.fuel_level_pct ?? null;
  into[at + 11] = r.battery_v ?? null;
  into[at + 12] = r.driver_id ?? null;
  into[at + 13] = r.description ?? null;
  into[at + 14] = r.point_type ?? null;
  into[at + 15] = r.data ?? null;
  into[at + 16] = r.point_json ?? null;
}

const sharedValues = (r: Row): unknown[] => [
  r.company_id,
  r.device_id,
  r.channel,
  r.vehicle_id ?? null,
  r.asset_id ?? null,
  r.received_at,
];

/** All of a row's values, in the order of SQLITE_ONE. */
function valuesOf(r: Row): unknown[] {
  const values = sharedValues(r);
  ownValues(r, values, SHARED.length);
  return values;
}

function sameBatch(rows: Row[]): boolean {
  const f = rows[0];
  return rows.every(
    (r) =>
      r.company_id === f.company_id &&
      r.device_id === f.device_id &&
      r.channel === f.channel &&
      (r.vehicle_id ?? null) === (f.vehicle_id ?? null) &&
      (r.asset_id ?? null) === (f.asset_id ?? null) &&
      r.received_at === f.received_at,
  );
}

/** One statement a row, for the rows at `which`; a duplicate is told by the change count. */
function sqliteOneByOne(stmt: Statements, rows: Row[], ids: Array<number | null>, which: Iterable<number>): void {
  const one = stmt(SQLITE_ONE);
  for (const i of which) {
    const res = one.run(valuesOf(rows[i]));
    if (res.changes) ids[i] = Number(res.lastInsertRowid);
  }
}

function sqliteInsert(stmt: Statements, rows: Row[], ids: Array<number | null>): void {
  let lo = rows[0].seq;
  let hi = lo;
  for (const r of rows) {
    if (r.seq < lo) lo = r.seq;
    else if (r.seq > hi) hi = r.seq;
  }
  // Fewer rows than one multi-row statement: ON CONFLICT alone tells the duplicates, no range read.
  if (rows.length < SQLITE_CHUNK || hi - lo >= SPREAD * rows.length || !sameBatch(rows))
    return sqliteOneByOne(stmt, rows, ids, rows.keys());
  const f = rows[0];
  const taken = new Set<number>(
    (stmt(SQLITE_STORED).pluck().all(f.device_id, f.channel, lo, hi) as Array<number | bigint>).map(Number),
  );
  const fresh: number[] = [];
  for (let i = 0; i < rows.length; i++) {
    if (taken.has(rows[i].seq)) continue;
    taken.add(rows[i].seq); // the first of a seq repeated in the batch wins, as ON CONFLICT would
    fresh.push(i);
  }
  let k = 0;
  if (fresh.length >= SQLITE_CHUNK) {
    const many = stmt(SQLITE_MANY);
    // One array for every statement of the batch: run() binds its values before it returns.
    const values = sharedValues(f);
    values.length = SHARED.length + SQLITE_CHUNK * OWN.length;
    for (; k + SQLITE_CHUNK <= fresh.length; k += SQLITE_CHUNK) {
      for (let j = 0; j < SQLITE_CHUNK; j++) ownValues(rows[fresh[k + j]], values, SHARED.length + j * OWN.length);
      const res = many.run(values);
      if (res.changes !== SQLITE_CHUNK)
        throw new Error(`telemetry insert stored ${res.changes} of ${SQLITE_CHUNK} rows`);
      const first = Number(res.lastInsertRowid) - SQLITE_CHUNK + 1;
      for (let j = 0; j < SQLITE_CHUNK; j++) ids[fresh[k + j]] = first + j;
    }
  }
  sqliteOneByOne(stmt, rows, ids, fresh.slice(k));
}

export async function insertRecords(trx: Trx, db: Db, rows: Row[]): Promise<Array<number | null>> {
  const ids: Array<number | null> = new Array(rows.length).fill(null);
  if (rows.length === 0) return ids;
  if (db.sqliteStatement) {
    sqliteInsert(db.sqliteStatement, rows, ids);
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
