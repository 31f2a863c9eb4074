/**
 * Vehicle status: engine state, the logged-in driver, the special driving category (PC/YM) and
 * whether the power take-off is engaged (the `pto` flag of location and engine records; an engine
 * stop disengages it), which the other processors read from the context. Emits `engine` outputs (webhook `engine_toggle_event`)
 * when the engine state changes, from engine records or from a fix's `ignition` flag, and `gateway`
 * outputs (webhooks `vehicle_gateway_disconnected` / `_disconnect_ended`) when a `power` record says the
 * gateway lost the vehicle's power or has it back; a repeated report of the same state changes nothing.
 */
import type { Ctx, Engine, Output, RecordIn, Special } from './types.js';

export interface StatusState {
  engine: Engine;
  driverId: number | null;
  special: Special;
  /** Absent in states saved before it: not engaged. */
  pto?: boolean;
  /** Since when (epoch ms) the gateway has been without the vehicle's power; absent or null: connected. */
  unpluggedAt?: number | null;
}

export const initialStatus = (): StatusState => ({ engine: 'unknown', driverId: null, special: null, pto: false });

export function status(state: StatusState, r: RecordIn): { state: StatusState; outputs: Output[] } {
  const d = r.data ?? {};
  let { engine, driverId, special } = state;
  let pto = state.pto === true;
  const outputs: Output[] = [];
  let turned: Engine | null = null;
  if (r.type === 'engine') turned = d.state === 'on' ? 'on' : 'off';
  else if (r.type === 'location' && typeof d.ignition === 'boolean') turned = d.ignition ? 'on' : 'off';
  if (turned && turned !== engine) {
    // A power cycle ends a PC/YM indication (docs/reference/domain-rules.md §2.2).
    if (turned === 'off') {
      special = null;
      pto = false;
    }
    if (engine !== 'unknown' || r.type === 'engine') {
      outputs.push({ kind: 'engine', on: turned === 'on', t: r.t, lat: r.lat, lon: r.lon, driverId });
    }
    engine = turned;
  }
  if (typeof d.pto === 'boolean' && (r.type === 'location' || r.type === 'engine')) pto = d.pto && engine !== 'off';
  let unpluggedAt = state.unpluggedAt ?? null;
  if (r.type === 'power') {
    const lost = d.state === 'disconnected';
    if (lost !== (unpluggedAt !== null)) {
      outputs.push({
        kind: 'gateway',
        disconnected: lost,
        since: lost ? r.t : unpluggedAt!,
        t: r.t,
        lat: r.lat,
        lon: r.lon,
        driverId,
        deviceId: r.deviceId,
      });
      unpluggedAt = lost ? r.t : null;
    }
  }
  if (r.type === 'driver') driverId = d.action === 'login' ? (d.driver_id as number) : null;
  if (r.type === 'duty_status') {
    special = d.status === 'personal_conveyance' || d.status === 'yard_move' ? d.status : null;
  }
  if (
    engine === state.engine &&
    driverId === state.driverId &&
    special === state.special &&
    pto === (state.pto === true) &&
    unpluggedAt === (state.unpluggedAt ?? null)
  )
    return { state, outputs };
  // Left out while connected, so a state without it reads as before.
  return {
    state: unpluggedAt === null ? { engine, driverId, special, pto } : { engine, driverId, special, pto, unpluggedAt },
    outputs,
  };
}

export function ctxOf(s: StatusState, source: string, speedKph: number | null): Ctx {
  return { engine: s.engine, driverId: s.driverId, special: s.special, pto: s.pto === true, source, speedKph };
}
