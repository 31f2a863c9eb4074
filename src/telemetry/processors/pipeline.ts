/**
 * The per-vehicle pipeline: every processor over one record, in a fixed order, status first (the
 * others read its context). `runPipeline` folds a time-ordered list of records; the same function
 * serves live processing and replay. Pure.
 */
import { hasFix, type Ctx, type Env, type Input, type Output, type RecordIn } from './types.js';
import { ctxOf, initialStatus, status, type StatusState } from './status.js';
import { initialMotion, motion, speedOf, type MotionState } from './motion.js';
import { idle, initialIdle, type IdleState } from './idle.js';
import { initialUtilization, utilization, type UtilizationState } from './utilization.js';
import { faults, initialFaults, type FaultState } from './faults.js';
import { initialPerformance, performance, type PerformanceState } from './performance.js';
import { geofences, initialGeofences, type GeofenceState } from './geofence.js';

export interface VehicleState {
  version: 1;
  status: StatusState;
  motion: MotionState;
  idle: IdleState;
  utilization: UtilizationState;
  faults: FaultState;
  performance: PerformanceState;
  geofences: GeofenceState;
}

export function initialState(): VehicleState {
  return {
    version: 1,
    status: initialStatus(),
    motion: initialMotion(),
    idle: initialIdle(),
    utilization: initialUtilization(),
    faults: initialFaults(),
    performance: initialPerformance(),
    geofences: initialGeofences(),
  };
}

function loadVersioned<S extends { version: 1 }>(json: string | null | undefined, initial: () => S): S {
  if (!json) return initial();
  try {
    const s = JSON.parse(json) as S;
    return s?.version === 1 ? { ...initial(), ...s } : initial();
  } catch {
    return initial();
  }
}

/** A persisted state, or a fresh one when it is missing or from another version. */
export function loadState(json: string | null | undefined): VehicleState {
  return loadVersioned(json, initialState);
}

function append(to: Output[], from: Output[]) {
  for (let k = 0; k < from.length; k++) to.push(from[k]);
}

/** One record through every processor. */
export function step(state: VehicleState, r: RecordIn, env: Env): { state: VehicleState; outputs: Output[] } {
  const st = status(state.status, r);
  // The record objects are built for this run, so the context is attached in place (no copy per record).
  const input = r as Input;
  const speed = hasFix(r) ? speedOf(r, state.motion.last, env.th.gapS) : r.speedKph;
  input.ctx = ctxOf(st.state, r.channel === 1 ? 'mobile' : 'eld', speed);
  const m = motion(state.motion, input, env);
  const i = idle(state.idle, input, env);
  const u = utilization(state.utilization, input, env);
  const f = faults(state.faults, input, env);
  const p = performance(state.performance, input, env);
  const g = geofences(state.geofences, input, env);
  const outputs: Output[] = [];
  append(outputs, st.outputs);
  append(outputs, m.outputs);
  append(outputs, i.outputs);
  append(outputs, u.outputs);
  append(outputs, f.outputs);
  append(outputs, p.outputs);
  append(outputs, g.outputs);
  return {
    state: {
      version: 1,
      status: st.state,
      motion: m.state,
      idle: i.state,
      utilization: u.state,
      faults: f.state,
      performance: p.state,
      geofences: g.state,
    },
    outputs,
  };
}

/** Folds records (already in fix-time order) through the pipeline. */
export function runPipeline(
  state: VehicleState,
  records: RecordIn[],
  env: Env,
): { state: VehicleState; outputs: Output[] } {
  const outputs: Output[] = [];
  let s = state;
  for (const r of records) {
    const next = step(s, r, env);
    s = next.state;
    append(outputs, next.outputs);
  }
  return { state: s, outputs };
}

/**
 * An asset's processors: geofences only. An asset gateway reports positions and nothing else (no
 * engine, driver or duty status), so the context is constant and visits carry no drivers.
 */
export interface AssetState {
  version: 1;
  geofences: GeofenceState;
}

const ASSET_CTX: Ctx = { engine: 'unknown', driverId: null, special: null, pto: false, source: 'eld', speedKph: null };

export const initialAssetState = (): AssetState => ({ version: 1, geofences: initialGeofences() });

export function loadAssetState(json: string | null | undefined): AssetState {
  return loadVersioned(json, initialAssetState);
}

/** Folds an asset's records (already in fix-time order) through its processors. */
export function runAssetPipeline(
  state: AssetState,
  records: RecordIn[],
  env: Env,
): { state: AssetState; outputs: Output[] } {
  const outputs: Output[] = [];
  let g = state.geofences;
  for (const r of records) {
    const input = r as Input;
    input.ctx = ASSET_CTX;
    const next = geofences(g, input, env);
    g = next.state;
    append(outputs, next.outputs);
  }
  return { state: { version: 1, geofences: g }, outputs };
}
