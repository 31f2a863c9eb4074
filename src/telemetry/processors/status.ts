/**
 * Vehicle status: engine state, the logged-in driver and the special driving category (PC/YM), which
 * the other processors read from the context. Emits `engine` outputs (webhook `engine_toggle_event`)
 * when the engine state changes, from engine records or from a fix's `ignition` flag.
 */
import type { Ctx, Engine, Output, RecordIn, Special } from './types.js';

export interface StatusState {
  engine: Engine;
  driverId: number | null;
  special: Special;
}

export const initialStatus = (): StatusState => ({ engine: 'unknown', driverId: null, special: null });

export function status(state: StatusState, r: RecordIn): { state: StatusState; outputs: Output[] } {
  const d = r.data ?? {};
  let { engine, driverId, special } = state;
  const outputs: Output[] = [];
  let turned: Engine | null = null;
  if (r.type === 'engine') turned = d.state === 'on' ? 'on' : 'off';
  else if (r.type === 'location' && typeof d.ignition === 'boolean') turned = d.ignition ? 'on' : 'off';
  if (turned && turned !== engine) {
    // A power cycle ends a PC/YM indication (domain-rules §2.2).
    if (turned === 'off') special = null;
    if (engine !== 'unknown' || r.type === 'engine') {
      outputs.push({ kind: 'engine', on: turned === 'on', t: r.t, lat: r.lat, lon: r.lon, driverId });
    }
    engine = turned;
  }
  if (r.type === 'driver') driverId = d.action === 'login' ? (d.driver_id as number) : null;
  if (r.type === 'duty_status') {
    special = d.status === 'personal_conveyance' || d.status === 'yard_move' ? d.status : null;
  }
  if (engine === state.engine && driverId === state.driverId && special === state.special) return { state, outputs };
  return { state: { engine, driverId, special }, outputs };
}

export function ctxOf(s: StatusState, source: string, speedKph: number | null): Ctx {
  return { engine: s.engine, driverId: s.driverId, special: s.special, source, speedKph };
}
