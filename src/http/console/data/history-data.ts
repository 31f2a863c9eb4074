/**
 * One vehicle's day for the console's history page (./history.ts, assets/history.js): the track of one
 * local day of the company (its time zone), with what happened on it, each read through its owner:
 * - the track: the located records of the day (telemetry/queries/locations.ts, an hour at a time);
 * - stops: where the track stood (at most STOP_KPH and within STOP_RADIUS_M of where it stopped) for
 *   STOP_MIN_S or longer, from the first standing fix to the first fix that moved on (or the last of the
 *   day), so a stop with the device off in between counts whole;
 * - idle events overlapping the day, as /v1/idle_events (without PTO idling under IDLE_EXCLUDE_PTO);
 * - speeding events, harsh events (hard brake, acceleration, corner) and geofence visits that began on
 *   the day, as /v1/speeding_events, /v1/driver_performance_events and /v1/geofence_events read them
 *   (telemetry/queries/derived.ts), with the geofences' names.
 * A day of one-second fixes is 86,400 points: the track sent is thinned evenly to MAX_POINTS (the first
 * and last kept), after the stops were found on every fix.
 */
import type { Db } from '../../../storage/db.js';
import { fromBool } from '../../../storage/values.js';
import { dayWindow, localDate, TIME_ZONES } from '../../../core/time-zone.js';
import { validDay } from '../../../wire/record-dates.js';
import { companyTimeZone, getCompany } from '../../../domain/companies/service.js';
import { findGeofence } from '../../../domain/geofences/repository.js';
import { listGeofenceEvents, listIdleEvents, listPerformanceEvents } from '../../../telemetry/queries/derived.js';
import { vehicleHistorySlices } from '../../../telemetry/queries/locations.js';
import { haversineM } from '../../../telemetry/units.js';
import { visibleVehicle } from './vehicles-data.js';
import type { Viewer } from './data.js';

export const MAX_POINTS = 10_000;
export const STOP_MIN_S = 300;
export const STOP_KPH = 3;
export const STOP_RADIUS_M = 100;
/** More events of one kind in a day than any vehicle has; the rest are left out. */
const MAX_EVENTS = 1000;

/** A fix of the track: [epoch ms, lat, lon, speed km/h or null]. */
export type TrackPoint = [number, number, number, number | null];

export interface Stop {
  start: string;
  end: string;
  duration_s: number;
  lat: number;
  lon: number;
}

export interface DayHistory {
  vehicle: { id: number; number: string };
  date: string;
  today: string;
  zone: { name: string; iana: string };
  metric: boolean;
  /** Fixes of the day after thinning, and how many the day had. */
  points: TrackPoint[];
  fixes: number;
  stops: Stop[];
  idle: Array<{ start: string; end: string; duration_s: number; lat: number; lon: number; location: string | null }>;
  speeding: Array<{
    start: string;
    end: string;
    duration_s: number;
    lat: number | null;
    lon: number | null;
    max_speed_kph: number | null;
    location: string | null;
  }>;
  /** Hard brakes, accelerations and corners: the peak in g, signed (negative for braking). */
  harsh: Array<{
    type: Harsh;
    start: string;
    lat: number | null;
    lon: number | null;
    peak_g: number | null;
    speed_kph: number | null;
    location: string | null;
  }>;
  geofences: Array<{ geofence_id: number; name: string; start: string; end: string | null }>;
}

const HARSH = ['hard_brake', 'hard_accel', 'hard_corner'] as const;
type Harsh = (typeof HARSH)[number];

const iso = (ms: number) => new Date(ms).toISOString();
/** A stored time as the API writes it (ISO 8601, UTC, milliseconds). */
const at = (s: string) => iso(Date.parse(s));
const secs = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 1000;

/** The company's zone and today's date there. */
export async function companyDay(db: Db, v: Viewer, now = Date.now()) {
  const [tz, company] = await Promise.all([companyTimeZone(db, v.companyId), getCompany(db, v.companyId)]);
  const zone = tz ? { name: tz.name, iana: tz.zone } : { name: 'UTC', iana: TIME_ZONES.UTC };
  return { zone, metric: fromBool(company.metric_units), today: localDate(now, zone.iana) };
}

/**
 * The day asked for (today without one), or a 400 with the API's message for a date that is not a day;
 * 404 for a vehicle the viewer does not see.
 */
export async function historyTarget(db: Db, v: Viewer, vehicleId: number, date: string | undefined, now = Date.now()) {
  const day = await companyDay(db, v, now);
  const d = date?.trim() || day.today;
  validDay('date', d);
  const row = await visibleVehicle(db, v, vehicleId);
  return { ...day, date: d, vehicle: { id: row.id, number: row.number } };
}

/** Where the track stood still for STOP_MIN_S or longer. */
export function findStops(points: TrackPoint[]): Stop[] {
  const stops: Stop[] = [];
  const standing = (p: TrackPoint, at: TrackPoint) =>
    (p[3] === null || p[3] <= STOP_KPH) && haversineM(at[1], at[2], p[1], p[2]) <= STOP_RADIUS_M;
  let i = 0;
  while (i < points.length) {
    const first = points[i];
    if (!standing(first, first)) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < points.length && standing(points[j], first)) j++;
    // Until the fix that moved on, or the last standing fix of the day.
    const end = j < points.length ? points[j][0] : points[j - 1][0];
    if ((end - first[0]) / 1000 >= STOP_MIN_S)
      stops.push({
        start: iso(first[0]),
        end: iso(end),
        duration_s: (end - first[0]) / 1000,
        lat: first[1],
        lon: first[2],
      });
    i = j;
  }
  return stops;
}

/** Every `k`-th point so that at most `max` remain, the last always kept. */
export function thin(points: TrackPoint[], max = MAX_POINTS): TrackPoint[] {
  if (points.length <= max) return points;
  const k = Math.ceil(points.length / (max - 1));
  const out = points.filter((_, i) => i % k === 0);
  if (out.at(-1) !== points.at(-1)) out.push(points.at(-1)!);
  return out;
}

/** The vehicle's day: track, stops, idling, speeding, harsh events and geofence visits. */
export async function dayHistory(
  db: Db,
  v: Viewer,
  vehicleId: number,
  date: string | undefined,
  opts: { excludePto: boolean },
  now = Date.now(),
): Promise<DayHistory> {
  const target = await historyTarget(db, v, vehicleId, date, now);
  const window = dayWindow(target.date, target.date, target.zone.iana);
  const all: TrackPoint[] = [];
  for await (const rows of vehicleHistorySlices(db, v, vehicleId, window.start, window.end))
    for (const r of rows)
      if (r.lat !== null && r.lon !== null) all.push([Date.parse(r.fix_time), r.lat, r.lon, r.speed_kph]);
  const f = { window, vehicleIds: [vehicleId] };
  const [idle, performance, visits] = await Promise.all([
    listIdleEvents(db, v, { ...f, excludePto: opts.excludePto }, MAX_EVENTS, 0),
    listPerformanceEvents(db, v, { ...f, types: ['speeding', ...HARSH] }, 2 * MAX_EVENTS, 0),
    listGeofenceEvents(db, v, f, MAX_EVENTS, 0),
  ]);
  const names = new Map<number, string>();
  for (const id of new Set(visits.rows.map((g) => g.geofence_id)))
    names.set(id, (await findGeofence(db.kysely, v.companyId, id))?.name ?? `Geofence ${id}`);
  return {
    vehicle: target.vehicle,
    date: target.date,
    today: target.today,
    zone: target.zone,
    metric: target.metric,
    points: thin(all),
    fixes: all.length,
    stops: findStops(all),
    idle: idle.rows.map((e) => ({
      start: at(e.start_time),
      end: at(e.end_time),
      duration_s: secs(e.start_time, e.end_time),
      lat: e.lat,
      lon: e.lon,
      location: e.location,
    })),
    speeding: performance.rows
      .filter((e) => e.type === 'speeding')
      .map((e) => ({
        start: at(e.start_time),
        end: at(e.end_time),
        duration_s: secs(e.start_time, e.end_time),
        lat: e.lat,
        lon: e.lon,
        max_speed_kph: e.max_speed_kph,
        location: e.location,
      })),
    // The query asked for speeding and HARSH only: whatever is not speeding is harsh.
    harsh: performance.rows
      .filter((e) => e.type !== 'speeding')
      .map((e) => ({
        type: e.type as Harsh,
        start: at(e.start_time),
        lat: e.lat,
        lon: e.lon,
        peak_g: e.peak_g,
        speed_kph: e.start_speed_kph,
        location: e.location,
      })),
    geofences: visits.rows.map((g) => ({
      geofence_id: g.geofence_id,
      name: names.get(g.geofence_id)!,
      start: at(g.start_time),
      end: g.end_time === null ? null : at(g.end_time),
    })),
  };
}
