/**
 * Telemetry settings: the processors' thresholds (units in every name, defaults and accepted ranges from
 * docs/reference/domain-rules.md §4–§7) and the ingestion limits. Read from the environment by src/config/index.ts; the
 * table in docs/telemetry.md lists the same names, defaults and ranges.
 */
import { mphToKph } from './units.js';
import { flag, whole } from '../config/env.js';

export interface Thresholds {
  /** In motion above this speed, kph. ELD rule: at most 5 mph (8.04672 kph). Default 8.04672. */
  movingSpeedKph: number;
  /** A driving period ends once stopped this long (5 min prompt + 1 min, docs/reference/domain-rules.md §7 D-10 (a)), s. Default 360. */
  drivingStopTimeoutS: number;
  /** Idling shorter than this gives no idle event (it still counts as idle time), s. Default 300 (D-3). */
  idleThresholdS: number;
  /** Stationary for idling at or below this speed; the event ends above it, kph. Default 4.828032 (3 mph). */
  idleSpeedKph: number;
  /** Two records further apart than this are a data gap: nothing is interpolated or invented across it, s. Default 600. */
  gapS: number;
  /** Consecutive pings on the new side that confirm a geofence entry or exit (D-4). Default 2. */
  geofenceConfirmPings: number;
  /** A circular geofence is left only beyond radius + this buffer, m (D-4). Default 50. */
  geofenceExitBufferM: number;
  /** Pings reporting a worse accuracy than this are ignored by geofencing, m. Default 100. */
  geofenceMaxAccuracyM: number;
  /** An open fault closes after this much engine-on reporting without it (docs/reference/domain-rules.md D-11), s. Default 300. */
  faultCloseGraceS: number;
  /** Hard brake at or beyond this deceleration, g (Class 8 default, docs/reference/domain-rules.md §6.2). Default 0.30. */
  hardBrakeG: number;
  /** Hard acceleration at or beyond this, g. Default 0.22. */
  hardAccelG: number;
  /** Hard corner at or beyond this lateral acceleration, g. Default 0.28. */
  hardCornerG: number;
  /** Harsh events below this speed are ignored, kph (docs/reference/domain-rules.md D-12). Default 16. */
  harshMinSpeedKph: number;
  /** Accelerations are derived from speed and heading samples at most this far apart, s (docs/reference/domain-rules.md §6.4: at 1 Hz or faster; up to 2 tolerates a late sample). Default 1. */
  derivedMaxSampleS: number;
  /** Policy maximum speed (D-13), kph. Default 120.7008 (75 mph). */
  speedingKph: number;
  /** Speeding must last at least this long to be an event, s. Default 60. */
  speedingMinS: number;
}

export interface TelemetryConfig {
  thresholds: Thresholds;
  /** Records may arrive out of order by up to this much fix time and are still processed in order, s. Default 60. */
  reorderWindowS: number;
  /** How often pending records of quiet vehicles are processed, ms (0 = never in the background). Default 5000. */
  sweepMs: number;
  /** Most records in one device batch. Default 1000. */
  maxBatch: number;
  /** Records timed further than this ahead of the server clock are refused, s. Default 300. */
  futureSlackS: number;
  /** Records older than this are refused, days. Default 400. */
  maxAgeDays: number;
  /** Port of the OsmAnd/Traccar HTTP protocol, or null when off (the default). `on` means 5055. */
  osmandPort: number | null;
  /**
   * Reports leave out idling with the power take-off engaged (D-3: flagged always, excluded on request):
   * `/v1/idle_events` omits PTO idle events and utilization counts no PTO idle time. Default false.
   */
  idleExcludePto: boolean;
}

interface Spec {
  env: string;
  def: number;
  min: number;
  max: number;
  /**
   * Accepted up to `max`, used up to this: 8.05, the rounded 5 mph that was once the default, is read
   * as 5 mph exactly (the ELD rule's ceiling), so that a setting written then still starts the server.
   */
  atMost?: number;
}

/** Miles per hour in kph, exactly (1 mi = 1.609344 km): the rules' limits are set in mph. */
const mph = (v: number) => Math.round(mphToKph(v) * 1e6) / 1e6;
const FIVE_MPH = mph(5);

/** Every threshold with its environment variable, default and accepted range. */
export const THRESHOLD_SPECS: Record<keyof Thresholds, Spec> = {
  movingSpeedKph: { env: 'MOVING_SPEED_KPH', def: FIVE_MPH, min: 1, max: 8.05, atMost: FIVE_MPH },
  drivingStopTimeoutS: { env: 'DRIVING_STOP_TIMEOUT_S', def: 360, min: 3, max: 3600 },
  idleThresholdS: { env: 'IDLE_THRESHOLD_S', def: 300, min: 60, max: 14_400 },
  idleSpeedKph: { env: 'IDLE_SPEED_KPH', def: mph(3), min: 0, max: 8.05, atMost: FIVE_MPH },
  gapS: { env: 'TELEMETRY_GAP_S', def: 600, min: 30, max: 86_400 },
  geofenceConfirmPings: { env: 'GEOFENCE_CONFIRM_PINGS', def: 2, min: 1, max: 10 },
  geofenceExitBufferM: { env: 'GEOFENCE_EXIT_BUFFER_M', def: 50, min: 0, max: 500 },
  geofenceMaxAccuracyM: { env: 'GEOFENCE_MAX_ACCURACY_M', def: 100, min: 5, max: 10_000 },
  faultCloseGraceS: { env: 'FAULT_CLOSE_GRACE_S', def: 300, min: 30, max: 86_400 },
  hardBrakeG: { env: 'HARD_BRAKE_G', def: 0.3, min: 0.1, max: 2 },
  hardAccelG: { env: 'HARD_ACCEL_G', def: 0.22, min: 0.1, max: 2 },
  hardCornerG: { env: 'HARD_CORNER_G', def: 0.28, min: 0.1, max: 2 },
  harshMinSpeedKph: { env: 'HARSH_MIN_SPEED_KPH', def: 16, min: 0, max: 60 },
  derivedMaxSampleS: { env: 'DERIVED_MAX_SAMPLE_S', def: 1, min: 0.1, max: 2 },
  speedingKph: { env: 'SPEEDING_KPH', def: mph(75), min: 30, max: 250 },
  speedingMinS: { env: 'SPEEDING_MIN_S', def: 60, min: 0, max: 3600 },
};

export const DEFAULT_THRESHOLDS: Thresholds = Object.fromEntries(
  Object.entries(THRESHOLD_SPECS).map(([k, s]) => [k, s.def]),
) as unknown as Thresholds;

export const OSMAND_DEFAULT_PORT = 5055;

type Env = Record<string, string | undefined>;

function num(env: Env, name: string, def: number, min: number, max: number, fail: (m: string) => Error): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  const n = Number(raw);
  if (!/^-?\d+(\.\d+)?$/.test(raw.trim()) || !Number.isFinite(n)) throw fail(`${name} must be a number, got "${raw}"`);
  if (n < min || n > max) throw fail(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** A port number, on/yes/true (the default port) or off/no/false (unset: off). */
function osmandPort(env: Env, fail: (m: string) => Error): number | null {
  const raw = (env.OSMAND_PORT ?? '').trim().toLowerCase();
  if (raw === '' || raw === 'off' || raw === 'false' || raw === 'no') return null;
  if (raw === 'on' || raw === 'true' || raw === 'yes') return OSMAND_DEFAULT_PORT;
  if (!/^\d+$/.test(raw)) {
    throw fail(
      `OSMAND_PORT must be a port number (0 to 65535), on (port ${OSMAND_DEFAULT_PORT}) or off, got "${env.OSMAND_PORT}"`,
    );
  }
  return whole({ OSMAND_PORT: raw }, 'OSMAND_PORT', OSMAND_DEFAULT_PORT, 0, 65_535, fail);
}

/** The telemetry settings of an environment; `fail` builds the configuration error to throw. */
export function telemetryConfig(env: Env, fail: (m: string) => Error): TelemetryConfig {
  const thresholds = {} as Thresholds;
  for (const [key, s] of Object.entries(THRESHOLD_SPECS)) {
    thresholds[key as keyof Thresholds] = Math.min(num(env, s.env, s.def, s.min, s.max, fail), s.atMost ?? Infinity);
  }
  if (!Number.isInteger(thresholds.geofenceConfirmPings)) throw fail('GEOFENCE_CONFIRM_PINGS must be a whole number');
  return {
    thresholds,
    reorderWindowS: whole(env, 'TELEMETRY_REORDER_WINDOW_S', 60, 0, 86_400, fail),
    sweepMs: whole(env, 'TELEMETRY_SWEEP_MS', 5000, 0, 3_600_000, fail),
    maxBatch: whole(env, 'TELEMETRY_MAX_BATCH', 1000, 1, 10_000, fail),
    futureSlackS: whole(env, 'TELEMETRY_FUTURE_SLACK_S', 300, 0, 86_400, fail),
    maxAgeDays: whole(env, 'TELEMETRY_MAX_AGE_DAYS', 400, 1, 36_500, fail),
    osmandPort: osmandPort(env, fail),
    idleExcludePto: flag(env, 'IDLE_EXCLUDE_PTO', false, fail),
  };
}
