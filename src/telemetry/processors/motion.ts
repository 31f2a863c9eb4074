/**
 * Driving periods: the D, PC and YM segments of the ELD motion rules (docs/reference/domain-rules.md §4.1, §2.2,
 * §7 D-10 (a)).
 * - A period opens at the first fix above `movingSpeedKph`, typed by the PC/YM indication and owned by
 *   the driver logged in. When either changes while the vehicle moves, the period ends there and the
 *   next one starts at the same instant.
 * - Once the vehicle has stood still for `drivingStopTimeoutS` (the 5-minute prompt plus 1 unanswered
 *   minute) the period ends at stop + timeout, with the stop position as destination. A driver's status
 *   event before then ends it at that event: a duty status other than driving, or a login or logout.
 * - An engine stop is not a status event: the period ends at stop + timeout (the stop being the engine
 *   stop if the vehicle was still moving). It is written at once, ending ahead of the records, and
 *   corrected if a status event comes before that end (it ends there) or the vehicle moves on (it
 *   goes on).
 * - Across a data gap longer than `gapS` nothing is invented: an open period ends at the last fix before
 *   the gap.
 * A fix without speed gets the speed implied by the distance from the previous fix. Distance comes
 * from the odometer when both ends have one, else from the fixes (segments where the vehicle moved,
 * GPS jumps left out).
 */
import { exceeds, haversineM } from '../units.js';
import {
  hasFix,
  type Ctx,
  type Input,
  type Output,
  type PeriodRow,
  type RecordIn,
  type Step,
  type Env,
} from './types.js';

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
  /** A period ended by an engine stop whose end (stop + timeout) is still ahead: it may be corrected. */
  tail?: { open: Open; end: number } | null;
}

export const initialMotion = (): MotionState => ({ open: null, last: null, tail: null });

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

function opening(t: number, ctx: Ctx, at: Point): Open {
  const row: PeriodRow = {
    start: t,
    end: null,
    driverId: ctx.driverId,
    type: ctx.special ?? 'driving',
    source: ctx.source,
    startKm: at.km,
    endKm: null,
    distanceKm: null,
    origin: at.description,
    originLat: at.lat,
    originLon: at.lon,
    destination: null,
    destinationLat: null,
    destinationLon: null,
  };
  return { row, gpsM: 0, stopAt: null, stop: null };
}

/** Whether the period's type or driver is no longer the vehicle's. */
const differs = (row: PeriodRow, ctx: Ctx) => (ctx.special ?? 'driving') !== row.type || ctx.driverId !== row.driverId;

/** A driver's status event that ends a standing period (D-10 (a)): a duty status other than driving, or another driver. */
function endsStanding(r: Input, row: PeriodRow): boolean {
  if (r.type === 'duty_status') return r.data?.status !== 'driving';
  return r.type === 'driver' && r.ctx.driverId !== row.driverId;
}

/**
 * Faster than the device protocol's top speed (400 km/h), a move between two fixes is a GPS jump (a
 * phone's bad fix), not driving: it implies no speed and adds no distance.
 */
const JUMP_KPH = 400;

/** The speed of `m` meters covered in `ms` milliseconds, kph. */
const kph = (m: number, ms: number) => (m / (ms / 1000)) * 3.6;

/** The fix's speed, or the speed implied by the distance from the previous fix (kph), or null. */
export function speedOf(r: RecordIn & { lat: number; lon: number }, last: Point | null, gapS: number): number | null {
  if (r.speedKph !== null) return r.speedKph;
  if (!last || r.t <= last.t || r.t - last.t > gapS * 1000) return null;
  const implied = kph(haversineM(last.lat, last.lon, r.lat, r.lon), r.t - last.t);
  return implied > JUMP_KPH ? null : implied;
}

/**
 * What a record at `t` finds of the open period once the rules a fix would apply there have run: ended
 * at the last fix across a data gap, or at stop + timeout when that has passed; else still open.
 */
function settled(open: Open | null, last: MotionState['last'], t: number, env: Env, outputs: Output[]): Open | null {
  if (!open) return null;
  if (last && t - last.t > env.th.gapS * 1000) {
    outputs.push(closeAt(open, last.t, last));
    return null;
  }
  const timeout = env.th.drivingStopTimeoutS * 1000;
  if (open.stopAt !== null && t >= open.stopAt + timeout) {
    outputs.push(closeAt(open, open.stopAt + timeout, open.stop!));
    return null;
  }
  return open;
}

function statusEvent(state: MotionState, r: Input, env: Env, outputs: Output[]): MotionState {
  const { last } = state;
  let { tail } = state;
  let open = settled(state.open, last, r.t, env, outputs);
  if (tail && endsStanding(r, tail.open.row)) {
    outputs.push(closeAt(tail.open, r.t, tail.open.stop!));
    tail = null;
  } else if (open && open.stopAt !== null && endsStanding(r, open.row)) {
    outputs.push(closeAt(open, r.t, open.stop!));
    open = null;
  } else if (open && open.stopAt === null && differs(open.row, r.ctx)) {
    // PC/YM set or cleared, or another driver, on the move: the period ends here and the next begins.
    const at = last ?? pointOfRow(open.row);
    outputs.push(closeAt(open, r.t, at));
    open = opening(r.t, r.ctx, at);
    outputs.push({ kind: 'period', row: open.row });
  }
  return { open, last, tail };
}

function engineStop(state: MotionState, r: Input, env: Env, outputs: Output[]): MotionState {
  const { last } = state;
  const open = settled(state.open, last, r.t, env, outputs);
  if (!open) return { open: null, last, tail: state.tail };
  const stopAt = open.stopAt ?? r.t;
  const stop = open.stop ?? (hasFix(r) ? point(r) : (last ?? pointOfRow(open.row)));
  const closed: Open = { row: open.row, gpsM: open.gpsM, stopAt, stop };
  const end = stopAt + env.th.drivingStopTimeoutS * 1000;
  outputs.push(closeAt(closed, end, stop));
  return { open: null, last, tail: end > r.t ? { open: closed, end } : null };
}

export function motion(state: MotionState, r: Input, env: Env): Step<MotionState> {
  const th = env.th;
  const outputs: Output[] = [];
  if (state.tail && r.t >= state.tail.end) state = { open: state.open, last: state.last, tail: null };
  if (r.type === 'duty_status' || r.type === 'driver') return { state: statusEvent(state, r, env, outputs), outputs };
  if (r.type === 'engine' && r.data?.state === 'off') return { state: engineStop(state, r, env, outputs), outputs };
  if (r.type !== 'location' || !hasFix(r)) return { state, outputs };

  let { open, tail } = state;
  const last = state.last;
  const here = point(r);
  const gap = last !== null && r.t - last.t > th.gapS * 1000;
  if (gap) {
    if (open) outputs.push(closeAt(open, last.t, last));
    open = null;
  }
  const speed = r.ctx.speedKph;
  const moving = speed !== null && exceeds(speed, th.movingSpeedKph);
  if (moving && tail) {
    // Moving again before the engine stop's timeout ran out: the period goes on (reopened), unless
    // its type or driver changed meanwhile or data went missing; then it ends where the next begins.
    if (!gap && !differs(tail.open.row, r.ctx)) {
      open = { row: tail.open.row, gpsM: tail.open.gpsM, stopAt: null, stop: null };
      outputs.push({ kind: 'period', row: open.row });
    } else {
      outputs.push(closeAt(tail.open, r.t, tail.open.stop!));
    }
    tail = null;
  }
  // Standing after a gap: the tail's end stands (nothing moved before it), nothing more to correct.
  if (gap) tail = null;
  if (moving) {
    if (open && differs(open.row, r.ctx)) {
      outputs.push(closeAt(open, r.t, here));
      open = null;
    }
    if (!open) {
      open = opening(r.t, r.ctx, here);
      outputs.push({ kind: 'period', row: open.row });
    } else {
      open = { row: open.row, gpsM: open.gpsM + segment(last, here, true), stopAt: null, stop: null };
    }
  } else if (open) {
    const gpsM = open.gpsM + segment(last, here, last?.moving ?? false);
    if (open.stopAt === null) {
      open = { row: open.row, gpsM, stopAt: r.t, stop: here };
    } else if (r.t - open.stopAt >= th.drivingStopTimeoutS * 1000) {
      outputs.push(
        closeAt(
          { row: open.row, gpsM, stopAt: open.stopAt, stop: open.stop },
          open.stopAt + th.drivingStopTimeoutS * 1000,
          open.stop!,
        ),
      );
      open = null;
    } else {
      open = { row: open.row, gpsM, stopAt: open.stopAt, stop: open.stop };
    }
  }
  // State objects are spelled out rather than spread: this runs for every fix.
  return {
    state: {
      open,
      last: { t: here.t, lat: here.lat, lon: here.lon, km: here.km, description: here.description, moving },
      tail,
    },
    outputs,
  };
}

function point(r: Input & { lat: number; lon: number }): Point {
  return { t: r.t, lat: r.lat, lon: r.lon, km: r.odometerKm, description: r.description };
}

function pointOfRow(row: PeriodRow): Point {
  return { t: row.start, lat: row.originLat ?? 0, lon: row.originLon ?? 0, km: row.startKm, description: row.origin };
}

/** Meters from a to b along the GPS path: nothing when it does not count or is a GPS jump (over JUMP_KPH). */
export function segment(
  a: Pick<Point, 't' | 'lat' | 'lon'> | null,
  b: Pick<Point, 't' | 'lat' | 'lon'>,
  counts: boolean,
): number {
  if (!a || !counts) return 0;
  const m = haversineM(a.lat, a.lon, b.lat, b.lon);
  return m === 0 || (b.t > a.t && kph(m, b.t - a.t) <= JUMP_KPH) ? m : 0;
}
