/**
 * Which device records belong to a driver's log, the log records each one makes, and whose log it
 * goes to (./hos-link.ts writes them). A `duty_status` (with the exception claim it may carry), an
 * `exception` claim, a `driver` login or logout, a `remark`, a `certification` of a day's log and an
 * ELD `malfunction` or data diagnostic (docs/device-protocol.md; docs/hos.md, Integration with
 * telemetry).
 */
import type { DutyStatusInput, EXCEPTIONS, HosEventInput } from '../../domain/hos/records.js';
import { malfunctionKind } from '../../domain/hos/remarks.js';
import type { Trx } from './tx.js';

/** The sequence id of a record the ELD makes itself (automatic duty status): from its instant. */
export function hosSequenceId(tMs: number): number {
  return Math.floor(tMs / 1000) % 65536;
}

/** Device record types that are records of a driver's log. */
export const HOS_RECORD_TYPES: ReadonlySet<string> = new Set([
  'duty_status',
  'exception',
  'driver',
  'remark',
  'certification',
  'malfunction',
]);

/** One stored device record of a vehicle, as the log needs it. */
export interface HosSource {
  /** telemetry_records.id */
  id: number;
  seq: number;
  type: string;
  t: number;
  deviceId: number;
  lat: number | null;
  lon: number | null;
  description: string | null;
  odometerKm: number | null;
  data: Record<string, unknown> | null;
}

type Claim = (typeof EXCEPTIONS)[number];

/**
 * The log records one device record makes: a duty status, with the exception claim it may carry; a
 * claim; a login or logout; a remark; a certification of its `date`; a malfunction or diagnostic that
 * began or cleared.
 */
export function eventsOf(s: HosSource, vehicleId: number): HosEventInput[] {
  const d = s.data ?? {};
  const note = typeof d.note === 'string' ? d.note : null;
  const base = {
    at: s.t,
    origin: 'driver' as const,
    eldDeviceId: s.deviceId,
    vehicleId,
    sequenceId: s.seq % 0x10000,
    lat: s.lat,
    lon: s.lon,
    location: s.description,
    odometerKm: s.odometerKm,
    notes: note,
  };
  switch (s.type) {
    case 'driver':
      return [{ ...base, kind: d.action === 'login' ? 'login' : 'logout', notes: null }];
    case 'exception':
      return [{ ...base, kind: 'exception', exception: d.exception as Claim }];
    case 'remark':
      return [{ ...base, kind: 'remark' }];
    case 'certification':
      return [{ ...base, kind: 'certification', date: d.date as string }];
    case 'malfunction': {
      // The ELD detects and clears these itself: record origin 1 (automatic), as App. A §4.6 has it.
      const code = String(d.code);
      const kind = malfunctionKind(code, d.status === 'cleared' ? 'cleared' : 'began');
      return [{ ...base, origin: 'auto', kind, code }];
    }
  }
  // Earlier versions linked duty statuses under a sequence id made from the instant.
  const status: HosEventInput = {
    ...base,
    kind: 'duty_status',
    status: d.status as DutyStatusInput,
    formerSequenceId: hosSequenceId(s.t),
  };
  return typeof d.exception === 'string'
    ? [status, { ...base, kind: 'exception', exception: d.exception as Claim }]
    : [status];
}

/**
 * Whose log a record goes to: the driver it names; a logout or a malfunction that names none, the
 * driver logged in on the vehicle before it (none: the record stays in telemetry only, and a replay
 * links it once a login before it is stored).
 */
export async function driverOf(trx: Trx, vehicleId: number, s: HosSource): Promise<number | null> {
  const named = Number(s.data?.driver_id);
  if (Number.isInteger(named) && named > 0) return named;
  if (s.type !== 'driver' && s.type !== 'malfunction') return null;
  const fix = new Date(s.t).toISOString();
  const prev = await trx
    .selectFrom('telemetry_records')
    .select('data')
    .where('vehicle_id', '=', vehicleId)
    .where('type', '=', 'driver')
    .where((eb) => eb.or([eb('fix_time', '<', fix), eb.and([eb('fix_time', '=', fix), eb('id', '<', s.id)])]))
    .orderBy('fix_time', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const data = prev?.data ? (JSON.parse(prev.data) as Record<string, unknown>) : null;
  return data?.action === 'login' ? Number(data.driver_id) : null;
}
