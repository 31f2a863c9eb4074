/**
 * Location reads, tenant-scoped: current locations of a page of vehicles (vehicle_locations_latest plus
 * the stored fix's battery and fuel level), one vehicle's history (stored location and engine records
 * with a position, in fix-time order, unpaginated), and drivers' current locations.
 */
import { sql } from 'kysely';
import type { Db } from '../../storage/db.js';
import { countOf } from '../../storage/query.js';
import { fromJson } from '../../storage/values.js';
import { notFound } from '../../http/plumbing/errors.js';
import type { Tenant } from '../../domain/tenant.js';
import type { LatestLocationRow } from '../../domain/freight/locations.js';
import { POINT_ID_PREFIX, pointId } from '../point-id.js';

export interface CurrentExtra {
  battery_v: number | null;
  fuel_level_pct: number | null;
  engine: string | null;
}

/** Latest fix of each vehicle, with what only the stored record and the processor state know. */
export async function latestOf(db: Db, companyId: number, vehicleIds: number[]): Promise<Map<number, LatestLocationRow & CurrentExtra>> {
  const out = new Map<number, LatestLocationRow & CurrentExtra>();
  if (vehicleIds.length === 0) return out;
  const [rows, extras, states] = await Promise.all([
    db.kysely.selectFrom('vehicle_locations_latest').selectAll().where('company_id', '=', companyId).where('vehicle_id', 'in', vehicleIds).execute(),
    db.kysely
      .selectFrom('vehicle_locations_latest as l')
      .innerJoin('telemetry_records as r', (j) => j.onRef('r.vehicle_id', '=', 'l.vehicle_id').onRef('r.fix_time', '=', 'l.located_at'))
      .select(['l.vehicle_id', 'r.battery_v', 'r.fuel_level_pct'])
      .where('l.company_id', '=', companyId)
      .where('l.vehicle_id', 'in', vehicleIds)
      .where('r.type', '=', 'location')
      .execute(),
    db.kysely.selectFrom('telemetry_state').select(['vehicle_id', 'state']).where('company_id', '=', companyId).where('vehicle_id', 'in', vehicleIds).execute(),
  ]);
  const ex = new Map(extras.map((e) => [e.vehicle_id, e]));
  const engine = new Map(states.map((s) => [s.vehicle_id, fromJson<{ status?: { engine?: string } }>(s.state, {}).status?.engine ?? null]));
  for (const r of rows) {
    const e = ex.get(r.vehicle_id);
    out.set(r.vehicle_id, { ...r, battery_v: e?.battery_v ?? null, fuel_level_pct: e?.fuel_level_pct ?? null, engine: engine.get(r.vehicle_id) ?? null });
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
  let base = db.kysely.selectFrom('vehicles').where('vehicles.company_id', '=', t.companyId);
  if (f.vehicleIds?.length) base = base.where('vehicles.id', 'in', f.vehicleIds);
  if (f.status) base = base.where('vehicles.status', '=', f.status);
  if (f.gatewayOnly) {
    base = base.where('vehicles.status', '=', 'active').where((eb) =>
      eb.or([
        eb.exists(eb.selectFrom('devices').select(sql`1`.as('one')).whereRef('devices.vehicle_id', '=', 'vehicles.id').where('devices.revoked_at', 'is', null)),
        eb.exists(eb.selectFrom('vehicle_locations_latest').select(sql`1`.as('one')).whereRef('vehicle_locations_latest.vehicle_id', '=', 'vehicles.id')),
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
  'id', 'device_id', 'type', 'fix_time', 'lat', 'lon', 'speed_kph', 'bearing_deg', 'odometer_km', 'engine_hours',
  'fuel_used_l', 'fuel_level_pct', 'battery_v', 'driver_id', 'description', 'point_type',
] as const;

/** One vehicle's located records within [start, end), in fix-time order; 404 for another company's vehicle. */
export async function vehicleHistory(db: Db, t: Tenant, vehicleId: number, start: Date, end: Date) {
  const v = await db.kysely.selectFrom('vehicles').select('id').where('company_id', '=', t.companyId).where('id', '=', vehicleId).executeTakeFirst();
  if (!v) throw notFound(`vehicle ${vehicleId}`);
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

export type HistoryRow = Awaited<ReturnType<typeof vehicleHistory>>[number];

/**
 * The drivers of one vehicle's history window (null for points without one), whether every point in
 * it has its stored text (./point-json.ts; records stored before that text existed make it false), and
 * the last record id in it: vehicleHistoryText reads up to that id, so a record stored in between (with
 * a driver this answer does not name) waits for the next request. A vehicle's records are written one
 * transaction at a time under its state row's lock, so its ids grow in commit order.
 */
export async function historyDrivers(db: Db, t: Tenant, vehicleId: number, start: Date, end: Date): Promise<HistoryWindow> {
  const v = await db.kysely.selectFrom('vehicles').select('id').where('company_id', '=', t.companyId).where('id', '=', vehicleId).executeTakeFirst();
  if (!v) throw notFound(`vehicle ${vehicleId}`);
  const rows = await sql<{ driver_id: number | null; missing: number | boolean | null; last: number | string }>`select driver_id,
      max(case when point_json is null then 1 else 0 end) as missing, max(id) as last
    from telemetry_records where ${historyWindow(vehicleId, start, end)} group by driver_id`.execute(db.kysely);
  return {
    vehicleId, start, end, lastId: Math.max(0, ...rows.rows.map((r) => Number(r.last))),
    driverIds: rows.rows.map((r) => r.driver_id), complete: rows.rows.every((r) => !Number(r.missing)),
  };
}

export interface HistoryWindow {
  vehicleId: number;
  start: Date;
  end: Date;
  lastId: number;
  driverIds: Array<number | null>;
  complete: boolean;
}

/**
 * One vehicle's v1 history points as text, joined by commas in fix-time order: each point is
 * `{"vehicle_location":{"id":"<uuid>",` + its stored text + `tails` of its driver (the text that
 * closes the point, by driver id; the entry for null, which must be there, closes a point without a
 * driver and any whose driver is missing). SQLite assembles it, so one row comes back instead of 8,640
 * objects for a vehicle-day; it concatenates in the order of the subquery, which reads the
 * (vehicle_id, fix_time) index in (fix_time, rowid) order (an ORDER BY inside group_concat would sort
 * the rendered text again and cost as much as the rest). The endpoint tests store records out of order
 * and compare with the ordered rows. On PostgreSQL the same assembly in the server answered later than
 * sending the rows (docs/telemetry.md, Performance), so the rows are joined here.
 */
export async function vehicleHistoryText(db: Db, w: HistoryWindow, tails: Map<number | null, string>): Promise<string> {
  const nullTail = tails.get(null)!;
  const where = sql`${historyWindow(w.vehicleId, w.start, w.end)} and id <= ${w.lastId}`;
  if (db.kind === 'sqlite') {
    // The same id text as pointId(), built by SQLite.
    const head = `{"vehicle_location":{"id":"${POINT_ID_PREFIX}`;
    const known = [...tails].filter((e): e is [number, string] => e[0] !== null);
    const tail = known.length ? sql`case driver_id ${sql.join(known.map(([id, text]) => sql`when ${id} then ${text}`), sql` `)} else ${nullTail} end` : sql`${nullTail}`;
    const q = sql<{ text: string | null }>`select group_concat(p, ',') as text from (
      select ${head} || printf('%012x', id) || '",' || point_json || ${tail} as p from telemetry_records where ${where} order by fix_time, id)`;
    return (await q.execute(db.kysely)).rows[0]?.text ?? '';
  }
  const rows = (await sql<{ id: number; point_json: string; driver_id: number | null }>`select id, point_json, driver_id
    from telemetry_records where ${where} order by fix_time, id`.execute(db.kysely)).rows;
  const parts = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    parts[i] = `{"vehicle_location":{"id":"${pointId(Number(r.id))}",${r.point_json}${tails.get(r.driver_id) ?? nullTail}`;
  }
  return parts.join(',');
}

const historyWindow = (vehicleId: number, start: Date, end: Date) =>
  sql`vehicle_id = ${vehicleId} and fix_time >= ${start.toISOString()} and fix_time < ${end.toISOString()} and lat is not null and type in ('location', 'engine')`;

/** A page of the company's drivers with the vehicle each is logged into (by latest fix) and its fix. */
export async function driverLocations(db: Db, t: Tenant, driverIds: number[] | undefined, limit: number, offset: number) {
  let base = db.kysely.selectFrom('users').where('company_id', '=', t.companyId).where('role', '=', 'driver');
  if (driverIds?.length) base = base.where('id', 'in', driverIds);
  const [users, total] = await Promise.all([
    base.selectAll().orderBy('id').limit(limit).offset(offset).execute(),
    countOf(base.select('id')),
  ]);
  const ids = users.map((u) => u.id);
  const [fixes, assigned] = ids.length
    ? await Promise.all([
        db.kysely.selectFrom('vehicle_locations_latest').selectAll().where('company_id', '=', t.companyId).where('driver_id', 'in', ids).execute(),
        db.kysely.selectFrom('vehicles').selectAll().where('company_id', '=', t.companyId).where('current_driver_id', 'in', ids).orderBy('id').execute(),
      ])
    : [[], []];
  const fixOf = new Map<number, LatestLocationRow>();
  for (const f of fixes) {
    const was = fixOf.get(f.driver_id!);
    if (!was || f.located_at > was.located_at) fixOf.set(f.driver_id!, f);
  }
  const vehicleIds = [...new Set([...fixOf.values()].map((f) => f.vehicle_id))];
  const vehicles = vehicleIds.length ? await db.kysely.selectFrom('vehicles').selectAll().where('id', 'in', vehicleIds).execute() : [];
  const byId = new Map([...vehicles, ...assigned].map((v) => [v.id, v]));
  return {
    total,
    rows: users.map((u) => {
      const fix = fixOf.get(u.id) ?? null;
      const vehicle = fix ? byId.get(fix.vehicle_id) : assigned.find((v) => v.current_driver_id === u.id);
      return { user: u, fix, vehicle: vehicle ?? null };
    }),
  };
}
