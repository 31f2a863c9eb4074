/** Tenant-scoped queries on dispatches, their stops and trips. */
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../storage/schema.js';
import type { DbKind } from '../../storage/db.js';
import { countOf } from '../../storage/query.js';
import { bool, fromBool, fromJson, json, nowIso } from '../../storage/values.js';
import type { DispatchesTable } from './tables.js';
import type { DispatchStatus, StopStatus } from './state-machine.js';
import type { Stop } from './stops.js';
import type { Trip } from './trips.js';
import { stopDetailsOf } from './details.js';

export type DispatchRow = Selectable<DispatchesTable>;

/** A dispatch with its stops in order and its trips in order. */
export interface DispatchView {
  row: DispatchRow;
  status: DispatchStatus;
  stops: Stop[];
  trips: Trip[];
}

export interface DispatchFilters {
  ids?: number[];
  vendor_ids?: string[];
}

function filtered(db: Kysely<Database>, companyId: number, f: DispatchFilters) {
  let q = db.selectFrom('dispatches').where('company_id', '=', companyId);
  if (f.ids) q = q.where('id', 'in', f.ids.length ? f.ids : [0]);
  if (f.vendor_ids) q = q.where('vendor_id', 'in', f.vendor_ids.length ? f.vendor_ids : ['']);
  return q;
}

export async function listDispatches(
  db: Kysely<Database>,
  companyId: number,
  f: DispatchFilters,
  limit: number,
  offset: number,
) {
  const base = filtered(db, companyId, f);
  const [rows, total] = await Promise.all([
    base.selectAll().orderBy('id').limit(limit).offset(offset).execute(),
    countOf(base.select('id')),
  ]);
  return { rows, total };
}

/** The dispatch named by vendor_id; on PostgreSQL the row stays locked until the transaction ends. */
export function findByVendorId(db: Kysely<Database>, kind: DbKind, companyId: number, vendorId: string, lock: boolean) {
  const q = db
    .selectFrom('dispatches')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('vendor_id', '=', vendorId);
  return (lock && kind === 'postgres' ? q.forUpdate() : q).executeTakeFirst();
}

export function findById(db: Kysely<Database>, kind: DbKind, companyId: number, id: number, lock: boolean) {
  const q = db.selectFrom('dispatches').selectAll().where('company_id', '=', companyId).where('id', '=', id);
  return (lock && kind === 'postgres' ? q.forUpdate() : q).executeTakeFirst();
}

/** Another active dispatch of the driver, if any. */
export function activeDispatchOf(db: Kysely<Database>, driverId: number, exceptId = 0) {
  return db
    .selectFrom('dispatches')
    .select(['id', 'vendor_id'])
    .where('driver_id', '=', driverId)
    .where('status', '=', 'active')
    .where('id', '!=', exceptId)
    .executeTakeFirst();
}

/** Stops and trips of a set of dispatches, in two queries. */
export async function viewsOf(db: Kysely<Database>, rows: DispatchRow[]): Promise<DispatchView[]> {
  const ids = rows.map((r) => r.id);
  const [stopRows, tripRows] = ids.length
    ? await Promise.all([
        db
          .selectFrom('dispatch_stops')
          .selectAll()
          .where('dispatch_id', 'in', ids)
          .orderBy('dispatch_id')
          .orderBy('position')
          .execute(),
        db
          .selectFrom('dispatch_trips')
          .selectAll()
          .where('dispatch_id', 'in', ids)
          .orderBy('dispatch_id')
          .orderBy('position')
          .execute(),
      ])
    : [[], []];
  return rows.map((row) => {
    const stops = stopRows.filter((s) => s.dispatch_id === row.id);
    const trips: Trip[] = tripRows
      .filter((t) => t.dispatch_id === row.id)
      .map((t) => ({
        id: t.id,
        vendor_id: t.vendor_id,
        stop_vendor_ids: stops.filter((s) => s.trip_id === t.id).map((s) => s.vendor_id),
      }));
    return {
      row,
      status: row.status as DispatchStatus,
      trips,
      stops: stops.map((s) => ({
        id: s.id,
        vendor_id: s.vendor_id,
        dispatch_location_id: s.dispatch_location_id,
        type: s.type,
        status: s.status as StopStatus,
        driver_load: s.driver_load === null ? null : fromBool(s.driver_load),
        early_date: s.early_date,
        late_date: s.late_date,
        form_ids: fromJson<string[]>(s.form_ids, []),
        ...stopDetailsOf(s),
        trip_id: s.trip_id,
      })),
    };
  });
}

/**
 * Writes the planned stops and trips of one dispatch: removed stops and trips go first (so a renamed
 * stop may take a freed vendor_id), then trips, then stops in their new positions and trips.
 */
export async function saveStopsAndTrips(
  trx: Kysely<Database>,
  companyId: number,
  dispatchId: number,
  before: { stops: Stop[]; trips: Trip[] },
  stops: Stop[],
  trips: Trip[],
): Promise<void> {
  const now = nowIso();
  const keptStops = new Set(stops.map((s) => s.id).filter((id): id is number => id !== null));
  const goneStops = before.stops.map((s) => s.id!).filter((id) => !keptStops.has(id));
  if (goneStops.length) await trx.deleteFrom('dispatch_stops').where('id', 'in', goneStops).execute();
  const keptTrips = new Set(trips.map((t) => t.id).filter((id): id is number => id !== null));
  const goneTrips = before.trips.map((t) => t.id!).filter((id) => !keptTrips.has(id));
  if (goneTrips.length) {
    await trx.updateTable('dispatch_stops').set({ trip_id: null }).where('trip_id', 'in', goneTrips).execute();
    await trx.deleteFrom('dispatch_trips').where('id', 'in', goneTrips).execute();
  }
  const tripOfStop = new Map<string, number>();
  for (const [i, t] of trips.entries()) {
    let id = t.id;
    if (id === null) {
      id = (
        await trx
          .insertInto('dispatch_trips')
          .values({
            company_id: companyId,
            dispatch_id: dispatchId,
            vendor_id: t.vendor_id,
            position: i + 1,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    } else {
      await trx
        .updateTable('dispatch_trips')
        .set({ position: i + 1, updated_at: now })
        .where('id', '=', id)
        .execute();
    }
    for (const s of t.stop_vendor_ids) tripOfStop.set(s, id);
  }
  const old = new Map(before.stops.map((s) => [s.id, s]));
  // Renamed stops first take a placeholder, so that two stops may swap vendor ids.
  for (const s of stops) {
    if (s.id !== null && old.get(s.id)?.vendor_id !== s.vendor_id) {
      await trx
        .updateTable('dispatch_stops')
        .set({ vendor_id: `~renaming~${s.id}` })
        .where('id', '=', s.id)
        .execute();
    }
  }
  // Existing stops before new ones, so that a new stop may take a vendor_id a renamed stop gave up.
  const order = [...stops.entries()].sort(([, a], [, b]) => Number(a.id === null) - Number(b.id === null));
  for (const [i, s] of order) {
    const values = {
      vendor_id: s.vendor_id,
      position: i + 1,
      dispatch_location_id: s.dispatch_location_id,
      type: s.type,
      status: s.status,
      driver_load: s.driver_load === null ? null : bool(s.driver_load),
      early_date: s.early_date,
      late_date: s.late_date,
      form_ids: json(s.form_ids),
      ...stopDetailsOf(s),
      trip_id: tripOfStop.get(s.vendor_id) ?? null,
      updated_at: now,
    };
    const prior = s.id === null ? undefined : old.get(s.id);
    const departed = s.status === 'departed' && prior?.status !== 'departed' ? { departed_at: now } : {};
    if (s.id === null) {
      await trx
        .insertInto('dispatch_stops')
        .values({ ...values, ...departed, company_id: companyId, dispatch_id: dispatchId, created_at: now })
        .execute();
    } else {
      await trx
        .updateTable('dispatch_stops')
        .set({ ...values, ...departed })
        .where('id', '=', s.id)
        .execute();
    }
  }
}
