/**
 * Utilization (docs/reference/domain-rules.md §4.4): engine-on time split into driving (moving) and idle (standing, all
 * of it, not only idle events), with the fuel burnt and the distance driven, per driver and per
 * 15-minute bucket (so that company-local days, including half-hour zones, add up exactly). The time
 * between two consecutive records is classified by the state at its start; spans longer than `gapS`
 * count for nothing. A vehicle without engine information counts as running while it moves. Idle time
 * with the power take-off engaged is also counted apart (a part of idle time), so that reports can
 * leave it out (D-3).
 */
import { exceeds, haversineM } from '../units.js';
import { hasFix, type Input, type Output, type Step, type Env, type UtilizationRow } from './types.js';

export const BUCKET_MS = 15 * 60_000;

interface Mark {
  t: number;
  running: boolean;
  moving: boolean;
  pto?: boolean;
  driverId: number | null;
  fuelL: number | null;
  km: number | null;
  lat: number | null;
  lon: number | null;
}

export interface UtilizationState {
  last: Mark | null;
}

export const initialUtilization = (): UtilizationState => ({ last: null });

/** Spreads one span over the buckets it covers, in proportion to the time in each. */
export function spread(from: number, to: number, total: Omit<UtilizationRow, 'bucketStart'>): UtilizationRow[] {
  const out: UtilizationRow[] = [];
  const span = to - from;
  for (let b = Math.floor(from / BUCKET_MS) * BUCKET_MS; b < to; b += BUCKET_MS) {
    const part = (Math.min(to, b + BUCKET_MS) - Math.max(from, b)) / span;
    out.push({
      driverId: total.driverId,
      bucketStart: b,
      drivingS: total.drivingS * part,
      idleS: total.idleS * part,
      drivingFuelL: total.drivingFuelL * part,
      idleFuelL: total.idleFuelL * part,
      distanceKm: total.distanceKm * part,
      ptoIdleS: total.ptoIdleS * part,
      ptoIdleFuelL: total.ptoIdleFuelL * part,
    });
  }
  return out;
}

export function utilization(state: UtilizationState, r: Input, env: Env): Step<UtilizationState> {
  const th = env.th;
  const isFix = r.type === 'location' && hasFix(r);
  if (!isFix && r.type !== 'engine') return { state, outputs: [] };
  const prev = state.last;
  // Standing is the idle processor's standing (at or below idleSpeedKph, D-3), so crawling between
  // 3 and 5 mph is driving time here, never idle time without an idle event.
  const moving = isFix ? exceeds(r.ctx.speedKph ?? 0, th.idleSpeedKph) : false;
  const running = r.ctx.engine === 'on' || (r.ctx.engine === 'unknown' && moving);
  const mark: Mark = {
    t: r.t,
    running,
    moving,
    pto: r.ctx.pto,
    driverId: r.ctx.driverId,
    fuelL: r.fuelUsedL ?? prev?.fuelL ?? null,
    km: r.odometerKm ?? null,
    lat: hasFix(r) ? r.lat : (prev?.lat ?? null),
    lon: hasFix(r) ? r.lon : (prev?.lon ?? null),
  };
  const outputs: Output[] = [];
  if (prev && prev.running && r.t > prev.t && r.t - prev.t <= th.gapS * 1000) {
    const seconds = (r.t - prev.t) / 1000;
    const fuel =
      prev.fuelL !== null && r.fuelUsedL !== null && r.fuelUsedL >= prev.fuelL ? r.fuelUsedL - prev.fuelL : 0;
    let km = 0;
    if (prev.moving) {
      if (prev.km !== null && r.odometerKm !== null && r.odometerKm >= prev.km) km = r.odometerKm - prev.km;
      else if (prev.lat !== null && prev.lon !== null && mark.lat !== null && mark.lon !== null)
        km = haversineM(prev.lat, prev.lon, mark.lat, mark.lon) / 1000;
    }
    const pto = prev.pto === true;
    const total = prev.moving
      ? {
          driverId: prev.driverId,
          drivingS: seconds,
          idleS: 0,
          drivingFuelL: fuel,
          idleFuelL: 0,
          distanceKm: km,
          ptoIdleS: 0,
          ptoIdleFuelL: 0,
        }
      : {
          driverId: prev.driverId,
          drivingS: 0,
          idleS: seconds,
          drivingFuelL: 0,
          idleFuelL: fuel,
          distanceKm: 0,
          ptoIdleS: pto ? seconds : 0,
          ptoIdleFuelL: pto ? fuel : 0,
        };
    for (const row of spread(prev.t, r.t, total)) outputs.push({ kind: 'utilization', row });
  }
  return { state: { last: mark }, outputs };
}
