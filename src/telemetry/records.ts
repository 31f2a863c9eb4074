/**
 * The typed records of the device protocol (docs/device-protocol.md) and their validation: each JSON
 * record becomes a ParsedRecord or a clear error naming the field. Pure: the clock is a parameter.
 */
import { findUnportable, INT32_MAX, textProblem } from '../storage/portable-values.js';
import { serviceRecordError } from './record-services.js';
import { fault as parseFault, type FaultFields } from './record-faults.js';
import { EXCEPTIONS } from '../domain/hos/records.js';
import { LOG_RECORD_TYPES, logRecord } from './record-log.js';
import { bool, fail, intIn, numberIn, oneOf, parseTime, text, type Obj, type ParseLimits } from './record-fields.js';

export const RECORD_TYPES = [
  'location',
  'engine',
  'driver',
  'fault',
  'acceleration',
  'power',
  'duty_status',
  'exception',
  ...LOG_RECORD_TYPES,
  'inspection',
  'form_entry',
] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

export const DUTY_STATUSES = [
  'off_duty',
  'sleeper',
  'driving',
  'on_duty',
  'personal_conveyance',
  'yard_move',
  'waiting',
] as const;
export const MAX_SEQ = Number.MAX_SAFE_INTEGER;

/** Measurements a record may carry (a location fix must have lat and lon). */
export interface Position {
  lat: number | null;
  lon: number | null;
  speed_kph: number | null;
  bearing_deg: number | null;
  odometer_km: number | null;
  engine_hours: number | null;
  fuel_used_l: number | null;
  fuel_level_pct: number | null;
  battery_v: number | null;
}

export interface ParsedRecord extends Position {
  seq: number;
  type: RecordType;
  /** Fix time, epoch milliseconds. */
  t: number;
  /** Type-specific fields stored as JSON (engine state, driver action, fault, acceleration, …). */
  data: Record<string, unknown> | null;
  /** A driver the record names (login, duty status, inspection, form entry): checked against the company. */
  driverRef: number | null;
}

function position(r: Obj, requireFix: boolean): Position {
  const lat = numberIn(r, 'lat', -90, 90, requireFix);
  const lon = numberIn(r, 'lon', -180, 180, requireFix);
  if ((lat === null) !== (lon === null)) fail(lat === null ? 'lat is required with lon' : 'lon is required with lat');
  if (lat === 0 && lon === 0)
    fail('lat 0, lon 0 is not a position (a device without a GPS fix must leave lat and lon out)');
  return {
    lat,
    lon,
    speed_kph: numberIn(r, 'speed_kph', 0, 400),
    bearing_deg: numberIn(r, 'bearing_deg', 0, 360),
    odometer_km: numberIn(r, 'odometer_km', 0, 10_000_000),
    engine_hours: numberIn(r, 'engine_hours', 0, 1_000_000),
    fuel_used_l: numberIn(r, 'fuel_used_l', 0, 100_000_000),
    fuel_level_pct: numberIn(r, 'fuel_level_pct', 0, 100),
    battery_v: numberIn(r, 'battery_v', 0, 100),
  };
}

const NO_POSITION: Position = {
  lat: null,
  lon: null,
  speed_kph: null,
  bearing_deg: null,
  odometer_km: null,
  engine_hours: null,
  fuel_used_l: null,
  fuel_level_pct: null,
  battery_v: null,
};

function driverId(r: Obj, required: boolean): number | null {
  return intIn(r, 'driver_id', 1, INT32_MAX, required);
}

/**
 * The exception a driver claims for the shift (docs/hos.md, Exceptions). An adverse-driving claim
 * carries the driver's annotation of the conditions, 4 to 60 characters (49 CFR 395.28(c); the ELD's
 * annotation length).
 */
function claim(r: Obj, note: string | null): (typeof EXCEPTIONS)[number] {
  const kind = oneOf(r, 'exception', EXCEPTIONS);
  if (kind === 'adverse_driving' && (note === null || note.trim().length < 4)) {
    fail('note is required with an adverse_driving claim: what the adverse conditions were, 4 to 60 characters');
  }
  return kind;
}

/** The fields of one record type beyond seq, type and time. */
function body(type: RecordType, r: Obj): { pos: Position; data: Obj | null; driverRef: number | null } {
  switch (type) {
    case 'location': {
      const pos = position(r, true);
      const data: Obj = {};
      const accuracy = numberIn(r, 'accuracy_m', 0, 100_000);
      const altitude = numberIn(r, 'altitude_m', -1000, 20_000);
      const ignition = bool(r, 'ignition');
      const pto = bool(r, 'pto');
      const batteryPct = numberIn(r, 'battery_pct', 0, 100);
      if (accuracy !== null) data.accuracy_m = accuracy;
      if (altitude !== null) data.altitude_m = altitude;
      if (ignition !== null) data.ignition = ignition;
      if (pto !== null) data.pto = pto;
      if (batteryPct !== null) data.battery_pct = batteryPct;
      return { pos, data: Object.keys(data).length ? data : null, driverRef: null };
    }
    case 'engine': {
      const state = oneOf(r, 'state', ['on', 'off'] as const);
      const pto = bool(r, 'pto');
      return { pos: position(r, false), data: pto === null ? { state } : { state, pto }, driverRef: null };
    }
    case 'power': {
      // The gateway lost or regained the vehicle's power (unplugged from, or plugged back into, the
      // diagnostic port); it reports on its own battery.
      const state = oneOf(r, 'state', ['disconnected', 'connected'] as const);
      return { pos: position(r, false), data: { state }, driverRef: null };
    }
    case 'driver': {
      const action = oneOf(r, 'action', ['login', 'logout'] as const);
      const id = driverId(r, action === 'login');
      return { pos: NO_POSITION, data: { action, driver_id: id }, driverRef: id };
    }
    case 'fault': {
      const f: FaultFields = parseFault(r, { intIn, oneOf, bool, fail });
      return { pos: position(r, false), data: f as unknown as Obj, driverRef: null };
    }
    case 'acceleration': {
      const longitudinal = numberIn(r, 'longitudinal_g', -10, 10);
      const lateral = numberIn(r, 'lateral_g', -10, 10);
      if (longitudinal === null && lateral === null) fail('longitudinal_g or lateral_g is required');
      const data = {
        longitudinal_g: longitudinal,
        lateral_g: lateral,
        duration_ms: intIn(r, 'duration_ms', 0, 600_000) ?? 0,
        end_speed_kph: numberIn(r, 'end_speed_kph', 0, 400),
      };
      return { pos: position(r, false), data, driverRef: null };
    }
    case 'duty_status': {
      const id = driverId(r, true);
      const status = oneOf(r, 'status', DUTY_STATUSES);
      const note = text(r, 'note', 60);
      const data: Obj = { status, driver_id: id, note };
      // A claim made with the status (docs/device-protocol.md): the same fields as an `exception` record.
      if (r.exception !== undefined && r.exception !== null) data.exception = claim(r, note);
      return { pos: position(r, false), data, driverRef: id };
    }
    case 'exception': {
      const id = driverId(r, true);
      const note = text(r, 'note', 60);
      return { pos: position(r, false), data: { exception: claim(r, note), driver_id: id, note }, driverRef: id };
    }
    case 'remark':
    case 'certification':
    case 'malfunction': {
      const f = logRecord(type, r, { intIn, oneOf, text, fail });
      return { pos: f.located ? position(r, false) : NO_POSITION, data: f.data, driverRef: f.driverRef };
    }
    case 'inspection':
    case 'form_entry': {
      const id = driverId(r, true);
      const { seq: _s, type: _t, time: _time, ...rest } = r;
      const wrong = serviceRecordError(type, rest);
      if (wrong) fail(wrong);
      return { pos: NO_POSITION, data: rest, driverRef: id };
    }
  }
}

/**
 * Why the databases would disagree on one of these fields (storage/portable-values.ts), naming it —
 * `notes must not contain a NUL character (\u0000)`, `defects[0].notes …`, `a key of entry …` — or
 * null. `keys` names the fields' own names (`a key of the record`).
 */
export function unportableIn(fields: Obj, keys: string): string | null {
  for (const k of Object.keys(fields)) {
    const problem = textProblem(k);
    if (problem) return `${keys} ${problem}`;
    const found = findUnportable(fields[k], 'value', [k]);
    if (found) return `${found.field} ${found.problem}`;
  }
  return null;
}

/** Validates one record of a batch; throws RecordError with a message naming the field. */
export function parseRecord(raw: unknown, limits: ParseLimits): ParsedRecord {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return fail('record must be a JSON object');
  const r = raw as Obj;
  // First, whatever the field: what one database stores and the other refuses never reaches either,
  // nor an error message.
  const unportable = unportableIn(r, 'a key of the record');
  if (unportable) fail(unportable);
  const seq = r.seq;
  if (seq === undefined || seq === null) fail('seq is required');
  if (typeof seq !== 'number' || !Number.isInteger(seq) || seq < 0 || seq > MAX_SEQ)
    fail(`seq must be a whole number from 0 to ${MAX_SEQ}`);
  const type = oneOf(r, 'type', RECORD_TYPES);
  const t = parseTime(r.time, limits);
  const { pos, data, driverRef } = body(type, r);
  // Spelled out rather than spread: one object shape for every record, built once.
  return {
    seq: seq as number,
    type,
    t,
    lat: pos.lat,
    lon: pos.lon,
    speed_kph: pos.speed_kph,
    bearing_deg: pos.bearing_deg,
    odometer_km: pos.odometer_km,
    engine_hours: pos.engine_hours,
    fuel_used_l: pos.fuel_used_l,
    fuel_level_pct: pos.fuel_level_pct,
    battery_v: pos.battery_v,
    data,
    driverRef,
  };
}

/** The seq of a raw record when it has a valid one (to label a rejected record), else null. */
export function seqOf(raw: unknown): number | null {
  const seq = (raw as Obj | null)?.seq;
  return typeof seq === 'number' && Number.isInteger(seq) && seq >= 0 && seq <= MAX_SEQ ? seq : null;
}
