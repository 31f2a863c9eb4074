/**
 * Hours-of-service objects (docs/reference/wire.md §4.6–4.9): available time (`users[].user`), hos_violation,
 * hours_of_service and log. Durations are whole seconds; datetimes UTC with `Z`.
 */
import { Type } from 'typebox';
import { DateTime, NDateTime, NStr } from './types.js';
import { UserSummary, userSummary, VehicleSummary, vehicleSummary } from './summaries.js';
import type { VehicleSummaryRow } from '../domain/vehicles/summaries.js';
import { wireTime } from '../storage/values.js';
import type { Evaluated } from '../domain/hos/evaluation.js';
import type { HosDriver } from '../domain/hos/drivers.js';
import type { LogDetail } from '../domain/hos/logs.js';

const sec = (ms: number) => Math.floor(ms / 1000);
const DayDuration = Type.Object({ date: Type.String(), duration: Type.Integer() });

export const AvailableTimeUser = Type.Object({
  id: Type.Integer(),
  first_name: Type.String(),
  last_name: Type.String(),
  driver_company_id: NStr(),
  status: Type.String({ enum: ['active', 'deactivated'], description: 'As on /v1/users' }),
  duty_status: Type.String(),
  available_time: Type.Object({
    drive: Type.Integer(),
    shift: Type.Integer(),
    cycle: Type.Integer(),
    break: Type.Integer(),
  }),
  recap: Type.Object({
    on_duty_duration: Type.Array(DayDuration, { description: 'ON+D seconds per log day of the cycle, oldest first' }),
    driving_duration: Type.Array(DayDuration),
    cycle_tomorrow: Type.Integer({
      description: 'Cycle seconds available tomorrow if no more on-duty time is logged today (addition)',
    }),
  }),
  last_hos_status: Type.Union([Type.Object({ status: Type.String(), time: DateTime() }), Type.Null()]),
  last_cycle_reset: Type.Union([
    Type.Object({ type: Type.String(), start_time: DateTime(), end_time: NDateTime() }),
    Type.Null(),
  ]),
});

export function availableTimeWire({ driver, evaluation: ev }: Evaluated) {
  const c = ev.clocks;
  const reset = ev.lastCycleReset;
  return {
    id: driver.id,
    first_name: driver.first_name,
    last_name: driver.last_name,
    driver_company_id: driver.driver_company_id,
    status: driver.status,
    duty_status: driver.duty_status,
    available_time: { drive: sec(c.driveMs), shift: sec(c.shiftMs), cycle: sec(c.cycleMs), break: sec(c.breakMs) },
    recap: {
      on_duty_duration: ev.recap.map((d) => ({ date: d.date, duration: sec(d.onDutyMs) })),
      driving_duration: ev.recap.map((d) => ({ date: d.date, duration: sec(d.drivingMs) })),
      cycle_tomorrow: sec(c.cycleTomorrowMs),
    },
    last_hos_status:
      ev.statusSince === null
        ? null
        : { status: driver.duty_status, time: wireTime(new Date(ev.statusSince).toISOString())! },
    last_cycle_reset: reset
      ? {
          type: reset.type,
          start_time: wireTime(new Date(reset.start).toISOString())!,
          end_time: reset.end === null ? null : wireTime(new Date(reset.end).toISOString()),
        }
      : null,
  };
}

const violationFields = {
  id: Type.Integer(),
  type: Type.String({ description: 'e.g. driving_11, duty_14, break_30, cycle_70, canada_driving_13 (docs/hos.md)' }),
  name: Type.String(),
  start_time: DateTime(),
  end_time: NDateTime(),
};
export const HosViolation = Type.Object({ ...violationFields, user: UserSummary });
const LogViolation = Type.Object(violationFields);

interface ViolationRow {
  id: number;
  type: string;
  name: string;
  start_at: string;
  end_at: string | null;
}
const violationBase = (v: ViolationRow) => ({
  id: v.id,
  type: v.type,
  name: v.name,
  start_time: wireTime(v.start_at)!,
  end_time: wireTime(v.end_at),
});
export const hosViolationWire = (v: ViolationRow, user: HosDriver) => ({
  ...violationBase(v),
  user: userSummary(user),
});

const durationFields = {
  off_duty_duration: Type.Integer(),
  on_duty_duration: Type.Integer(),
  sleeper_duration: Type.Integer(),
  driving_duration: Type.Integer(),
  waiting_duration: Type.Integer(),
};
export const HoursOfService = Type.Object({
  id: Type.Integer(),
  date: Type.String(),
  ...durationFields,
  driver: UserSummary,
});

function durations(d: LogDetail) {
  const s = d.durations;
  return {
    off_duty_duration: sec(s.off_duty),
    on_duty_duration: sec(s.on_duty),
    sleeper_duration: sec(s.sleeper),
    driving_duration: sec(s.driving),
    waiting_duration: sec(s.waiting),
  };
}

export const hoursOfServiceWire = (id: number, d: LogDetail) => ({
  id,
  date: d.key.date,
  ...durations(d),
  driver: userSummary(d.key.driver),
});

const S = Type.String;
export const Log = Type.Object({
  id: Type.Integer(),
  date: S(),
  total_miles: Type.Number(),
  metric_units: Type.Boolean(),
  driver_signed_at: NDateTime(),
  driver_signature_url: NStr(),
  time_zone: S(),
  cycle: S(),
  driver_first_name: S(),
  driver_last_name: S(),
  driver_company_id: NStr(),
  carrier_name: S(),
  carrier_street: S(),
  carrier_city: S(),
  carrier_state: S(),
  carrier_zip: S(),
  terminal_street: NStr(),
  terminal_city: NStr(),
  terminal_state: NStr(),
  terminal_zip: NStr(),
  notes: NStr(),
  origin: NStr(),
  destination: NStr(),
  exception_24_hour_restart: Type.Boolean(),
  exception_8_hour_break: Type.Boolean(),
  exception_wait_time: Type.Boolean(),
  exception_short_haul: Type.Boolean(),
  exception_adverse_driving: Type.Boolean(),
  exception_ca_farm_school_bus: Type.Boolean(),
  short_haul: Type.Boolean(),
  eld_mode: S(),
  co_driver_full_names: Type.Array(S()),
  odometers: Type.Record(S(), Type.Object({ start_odometer: Type.Number(), end_odometer: Type.Number() })),
  trailer_numbers: NStr(),
  vehicle_numbers: NStr(),
  ...durationFields,
  driver: UserSummary,
  vehicles: Type.Array(Type.Object({ vehicle: VehicleSummary })),
  remarks: Type.Array(
    Type.Object({ remark: Type.Object({ id: Type.Integer(), time: DateTime(), notes: NStr(), location: NStr() }) }),
  ),
  cycle_restarts: Type.Array(
    Type.Object({
      cycle_restart: Type.Object({
        id: Type.Integer(),
        start_time: DateTime(),
        end_time: NDateTime(),
        type: S(),
        name: S(),
      }),
    }),
  ),
  shipping_docs: NStr(),
  form_and_manner_errors: Type.Array(Type.Object({ form_and_manner_error: Type.Object({ type: S(), name: S() }) })),
  hos_violations: Type.Array(Type.Object({ hos_violation: LogViolation })),
  events: Type.Array(
    Type.Object({
      event: Type.Object({
        id: Type.Integer(),
        type: S(),
        notes: NStr(),
        location: NStr(),
        start_time: DateTime(),
        end_time: NDateTime(),
      }),
    }),
  ),
});

const KM_PER_MILE = 1.609344;
const miles = (km: number) => Math.round((km / KM_PER_MILE) * 10) / 10;

export function logWire(
  id: number,
  meta: Record<string, unknown>,
  d: LogDetail,
  vehicles: Map<number, VehicleSummaryRow>,
) {
  const drv = d.key.driver;
  const u = drv.row as Record<string, any>;
  const f = drv.flags;
  const vs = d.vehicleIds.map((v) => vehicles.get(v)).filter((v): v is VehicleSummaryRow => !!v);
  const odometers: Record<string, { start_odometer: number; end_odometer: number }> = {};
  let km = 0;
  for (const [vid, o] of d.odometers) {
    km += Math.max(0, o.last - o.first);
    const v = vehicles.get(vid);
    if (v) odometers[v.number] = { start_odometer: miles(o.first), end_odometer: miles(o.last) };
  }
  const text = (k: string) => (meta[k] as string | null) ?? null;
  return {
    id,
    date: d.key.date,
    total_miles: miles(km),
    metric_units: !!u.metric_units,
    driver_signed_at: wireTime(d.signedAt),
    driver_signature_url: null,
    time_zone: drv.timeZoneName,
    cycle: drv.ruleset.cycleCode,
    driver_first_name: drv.first_name,
    driver_last_name: drv.last_name,
    driver_company_id: drv.driver_company_id,
    carrier_name: u.carrier_name ?? '',
    carrier_street: u.carrier_street ?? '',
    carrier_city: u.carrier_city ?? '',
    carrier_state: u.carrier_state ?? '',
    carrier_zip: u.carrier_zip ?? '',
    terminal_street: u.terminal_street ?? null,
    terminal_city: u.terminal_city ?? null,
    terminal_state: u.terminal_state ?? null,
    terminal_zip: u.terminal_zip ?? null,
    notes: text('notes'),
    origin: text('origin'),
    destination: text('destination'),
    exception_24_hour_restart: !!f.exception_24_hour_restart,
    exception_8_hour_break: !!f.exception_8_hour_break,
    exception_wait_time: !!f.exception_wait_time,
    exception_short_haul: !!f.exception_short_haul,
    exception_adverse_driving: !!f.exception_adverse_driving,
    exception_ca_farm_school_bus: !!f.exception_ca_farm_school_bus,
    short_haul: !!f.exception_short_haul,
    eld_mode: String(u.eld_mode ?? 'logs'),
    co_driver_full_names: JSON.parse(String(meta.co_driver_full_names ?? '[]')) as string[],
    odometers,
    trailer_numbers: text('trailer_numbers'),
    vehicle_numbers: vs.length ? vs.map((v) => v.number).join(', ') : null,
    ...durations(d),
    driver: userSummary(drv),
    vehicles: vs.map((v) => ({ vehicle: vehicleSummary(v) })),
    remarks: d.remarks.map((r) => ({
      remark: { id: r.id, time: wireTime(r.time)!, notes: r.notes, location: r.location },
    })),
    cycle_restarts: d.restarts.map((r) => ({
      cycle_restart: {
        id: r.id,
        start_time: wireTime(r.start)!,
        end_time: wireTime(r.end),
        type: r.type,
        name: r.name,
      },
    })),
    shipping_docs: text('shipping_docs'),
    form_and_manner_errors: d.formAndManner.map((e) => ({ form_and_manner_error: e })),
    hos_violations: d.violations.map((v) => ({ hos_violation: violationBase(v) })),
    events: d.events.map((e) => ({
      event: {
        id: e.id,
        type: e.type,
        notes: e.notes,
        location: e.location,
        start_time: wireTime(e.start)!,
        end_time: wireTime(e.end),
      },
    })),
  };
}
