/**
 * Idle events (docs/reference/domain-rules.md §4.3, §7 D-3): the engine runs and the vehicle stands (speed at or below
 * `idleSpeedKph`). The event starts when the vehicle is first seen standing with the engine on (or at
 * the engine start while standing) and ends when the speed rises above the limit (`vehicle_moving`)
 * or the engine stops (`engine_stop`); it is an event only when it lasted `idleThresholdS`. Across a
 * data gap it ends at the last record before the gap (`data_gap`). Without engine information (no
 * engine records, no ignition flag) nothing is idle. Fuel: the cumulative fuel counter at both ends.
 * Driver: the one logged in when idling started, else the first to log in while it lasts. PTO: the
 * event is flagged when the power take-off was engaged at any record while it lasted (D-3).
 */
import { hasFix, type Input, type Output, type Step, type Env } from './types.js';
import { exceeds } from '../units.js';

interface Idling {
  start: number;
  /** Unknown until the first fix when idling started at an engine start without a position. */
  lat: number | null;
  lon: number | null;
  driverId: number | null;
  deviceId: number;
  fuelStartL: number | null;
  /** Absent in states saved before it: not engaged. */
  pto?: boolean;
}

export interface IdleState {
  idling: Idling | null;
  lastT: number | null;
  lastFuelL: number | null;
  lastPos: { lat: number; lon: number } | null;
  /** Whether the vehicle was standing at its last fix. */
  standing: boolean;
}

export const initialIdle = (): IdleState => ({
  idling: null,
  lastT: null,
  lastFuelL: null,
  lastPos: null,
  standing: true,
});

function end(idling: Idling, at: number, endType: string, fuelEndL: number | null, env: Env): Output[] {
  const { lat, lon } = idling;
  if (at - idling.start < env.th.idleThresholdS * 1000 || lat === null || lon === null) return [];
  return [
    {
      kind: 'idle',
      row: {
        start: idling.start,
        end: at,
        endType,
        lat,
        lon,
        driverId: idling.driverId,
        deviceId: idling.deviceId,
        fuelStartL: idling.fuelStartL,
        fuelEndL,
        pto: idling.pto === true,
      },
    },
  ];
}

export function idle(state: IdleState, r: Input, env: Env): Step<IdleState> {
  const outputs: Output[] = [];
  let idling = state.idling;
  const fuel = r.fuelUsedL ?? state.lastFuelL;
  if (idling && state.lastT !== null && r.t - state.lastT > env.th.gapS * 1000) {
    outputs.push(...end(idling, state.lastT, 'data_gap', state.lastFuelL, env));
    idling = null;
  }
  // A driver who logs in while the engine already idles (the usual warm-up) is the event's driver, as
  // utilization counts that idling for them; a driver already set stays.
  if (idling && idling.driverId === null && r.ctx.driverId !== null) idling = { ...idling, driverId: r.ctx.driverId };
  const pos = hasFix(r) ? { lat: r.lat, lon: r.lon } : state.lastPos;
  let standing = state.standing;

  if (r.type === 'engine') {
    if (r.data?.state === 'off') {
      if (idling) outputs.push(...end(idling, r.t, 'engine_stop', fuel, env));
      idling = null;
    } else if (!idling && standing && (r.speedKph === null || !exceeds(r.speedKph, env.th.idleSpeedKph))) {
      idling = {
        start: r.t,
        lat: pos?.lat ?? null,
        lon: pos?.lon ?? null,
        driverId: r.ctx.driverId,
        deviceId: r.deviceId,
        fuelStartL: fuel,
        pto: r.ctx.pto,
      };
    }
  } else if (r.type === 'location' && hasFix(r)) {
    // A fix whose speed is unknown (no report, nothing to derive it from) leaves standing as it was.
    standing = r.ctx.speedKph === null ? standing : !exceeds(r.ctx.speedKph, env.th.idleSpeedKph);
    const engineOn = r.ctx.engine === 'on';
    if (engineOn && standing) {
      if (idling && idling.lat === null) idling = { ...idling, lat: r.lat, lon: r.lon };
      if (!idling)
        idling = {
          start: r.t,
          lat: r.lat,
          lon: r.lon,
          driverId: r.ctx.driverId,
          deviceId: r.deviceId,
          fuelStartL: fuel,
          pto: r.ctx.pto,
        };
    } else if (idling) {
      outputs.push(...end(idling, r.t, engineOn ? 'vehicle_moving' : 'engine_stop', fuel, env));
      idling = null;
    }
  }
  // PTO engaged at a record that keeps the vehicle idling (not at the one that ends it, moving with PTO on).
  if (idling && r.ctx.pto && !idling.pto) idling = { ...idling, pto: true };
  return { state: { idling, lastT: r.t, lastFuelL: fuel, lastPos: pos, standing }, outputs };
}
