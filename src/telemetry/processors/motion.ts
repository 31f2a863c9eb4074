/**
 * Driving periods (domain-rules §4.1, §2.2, §7 D-10 (a)). A period opens at the first fix above
 * `movingSpeedKph`; once the vehicle has stood still for `drivingStopTimeoutS` (the ELD's 5-minute
 * prompt plus 1 unanswered minute) it ends at stop + timeout, with the stop position as destination.
 * An engine stop ends it at once. Across a data gap longer than `gapS` nothing is invented: an open
 * period ends at the last fix before the gap. A fix without speed gets the speed implied by the
 * distance from the previous fix. Distance comes from the odometer when both ends have one, else from
 * the fixes (segments where the vehicle moved).
 */
import { haversineM } from '../units.js';
import { hasFix, type Input, type Output, type PeriodRow, type RecordIn, type Step, type Env } from './types.js';

interface Point {
  t: number;
  lat: number;
  lon: number;
  km: number | null;
  description: string | null;
}

interface Open {
  row: PeriodRow;
  gpsM: number;
  stopAt: number | null;
  stop: Point | null;
}

export interface MotionState {
  open: Open | null;
  last: (Point & { moving: boolean }) | null;
}

export const initialMotion = (): MotionState => ({ open: null, last: null });

function closeAt(open: Open, end: number, at: Point): Output {
  const startKm = open.row.startKm;
  const odo = startKm !== null && at.km !== null && at.km >= startKm ? at.km - startKm : null;
  const row: PeriodRow = {
    ...open.row,
    end,
    endKm: at.km,
    distanceKm: odo ?? open.gpsM / 1000,
    destination: at.description,
    destinationLat: at.lat,
    destinationLon: at.lon,
  };
  return { kind: 'period', row };
}

/** The fix's speed, or the speed implied by the distance from the previous fix (kph), or null. */
export function speedOf(r: RecordIn & { lat: number; lon: number }, last: Point | null, gapS: number): number | null {
  if (r.speedKph !== null) return r.speedKph;
  if (!last || r.t <= last.t || r.t - last.t > gapS * 1000) return null;
  return (haversineM(last.lat, last.lon, r.lat, r.lon) / ((r.t - last.t) / 1000)) * 3.6;
}

export function motion(state: MotionState, r: Input, env: Env): Step<MotionState> {
  const th = env.th;
  const outputs: Output[] = [];
  let open = state.open;
  const last = state.last;

  if (r.type === 'engine' && r.data?.state === 'off') {
    if (open) {
      let end = r.t;
      if (open.stopAt !== null) end = Math.min(end, open.stopAt + th.drivingStopTimeoutS * 1000);
      if (last && r.t - last.t > th.gapS * 1000) end = Math.min(end, last.t);
      const at = open.stop ?? (hasFix(r) && end === r.t ? point(r) : (last ?? pointOfRow(open.row)));
      outputs.push(closeAt(open, end, at));
      open = null;
    }
    return { state: { open, last }, outputs };
  }
  if (r.type !== 'location' || !hasFix(r)) return { state, outputs };

  const here = point(r);
  if (open && last && r.t - last.t > th.gapS * 1000) {
    outputs.push(closeAt(open, last.t, last));
    open = null;
  }
  const speed = r.ctx.speedKph;
  const moving = speed !== null && speed > th.movingSpeedKph;
  if (moving) {
    if (!open) {
      const row: PeriodRow = {
        start: r.t, end: null, driverId: r.ctx.driverId,
        type: r.ctx.special ?? 'driving', source: r.ctx.source,
        startKm: here.km, endKm: null, distanceKm: null,
        origin: here.description, originLat: here.lat, originLon: here.lon,
        destination: null, destinationLat: null, destinationLon: null,
      };
      open = { row, gpsM: 0, stopAt: null, stop: null };
      outputs.push({ kind: 'period', row });
    } else {
      open = { row: open.row, gpsM: open.gpsM + segment(last, here, true), stopAt: null, stop: null };
    }
  } else if (open) {
    const gpsM = open.gpsM + segment(last, here, last?.moving ?? false);
    if (open.stopAt === null) {
      open = { row: open.row, gpsM, stopAt: r.t, stop: here };
    } else if (r.t - open.stopAt >= th.drivingStopTimeoutS * 1000) {
      outputs.push(closeAt({ row: open.row, gpsM, stopAt: open.stopAt, stop: open.stop }, open.stopAt + th.drivingStopTimeoutS * 1000, open.stop!));
      open = null;
    } else {
      open = { row: open.row, gpsM, stopAt: open.stopAt, stop: open.stop };
    }
  }
  // State objects are spelled out rather than spread: this runs for every fix.
  return { state: { open, last: { t: here.t, lat: here.lat, lon: here.lon, km: here.km, description: here.description, moving } }, outputs };
}

function point(r: Input & { lat: number; lon: number }): Point {
  return { t: r.t, lat: r.lat, lon: r.lon, km: r.odometerKm, description: r.description };
}

function pointOfRow(row: PeriodRow): Point {
  return { t: row.start, lat: row.originLat ?? 0, lon: row.originLon ?? 0, km: row.startKm, description: row.origin };
}

function segment(a: Point | null, b: Point, counts: boolean): number {
  return a && counts ? haversineM(a.lat, a.lon, b.lat, b.lon) : 0;
}
