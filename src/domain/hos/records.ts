/**
 * The ELD-style records a driver's log is made of (docs/reference/domain-rules.md §2.1), as the service accepts them:
 * duty statuses (with personal conveyance and yard moves), intermediate logs, login/logout,
 * certifications, engine power, malfunctions and diagnostics, remarks, and exception claims
 * (adverse driving, 16-hour). Validation here; ELD event types and codes are derived.
 */
import { validation } from '../../core/errors.js';
import type { Clock } from './engine/types.js';
import { Days } from './engine/days.js';

export const DUTY_STATUS_INPUTS = [
  'off_duty',
  'sleeper',
  'driving',
  'on_duty',
  'personal_conveyance',
  'yard_move',
  'waiting',
] as const;
export type DutyStatusInput = (typeof DUTY_STATUS_INPUTS)[number];
export const EVENT_KINDS = [
  'duty_status',
  'intermediate_log',
  'certification',
  'login',
  'logout',
  'engine_power_up',
  'engine_shut_down',
  'malfunction',
  'malfunction_cleared',
  'diagnostic',
  'diagnostic_cleared',
  'remark',
  'exception',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];
export const ORIGINS = { auto: 1, driver: 2, edit: 3, unidentified: 4 } as const;
export type Origin = keyof typeof ORIGINS;
export const EXCEPTIONS = ['adverse_driving', 'sixteen_hour'] as const;

export interface HosEventInput {
  /** Default `duty_status`. */
  kind?: EventKind;
  /** The instant (ISO-8601 with offset, or epoch ms). */
  at: string | number;
  status?: DutyStatusInput;
  /** Default `driver`; `auto` for records the ELD made itself (automatic driving detection). */
  origin?: Origin;
  /** ELD sequence id 0–65535; assigned when absent. With eldDeviceId it makes a resend idempotent. */
  sequenceId?: number;
  /**
   * Another sequence id this record may already be stored under (an earlier version of the server
   * numbered device records by their instant): a stored record with it is this one, not a new one.
   */
  formerSequenceId?: number;
  vehicleId?: number | null;
  eldDeviceId?: number | null;
  lat?: number | null;
  lon?: number | null;
  location?: string | null;
  odometerKm?: number | null;
  engineHours?: number | null;
  /** Annotation or comment, at most 60 characters. */
  notes?: string | null;
  /** certification: the log day certified (YYYY-MM-DD). */
  date?: string;
  /** exception: the exception claimed for the shift. */
  exception?: (typeof EXCEPTIONS)[number];
  /** malfunction / diagnostic: its code (P, E, T, L, R, S, O; 1–6). */
  code?: string;
  /** Location recorded at reduced precision (personal conveyance). */
  reducedPrecision?: boolean;
}

export interface NormalizedEvent {
  kind: EventKind;
  at: number;
  status: string | null;
  special: string | null;
  code: string | null;
  eventType: number;
  eventCode: number;
  origin: number;
  input: HosEventInput;
}

/** How a stored duty status counts for the clocks. */
export function clockOf(status: string | null): Clock {
  switch (status) {
    case 'sleeper':
      return 'SB';
    case 'driving':
      return 'D';
    case 'on_duty':
      return 'ON';
    case 'waiting':
      return 'WAIT';
    default:
      return 'OFF';
  }
}

/** Motive's duty_status word of a stored status (PC is off duty, YM on duty). */
export const dutyStatusWord = (status: string | null) => status ?? 'off_duty';

function instantOf(v: string | number, i: number): number {
  const t = typeof v === 'number' ? v : Date.parse(v);
  if (typeof v === 'string' && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v))
    throw validation(`events[${i}].at`, 'must be an ISO-8601 datetime');
  if (!Number.isFinite(t)) throw validation(`events[${i}].at`, 'is not a valid datetime');
  return t;
}

const DUTY_CODE: Record<string, number> = { off_duty: 1, sleeper: 2, driving: 3, on_duty: 4, waiting: 1 };

export function normalize(e: HosEventInput, i: number, now: number): NormalizedEvent {
  const kind = e.kind ?? 'duty_status';
  const f = (name: string) => `events[${i}].${name}`;
  if (!(EVENT_KINDS as readonly string[]).includes(kind))
    throw validation(f('kind'), `must be one of: ${EVENT_KINDS.join(', ')}`);
  const at = instantOf(e.at, i);
  if (at > now + 10 * 60_000) throw validation(f('at'), 'is in the future');
  const origin = ORIGINS[e.origin ?? 'driver'];
  if (!origin) throw validation(f('origin'), `must be one of: ${Object.keys(ORIGINS).join(', ')}`);
  if (e.notes && e.notes.length > 60) throw validation(f('notes'), 'must be at most 60 characters long');
  if (e.sequenceId !== undefined && (!Number.isInteger(e.sequenceId) || e.sequenceId < 0 || e.sequenceId > 0xffff)) {
    throw validation(f('sequenceId'), 'must be a whole number from 0 to 65535');
  }
  const reduced = e.reducedPrecision ? 1 : 0;
  const out = {
    kind,
    at,
    origin,
    input: e,
    status: null as string | null,
    special: null as string | null,
    code: null as string | null,
  };
  switch (kind) {
    case 'duty_status': {
      const s = e.status;
      if (!s || !(DUTY_STATUS_INPUTS as readonly string[]).includes(s))
        throw validation(f('status'), `must be one of: ${DUTY_STATUS_INPUTS.join(', ')}`);
      const status = s === 'personal_conveyance' ? 'off_duty' : s === 'yard_move' ? 'on_duty' : s;
      const special = s === 'personal_conveyance' || s === 'yard_move' ? s : null;
      return { ...out, status, special, eventType: 1, eventCode: DUTY_CODE[status]! };
    }
    case 'intermediate_log':
      return { ...out, eventType: 2, eventCode: 1 + reduced };
    case 'certification': {
      if (!e.date || !/^\d{4}-\d{2}-\d{2}$/.test(e.date) || Days.date(Days.number(e.date)) !== e.date)
        throw validation(f('date'), 'must be the certified day, YYYY-MM-DD');
      // The code is n, the nth certification of the day: counted when it is stored (./certification.ts).
      return { ...out, code: e.date, eventType: 4, eventCode: 1 };
    }
    case 'login':
      return { ...out, eventType: 5, eventCode: 1 };
    case 'logout':
      return { ...out, eventType: 5, eventCode: 2 };
    case 'engine_power_up':
      return { ...out, eventType: 6, eventCode: 1 + reduced };
    case 'engine_shut_down':
      return { ...out, eventType: 6, eventCode: 3 + reduced };
    case 'malfunction':
    case 'malfunction_cleared':
    case 'diagnostic':
    case 'diagnostic_cleared': {
      if (!e.code || !/^[PETLRSO1-6]$/.test(e.code))
        throw validation(f('code'), 'must be a malfunction letter (P, E, T, L, R, S, O) or a diagnostic number (1–6)');
      const codes = { malfunction: 1, malfunction_cleared: 2, diagnostic: 3, diagnostic_cleared: 4 };
      return { ...out, code: e.code, eventType: 7, eventCode: codes[kind] };
    }
    case 'remark': {
      if (!e.notes) throw validation(f('notes'), 'is required for a remark');
      return { ...out, eventType: 0, eventCode: 0 };
    }
    case 'exception': {
      if (!e.exception || !(EXCEPTIONS as readonly string[]).includes(e.exception))
        throw validation(f('exception'), `must be one of: ${EXCEPTIONS.join(', ')}`);
      return { ...out, code: e.exception, eventType: 0, eventCode: 0 };
    }
  }
}
