/**
 * The processor contract: a pure function `(state, input, env) → {state, outputs}` run per vehicle in
 * fix-time order. State is plain JSON (persisted between batches); outputs are rows to upsert by their
 * natural key and, where a webhook would announce them, domain events. No clock, no I/O.
 */
import type { Thresholds } from '../thresholds.js';
import type { GeofenceShape, Bounds } from '../../domain/geofences/geometry.js';
import type { GeofenceGrid } from './geofence-grid.js';

export type Engine = 'on' | 'off' | 'unknown';
export type Special = 'personal_conveyance' | 'yard_move' | null;

/** One stored record as the processors see it (times in epoch ms, units in names). */
export interface RecordIn {
  t: number;
  type: string;
  deviceId: number;
  /** 0 = device protocol, 1 = OsmAnd. */
  channel: number;
  lat: number | null;
  lon: number | null;
  speedKph: number | null;
  bearing: number | null;
  odometerKm: number | null;
  fuelUsedL: number | null;
  description: string | null;
  data: Record<string, any> | null;
  /** When the server received it (ISO-8601): which geofences existed then. Absent: it sees them all. */
  receivedAt?: string;
}

/** What the vehicle-status processor knows when a record is processed (engine, driver, PC/YM). */
export interface Ctx {
  engine: Engine;
  driverId: number | null;
  special: Special;
  /** The power take-off is engaged (D-3: idling with it is flagged). */
  pto: boolean;
  /** Data source named on driving periods: `eld` (device protocol) or `mobile` (OsmAnd). */
  source: string;
  /**
   * A fix's speed, kph: the one it reports, else the one its distance from the previous fix implies
   * (phones often send none); null when neither is known (the first fix, or after a gap). Motion, idle
   * and utilization all judge moving and standing by it, so they cannot disagree.
   */
  speedKph: number | null;
}

export interface Input extends RecordIn {
  ctx: Ctx;
}

export interface GeofenceDef {
  id: number;
  shape: GeofenceShape;
  bounds: Bounds;
  /**
   * When the geofence was created (ISO-8601): records received before then do not see it, the first
   * one received after sets its state silently. Live processing runs as records arrive, so this is
   * what it saw; a replay of the same records then agrees with it. Absent: it always existed.
   */
  since?: string;
}

export interface Env {
  th: Thresholds;
  geofences: GeofenceDef[];
  /** The ids of `geofences`, computed once per run. */
  geofenceIds?: number[];
  /** The latest `since` of `geofences`: a record received at or after it sees them all (computed once per run). */
  geofencesSince?: string;
  /** A grid over `geofences` (./geofence-grid.ts), built once per run; without it every geofence is checked. */
  geofenceGrid?: GeofenceGrid;
}

export interface PeriodRow {
  start: number;
  end: number | null;
  driverId: number | null;
  type: string;
  source: string;
  startKm: number | null;
  endKm: number | null;
  distanceKm: number | null;
  origin: string | null;
  originLat: number | null;
  originLon: number | null;
  destination: string | null;
  destinationLat: number | null;
  destinationLon: number | null;
}

export interface IdleRow {
  start: number;
  end: number;
  endType: string;
  lat: number;
  lon: number;
  driverId: number | null;
  deviceId: number;
  fuelStartL: number | null;
  fuelEndL: number | null;
  /** The power take-off was engaged at some time during the event. */
  pto: boolean;
}

export interface FaultRow {
  key: string;
  protocol: string;
  code: string;
  spn: number | null;
  fmi: number | null;
  sourceAddress: number | null;
  isSid: boolean;
  deviceId: number;
  first: number;
  last: number;
  closedAt: number | null;
  cleared: boolean;
  occurrenceCount: number;
  observations: number;
  lamps: Record<string, boolean> | null;
}

export interface PerformanceRow {
  type: 'hard_brake' | 'hard_accel' | 'hard_corner' | 'speeding';
  start: number;
  end: number;
  deviceId: number;
  driverId: number | null;
  startSpeedKph: number | null;
  endSpeedKph: number | null;
  maxSpeedKph: number | null;
  startBearing: number | null;
  endBearing: number | null;
  peakG: number | null;
  lat: number | null;
  lon: number | null;
  location: string | null;
  odometerKm: number | null;
  samples: {
    lat: number[];
    lon: number[];
    heading: number[];
    speed_kph: number[];
    /** Speeding only: the limit it was measured against, distance (odometer, else GPS path), time-weighted mean and lowest speed. */
    stats?: SpeedingStats;
  };
}

export interface SpeedingStats {
  limit_kph: number;
  distance_km: number;
  avg_kph: number;
  min_kph: number;
}

export interface GeofenceEventRow {
  geofenceId: number;
  start: number;
  end: number | null;
  startDriverId: number | null;
  endDriverId: number | null;
}

export interface UtilizationRow {
  driverId: number | null;
  bucketStart: number;
  drivingS: number;
  idleS: number;
  drivingFuelL: number;
  idleFuelL: number;
  distanceKm: number;
  /** The part of idleS / idleFuelL with the power take-off engaged. */
  ptoIdleS: number;
  ptoIdleFuelL: number;
}

export type Output =
  | { kind: 'period'; row: PeriodRow }
  | { kind: 'idle'; row: IdleRow }
  | { kind: 'fault'; row: FaultRow; event: 'opened' | 'closed' | null }
  | { kind: 'performance'; row: PerformanceRow }
  | { kind: 'geofence'; row: GeofenceEventRow; event: 'entered' | 'exited' }
  | { kind: 'utilization'; row: UtilizationRow }
  | { kind: 'engine'; on: boolean; t: number; lat: number | null; lon: number | null; driverId: number | null }
  /** The gateway lost the vehicle's power at `since` (disconnected), or has it back at `t` after losing it at `since`. */
  | {
      kind: 'gateway';
      disconnected: boolean;
      since: number;
      t: number;
      lat: number | null;
      lon: number | null;
      driverId: number | null;
      deviceId: number;
    };

export interface Step<S> {
  state: S;
  outputs: Output[];
}

export type Processor<S> = (state: S, input: Input, env: Env) => Step<S>;

/** A location record's fix, or null for a record without a position. */
export const hasFix = (r: RecordIn): r is RecordIn & { lat: number; lon: number } => r.lat !== null && r.lon !== null;
