/**
 * Location reads, tenant-scoped: current locations of a page of vehicles (vehicle_locations_latest plus
 * the stored fix's battery and fuel level), one vehicle's history (stored location and engine records
 * with a position, in fix-time order, unpaginated). Drivers' current locations: ./driver-locations.ts.
 */
import { sql } from 'kysely';
import type { Db } from '../../storage/db.js';
import { countOf } from '../../storage/query.js';
import { fromJson } from '../../storage/values.js';
import { notFound } from '../../core/errors.js';
import type { Tenant } from '../../domain/tenant.js';
import { vehiclesQuery } from '../../domain/vehicles/repository.js';
import { vehicleRef } from '../../domain/vehicles/refs.js';
import type { LatestLocationRow } from '../../domain/freight/locations.js';
import { POINT_ID_PREFIX } from '../point-id.js';
import { vehiclesWithLiveDevice } from '../../domain/devices/live.js';
import { BODY_CLOSE, BODY_OPEN, historyWindow, postgresHistoryText } from './history-postgres.js';

export interface CurrentExtra {
  battery_v: number | null;
  fuel_level_pct: number | null;
  engine: string | null;
}

/** Latest fix of each vehicle, with what only the stored record and the processor state know. */
export async function latestOf(
  db: Db,
  companyId: number,
  vehicleIds: number[],
): Promise<Map<number, LatestLocationRow & CurrentExtra>> {
  const out = new Map<number, LatestLocationRow & CurrentExtra>();
  if (vehicleIds.length === 0) return out;
  const [rows, extras, states] = await Promise.all([
    db.kysely
      .selectFrom('vehicle_locations_latest')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('vehicle_id', 'in', vehicleIds)
      .execute(),
    db.kysely
      .selectFrom('vehicle_locations_latest as l')
      .innerJoin('telemetry_records as r', (j) =>
        j.onRef('r.vehicle_id', '=', 'l.vehicle_id').onRef('r.fix_time', '=', 'l.located_at'),
      )
      .select(['l.vehicle_id', 'r.battery_v', 'r.fuel_level_pct'])
      .where('l.company_id', '=', companyId)
      .where('l.vehicle_id', 'in', vehicleIds)
      .where('r.type', '=', 'location')
      .execute(),
    db.kysely
      .selectFrom('telemetry_state')
      .select(['vehicle_id', 'state'])
      .where('company_id', '=', companyId)
      .where('vehicle_id', 'in', vehicleIds)
      .execute(),
  ]);
  const ex = new Map(extras.map((e) => [e.vehicle_id, e]));
  const engine = new Map(
    states.map((s) => [s.vehicle_id, fromJson<{ status?: { engine?: string } }>(s.state, {}).status?.engine ?? null]),
  );
  for (const r of rows) {
    const e = ex.get(r.vehicle_id);
    out.set(r.vehicle_id, {
      ...r,
      battery_v: e?.battery_v ?? null,
      fuel_level_pct: e?.fuel_level_pct ?? null,
      engine: engine.get(r.vehicle_id) ?? null,
    });
  }
  return out;
}

export interface VehicleListFilter {
  vehicleIds?: number[];
  /** v3: only active vehicles with a live ELD or a known location. */
  gatewayOnly?: boolean;
  status?: string;
}

/** A page of the company's vehicles (id order) for the location lists. */
export async function vehiclesPage(db: Db, t: Tenant, f: VehicleListFilter, limit: number, offset: number) {
  let base = vehiclesQuery(db.kysely, t.companyId, { ids: f.vehicleIds, status: f.status });
  if (f.gatewayOnly) {
    base = base.where('vehicles.status', '=', 'active').where((eb) =>
      eb.or([
        eb('vehicles.id', 'in', vehiclesWithLiveDevice(db.kysely)),
        eb.exists(
          eb
            .selectFrom('vehicle_locations_latest')
            .select(sql`1`.as('one'))
            .whereRef('vehicle_locations_latest.vehicle_id', '=', 'vehicles.id'),
        ),
      ]),
    );
  }
  const [rows, total] = await Promise.all([
    base.selectAll('vehicles').orderBy('vehicles.id').limit(limit).offset(offset).execute(),
    countOf(base.select('vehicles.id')),
  ]);
  return { rows, total };
}

export const HISTORY_COLUMNS = [
  'id',
  'device_id',
  'type',
  'fix_time',
  'lat',
  'lon',
  'speed_kph',
  'bearing_deg',
  'odometer_km',
  'engine_hours',
  'fuel_used_l',
  'fuel_level_pct',
  'battery_v',
  'driver_id',
  'description',
  'point_type',
] as const;

/** One vehicle's located records within [start, end), in fix-time order; 404 for another company's vehicle. */
export async function vehicleHistory(db: Db, t: Tenant, vehicleId: number, start: Date, end: Date) {
  await ownVehicle(db, t, vehicleId);
  return historyRows(db, vehicleId, start, end);
}

function historyRows(db: Db, vehicleId: number, start: Date, end: Date) {
  return db.kysely
    .selectFrom('telemetry_records')
    .select([...HISTORY_COLUMNS])
    .where('vehicle_id', '=', vehicleId)
    .where('fix_time', '>=', start.toISOString())
    .where('fix_time', '<', end.toISOString())
    .where('lat', 'is not', null)
    .where('type', 'in', ['location', 'engine'])
    .orderBy('fix_time')
    .orderBy('id')
    .execute();
}

/**
 * A slice of vehicleHistorySlices: an hour (3,600 rows at a fix a second). A day was measured first: on
 * PostgreSQL one dense day's rows, parsed and rendered in one go, held the event loop 350–460 ms
 * (bench/loop-block.ts, 24 h of 8 trucks); an hour at a time, 60–70 ms on either database.
 */
const SLICE_MS = 3_600_000;

/**
 * The same as vehicleHistory, an hour of the window at a time, the event loop free between two slices: a
 * window of three months (`/v3/vehicle_locations/:id`) at a fix every few seconds is millions of rows,
 * which one query would read and one loop would render in a single stretch of seconds (SQLite reads a
 * result synchronously), holding every other request that long.
 */
export async function* vehicleHistorySlices(
  db: Db,
  t: Tenant,
  vehicleId: number,
  start: Date,
  end: Date,
): AsyncGenerator<HistoryRow[]> {
  await ownVehicle(db, t, vehicleId);
  for (let s = start.getTime(); s < end.getTime(); s += SLICE_MS) {
    yield await historyRows(db, vehicleId, new Date(s), new Date(Math.min(end.getTime(), s + SLICE_MS)));
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function ownVehicle(db: Db, t: Tenant, vehicleId: number): Promise<void> {
  if (!(await vehicleRef(db.kysely, t.companyId, vehicleId))) throw notFound(`vehicle ${vehicleId}`);
}

export type HistoryRow = Awaited<ReturnType<typeof historyRows>>[number];

/** What closes each point's text, by driver id (./point-json.ts), for the drivers of a history window. */
export type HistoryTails = (driverIds: Array<number | null>) => Promise<Map<number | null, string>>;

/**
 * The v1 history answer of one vehicle within [start, end) as JSON text, `{"vehicle_locations":[…]}`
 * with the points in fix-time order, built as one string on SQLite and as one buffer of its UTF-8
 * bytes on PostgreSQL (no copy of the ~2.5 MB of a vehicle-day
 * wrapped in another: every such copy is old-generation garbage, and the full collections they bring
 * on are what the slowest requests wait for). Each point is `{"vehicle_location":{"id":"<uuid>",`
 * + its stored text (./point-json.ts) + the tail of its driver, which `tails` gives for the drivers found in the window (its entry for null, which must be
 * there, closes a point without a driver and any whose driver is missing). On SQLite, null when a
 * record of the window has no stored text (stored before that column existed): the caller renders from
 * the columns. PostgreSQL renders such records itself (./history-postgres.ts; compacted weeks have none).
 * 404 for another company's vehicle. The answer holds every record stored before the read began, each once.
 */
export async function vehicleHistoryJson(
  db: Db,
  t: Tenant,
  vehicleId: number,
  start: Date,
  end: Date,
  tails: HistoryTails,
): Promise<string | Buffer | null> {
  await ownVehicle(db, t, vehicleId);
  return db.kind === 'sqlite'
    ? sqliteHistoryText(db, vehicleId, start, end, tails)
    : postgresHistoryText(db, vehicleId, start, end, tails);
}

/**
 * SQLite assembles the text, so one row comes back instead of 8,640 objects for a vehicle-day. A first
 * query finds the window's drivers, whether every point has its text, and the last record id; the
 * second reads up to that id, so a record stored in between (with a driver the first did not see) waits
 * for the next request (a vehicle's records are written one transaction at a time under its state
 * row's lock, so its ids grow in commit order). group_concat concatenates in the order of the
 * subquery, which reads the (vehicle_id, fix_time) index in (fix_time, rowid) order (an ORDER BY inside
 * group_concat would sort the rendered text again and cost as much as the rest). The endpoint tests
 * store records out of order and compare with the ordered rows.
 */
async function sqliteHistoryText(
  db: Db,
  vehicleId: number,
  start: Date,
  end: Date,
  tails: HistoryTails,
): Promise<string | null> {
  const window = historyWindow(vehicleId, start, end);
  const drivers = (
    await sql<{ driver_id: number | null; missing: number; last: number }>`select driver_id,
      max(case when point_json is null then 1 else 0 end) as missing, max(id) as last
    from telemetry_records where ${window} group by driver_id`.execute(db.kysely)
  ).rows;
  if (drivers.some((r) => r.missing)) return null;
  const lastId = Math.max(0, ...drivers.map((r) => r.last));
  const byDriver = await tails(drivers.map((r) => r.driver_id));
  const known = [...byDriver].filter((e): e is [number, string] => e[0] !== null);
  const nullTail = byDriver.get(null)!;
  const tail = known.length
    ? sql`case driver_id ${sql.join(
        known.map(([id, text]) => sql`when ${id} then ${text}`),
        sql` `,
      )} else ${nullTail} end`
    : sql`${nullTail}`;
  // The same id text as pointId(), built by SQLite.
  const head = `{"vehicle_location":{"id":"${POINT_ID_PREFIX}`;
  const q = sql<{
    text: string;
  }>`select ${BODY_OPEN} || coalesce(group_concat(p, ','), '') || ${BODY_CLOSE} as text from (
    select ${head} || printf('%012x', id) || '",' || point_json || ${tail} as p from telemetry_records
    where ${window} and id <= ${lastId} order by fix_time, id)`;
  return (await q.execute(db.kysely)).rows[0].text;
}
