/** Builders for processor tests: records at seconds from T, and a pipeline run with default thresholds. */
import { DEFAULT_THRESHOLDS, type Thresholds } from '../../../src/telemetry/thresholds.js';
import { initialState, runPipeline } from '../../../src/telemetry/processors/pipeline.js';
import type { Env, GeofenceDef, Output, RecordIn } from '../../../src/telemetry/processors/types.js';

export const T = Date.parse('2026-03-02T14:00:00Z');
export const s = (sec: number) => T + sec * 1000;
export const LAT = 39.8;
export const LON = -89.65;
/** Degrees of longitude per km at LAT. */
export const DEG_PER_KM = 1 / (111.32 * Math.cos((LAT * Math.PI) / 180));

export function rec(sec: number, type: string, fields: Partial<RecordIn> = {}): RecordIn {
  return {
    t: s(sec),
    type,
    deviceId: 7,
    channel: 0,
    lat: null,
    lon: null,
    speedKph: null,
    bearing: null,
    odometerKm: null,
    fuelUsedL: null,
    description: null,
    data: null,
    ...fields,
  };
}

export const fix = (sec: number, kph: number | null, fields: Partial<RecordIn> = {}) =>
  rec(sec, 'location', { lat: LAT, lon: LON, speedKph: kph, bearing: 90, description: 'here', ...fields });
export const engineRec = (sec: number, state: 'on' | 'off', fields: Partial<RecordIn> = {}) =>
  rec(sec, 'engine', { data: { state }, ...fields });
export const loginRec = (sec: number, driverId: number) =>
  rec(sec, 'driver', { data: { action: 'login', driver_id: driverId } });

/** Fixes every `every` s from `from` to `to` at `kph`, moving east from `lon0` (odometer when `km0`). */
export function drive(
  from: number,
  to: number,
  kph: number,
  opts: { every?: number; lon0?: number; km0?: number; fuel0?: number; fuelPerS?: number } = {},
): RecordIn[] {
  const out: RecordIn[] = [];
  const every = opts.every ?? 10;
  for (let sec = from; sec <= to; sec += every) {
    const km = (kph * (sec - from)) / 3600;
    out.push(
      fix(sec, kph, {
        lon: (opts.lon0 ?? LON) + km * DEG_PER_KM,
        odometerKm: opts.km0 === undefined ? null : opts.km0 + km,
        fuelUsedL: opts.fuel0 === undefined ? null : opts.fuel0 + (sec - from) * (opts.fuelPerS ?? 0),
      }),
    );
  }
  return out;
}

export function run(records: RecordIn[], th: Partial<Thresholds> = {}, geofences: GeofenceDef[] = []) {
  const env: Env = { th: { ...DEFAULT_THRESHOLDS, ...th }, geofences };
  return runPipeline(initialState(), records, env);
}

export function only<K extends Output['kind']>(outputs: Output[], kind: K): Array<Extract<Output, { kind: K }>> {
  return outputs.filter((o): o is Extract<Output, { kind: K }> => o.kind === kind);
}

/** The last row per natural key (what the writer stores). */
export function final<T extends { start: number }>(rows: T[], key: (r: T) => string = (r) => String(r.start)): T[] {
  const m = new Map<string, T>();
  for (const r of rows) m.set(key(r), r);
  return [...m.values()];
}

export const sec = (t: number | null) => (t === null ? null : (t - T) / 1000);
