/**
 * Trip rows and the mileage summary, formed from the materialized fragments at read time so that the
 * day boundaries follow the request's time zone (fragments are 15-minute buckets, and every zone's
 * midnight falls on a quarter hour). Only vehicles marked `ifta` are reported.
 *
 * Trip row: one per vehicle, jurisdiction and local day. Its distance is the sum of the vehicle's
 * distance in that jurisdiction that day; its start is where and when the vehicle was first in the
 * jurisdiction that day (the border crossing point, or the first point of the day) and its end where it
 * was last. A vehicle that enters the same jurisdiction twice in a day still has one row, whose
 * odometer span then also covers the time spent elsewhere (distance < end − start odometer).
 */
import type { Db } from '../../storage/db.js';
import { toIso } from '../../storage/values.js';
import { startOfDay } from '../../core/time-zone.js';
import { iftaVehicleFuelTypes } from '../vehicles/ifta.js';
import { refresh, UNPLACED } from './recompute.js';

export interface ReportWindow {
  start: Date;
  end: Date;
  startDay: string;
  endDay: string;
}

export interface ReportQuery {
  window: ReportWindow;
  zone: string;
  vehicleIds?: number[];
  jurisdictions?: string[];
  fuelType?: string;
}

export interface TripRow {
  vehicleId: number;
  date: string;
  jurisdiction: string;
  distanceKm: number;
  gapKm: number;
  startTime: string;
  endTime: string;
  startLat: number;
  startLon: number;
  endLat: number;
  endLon: number;
  startOdometerKm: number | null;
  endOdometerKm: number | null;
  startCalibratedKm: number | null;
  endCalibratedKm: number | null;
}

export interface SummaryRow {
  vehicleId: number;
  jurisdiction: string;
  distanceKm: number;
}

/** The company's IFTA vehicles matching the filters, with their fuel types. */
export async function iftaVehicles(
  db: Db,
  companyId: number,
  q: { vehicleIds?: number[]; fuelType?: string },
): Promise<Map<number, string | null>> {
  return new Map((await iftaVehicleFuelTypes(db.kysely, companyId, q)).map((v) => [v.id, v.fuel_type]));
}

/** Refreshes, then reads the fragments of `vehicleIds` in the window (placed ones only unless told). */
export async function windowFragments(
  db: Db,
  companyId: number,
  vehicleIds: number[],
  window: ReportWindow,
  opts: { jurisdictions?: string[]; unplaced?: boolean } = {},
) {
  if (!vehicleIds.length) return [];
  await refresh(db, companyId, { vehicleIds, start: window.start, end: window.end });
  let q = db.kysely
    .selectFrom('ifta_fragments')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('vehicle_id', 'in', vehicleIds)
    .where('bucket_start', '>=', toIso(window.start))
    .where('bucket_start', '<', toIso(window.end));
  if (opts.jurisdictions?.length) q = q.where('jurisdiction', 'in', opts.jurisdictions);
  else if (!opts.unplaced) q = q.where('jurisdiction', '!=', UNPLACED);
  return q.orderBy('vehicle_id').orderBy('bucket_start').orderBy('jurisdiction').orderBy('owner_day').execute();
}

/** Maps an instant to its local day in the window: the starts of every local day, searched by bisection. */
export function dayIndexer(window: ReportWindow, zone: string): (ms: number) => string | null {
  const days: string[] = [];
  const starts: number[] = [];
  for (
    let d = window.startDay;
    d <= window.endDay;
    d = new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
  ) {
    days.push(d);
    starts.push(startOfDay(d, zone).getTime());
  }
  const end = window.end.getTime();
  return (ms) => {
    if (ms < starts[0] || ms >= end) return null;
    let lo = 0,
      hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= ms) lo = mid;
      else hi = mid - 1;
    }
    return days[lo];
  };
}

export async function tripRows(db: Db, companyId: number, q: ReportQuery): Promise<TripRow[]> {
  const vehicles = await iftaVehicles(db, companyId, q);
  const frags = await windowFragments(db, companyId, [...vehicles.keys()], q.window, {
    jurisdictions: q.jurisdictions,
  });
  const dayOf = dayIndexer(q.window, q.zone);
  const rows = new Map<string, TripRow>();
  for (const f of frags) {
    const date = dayOf(Date.parse(f.bucket_start));
    if (!date) continue;
    const key = `${f.vehicle_id}|${date}|${f.jurisdiction}`;
    const r = rows.get(key);
    if (!r) {
      rows.set(key, {
        vehicleId: f.vehicle_id,
        date,
        jurisdiction: f.jurisdiction,
        distanceKm: f.distance_km,
        gapKm: f.gap_km,
        startTime: f.start_time,
        endTime: f.end_time,
        startLat: f.start_lat,
        startLon: f.start_lon,
        endLat: f.end_lat,
        endLon: f.end_lon,
        startOdometerKm: f.start_odometer_km,
        endOdometerKm: f.end_odometer_km,
        startCalibratedKm: f.start_calibrated_km,
        endCalibratedKm: f.end_calibrated_km,
      });
      continue;
    }
    r.distanceKm += f.distance_km;
    r.gapKm += f.gap_km;
    if (f.start_time < r.startTime) {
      Object.assign(r, {
        startTime: f.start_time,
        startLat: f.start_lat,
        startLon: f.start_lon,
        startOdometerKm: f.start_odometer_km,
        startCalibratedKm: f.start_calibrated_km,
      });
    }
    if (f.end_time > r.endTime) {
      Object.assign(r, {
        endTime: f.end_time,
        endLat: f.end_lat,
        endLon: f.end_lon,
        endOdometerKm: f.end_odometer_km,
        endCalibratedKm: f.end_calibrated_km,
      });
    }
  }
  return [...rows.values()].sort((a, b) =>
    a.date < b.date
      ? -1
      : a.date > b.date
        ? 1
        : a.vehicleId - b.vehicleId || (a.jurisdiction < b.jurisdiction ? -1 : 1),
  );
}

export async function summaryRows(db: Db, companyId: number, q: ReportQuery): Promise<SummaryRow[]> {
  const vehicles = await iftaVehicles(db, companyId, q);
  const frags = await windowFragments(db, companyId, [...vehicles.keys()], q.window, {
    jurisdictions: q.jurisdictions,
  });
  const rows = new Map<string, SummaryRow>();
  for (const f of frags) {
    const key = `${f.vehicle_id}|${f.jurisdiction}`;
    const r = rows.get(key);
    if (r) r.distanceKm += f.distance_km;
    else rows.set(key, { vehicleId: f.vehicle_id, jurisdiction: f.jurisdiction, distanceKm: f.distance_km });
  }
  return [...rows.values()].sort((a, b) => a.vehicleId - b.vehicleId || (a.jurisdiction < b.jurisdiction ? -1 : 1));
}

/** Stable ids of trip rows (created on first sight), in the order of `rows`. */
export async function tripIds(
  db: Db,
  companyId: number,
  rows: Array<{ vehicleId: number; date: string; jurisdiction: string }>,
): Promise<number[]> {
  if (!rows.length) return [];
  const values = rows.map((r) => ({
    company_id: companyId,
    vehicle_id: r.vehicleId,
    date: r.date,
    jurisdiction: r.jurisdiction,
  }));
  await db.kysely
    .insertInto('ifta_trip_ids')
    .values(values)
    .onConflict((oc) => oc.columns(['vehicle_id', 'date', 'jurisdiction']).doNothing())
    .execute();
  const found = await db.kysely
    .selectFrom('ifta_trip_ids')
    .select(['id', 'vehicle_id', 'date', 'jurisdiction'])
    .where('vehicle_id', 'in', [...new Set(rows.map((r) => r.vehicleId))])
    .where('date', 'in', [...new Set(rows.map((r) => r.date))])
    .execute();
  const byKey = new Map(found.map((f) => [`${f.vehicle_id}|${f.date}|${f.jurisdiction}`, f.id]));
  return rows.map((r) => byKey.get(`${r.vehicleId}|${r.date}|${r.jurisdiction}`)!);
}
