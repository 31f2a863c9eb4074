/**
 * Derived telemetry objects on the wire: driving_period (docs/reference/wire.md §4.16, keys in captured order), idle_event
 * (§4.15), fault_code (§4.13), driver_performance_event (§4.14) and geofence event (§4.23). Units:
 * kilometers where the key says so, distances as "42.2 mi", fuel counters in gallons, performance
 * speeds in kph (like their `intensity`, "-10.3 kph/s"), durations in seconds.
 */
import { Type } from 'typebox';
import type { Selectable } from 'kysely';
import { fromBool, fromJson, wireTime } from '../storage/values.js';
import type {
  DrivingPeriodsTable,
  DriverPerformanceEventsTable,
  FaultCodesTable,
  GeofenceEventsTable,
  IdleEventsTable,
} from '../telemetry/store/tables.js';
import { faultText } from '../telemetry/fault-dictionary.js';
import { KPHPS_PER_G, kmToMi, round } from '../telemetry/units.js';
import { DateTime, NDateTime, NInt, NNum, NStr } from './types.js';
import { UserSummary, VehicleSummary } from './summaries.js';
import { EldDeviceSummary, gallons, rounded } from './telemetry-common.js';
import { type Embeds } from './embeds.js';
import { Nullable } from '../core/schema.js';

/** "-10.3 kph/s" (docs/reference/wire.md §2.7). */
export const intensityText = (g: number | null) =>
  g === null ? null : `${round(g * KPHPS_PER_G, 1).toFixed(1)} kph/s`;

export const DrivingPeriod = Type.Object({
  id: Type.Integer(),
  start_time: DateTime(),
  end_time: NDateTime(),
  status: Type.String({ enum: ['complete', 'in_progress'] }),
  type: Type.String(),
  annotation_status: NInt(),
  notes: NStr(),
  duration: Type.Number(),
  start_kilometers: NNum(),
  end_kilometers: NNum(),
  source: NStr(),
  driver: Nullable(UserSummary),
  vehicle: VehicleSummary,
  origin: NStr(),
  origin_lat: NNum(),
  origin_lon: NNum(),
  destination_lat: NNum(),
  destination_lon: NNum(),
  destination: NStr(),
  distance: NStr(),
  start_hvb_state_of_charge: NNum(),
  end_hvb_state_of_charge: NNum(),
  start_hvb_lifetime_energy_output: NNum(),
  end_hvb_lifetime_energy_output: NNum(),
});

/**
 * A period closed by an engine stop is stored with its end at stop + timeout (D-10 (a)), up to
 * DRIVING_STOP_TIMEOUT_S ahead of the clock; until that end has come it is shown as it stands now, in
 * progress (end_time null, duration so far), so that no answer carries an end that has not happened.
 */
export function drivingPeriod(p: Selectable<DrivingPeriodsTable>, e: Embeds, nowMs: number) {
  const done = p.end_time !== null && Date.parse(p.end_time) <= nowMs;
  const start = Date.parse(p.start_time);
  return {
    id: p.id,
    start_time: wireTime(p.start_time)!,
    end_time: done ? wireTime(p.end_time) : null,
    status: done ? 'complete' : 'in_progress',
    type: p.type,
    annotation_status: null,
    notes: null,
    duration: ((done ? Date.parse(p.end_time!) : Math.max(start, nowMs)) - start) / 1000,
    start_kilometers: rounded(p.start_km, 2),
    end_kilometers: done ? rounded(p.end_km, 2) : null,
    source: p.source,
    driver: e.user(p.driver_id),
    vehicle: e.vehicleAlways(p.vehicle_id),
    origin: p.origin,
    origin_lat: p.origin_lat,
    origin_lon: p.origin_lon,
    destination_lat: done ? p.destination_lat : null,
    destination_lon: done ? p.destination_lon : null,
    destination: done ? p.destination : '',
    distance: done && p.distance_km !== null ? `${kmToMi(p.distance_km).toFixed(1)} mi` : null,
    start_hvb_state_of_charge: null,
    end_hvb_state_of_charge: null,
    start_hvb_lifetime_energy_output: null,
    end_hvb_lifetime_energy_output: null,
  };
}

export const IdleEvent = Type.Object({
  id: Type.Integer(),
  start_time: DateTime(),
  end_time: DateTime(),
  veh_fuel_start: NNum(),
  veh_fuel_end: NNum(),
  lat: Type.Number(),
  lon: Type.Number(),
  city: NStr(),
  state: NStr(),
  rg_brg: NNum(),
  rg_km: NNum(),
  rg_match: Type.Boolean(),
  end_type: Type.String(),
  location: NStr(),
  driver: Nullable(UserSummary),
  vehicle: VehicleSummary,
  eld_device: Nullable(EldDeviceSummary),
  pto_active: Type.Boolean({
    description: 'Our addition (docs/reference/domain-rules.md D-3): the power take-off was engaged during the idling',
  }),
});

export function idleEvent(i: Selectable<IdleEventsTable>, e: Embeds) {
  return {
    id: i.id,
    start_time: wireTime(i.start_time)!,
    end_time: wireTime(i.end_time)!,
    veh_fuel_start: gallons(i.fuel_start_l),
    veh_fuel_end: gallons(i.fuel_end_l),
    lat: i.lat,
    lon: i.lon,
    city: i.city,
    state: i.state,
    rg_brg: i.rg_brg,
    rg_km: i.rg_km,
    rg_match: fromBool(i.rg_match),
    end_type: i.end_type,
    location: i.location,
    driver: e.user(i.driver_id),
    vehicle: e.vehicleAlways(i.vehicle_id),
    eld_device: e.device(i.device_id),
    pto_active: fromBool(i.pto),
  };
}

/** The wire `network` of each protocol a device names in a fault record (docs/device-protocol.md). */
export const FAULT_NETWORKS = { j1939: 'j1939', obd2: 'obdii', j1708: 'j1708' } as const;
const networkOf = (protocol: string) => FAULT_NETWORKS[protocol as keyof typeof FAULT_NETWORKS] ?? protocol;

export const FaultCode = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  code_label: Type.String(),
  code_description: Type.String(),
  source_address_label: NStr(),
  source_address_name: NStr(),
  source_address: Nullable(
    Type.String({
      description: 'The J1939 source address or J1708 MID, as text (as the real API sends it); null for OBD-II',
    }),
  ),
  status: Type.String({ enum: ['open', 'closed'] }),
  first_observed_at: DateTime(),
  last_observed_at: DateTime(),
  type: Type.String({ enum: ['constant', 'intermittent'] }),
  fmi: NInt(),
  fmi_description: NStr(),
  occurrence_count: Type.Integer(),
  num_observations: Type.Integer(),
  sum_num_observations: Type.Integer(),
  is_sid: Type.Boolean(),
  dtc_status: Type.String(),
  dtc_severity: NStr(),
  functional_grp_id: NInt(),
  ftb: Nullable(
    Type.Integer({
      description: 'Failure type byte of an OBD-II (UDS) code; no device reports it, so null (docs/telemetry.md)',
    }),
  ),
  vehicle: VehicleSummary,
  eld_device: Nullable(EldDeviceSummary),
  network: Type.String({
    enum: [...Object.values(FAULT_NETWORKS)],
    description: 'The vehicle network the code came from',
  }),
});

/** `sum_num_observations`: observations of this code on this vehicle over every record of it. */
export function faultCode(f: Selectable<FaultCodesTable>, e: Embeds, sumObservations: number) {
  const text = faultText(f);
  return {
    id: f.id,
    code: f.code,
    code_label: text.code_label,
    code_description: text.code_description,
    source_address_label: text.source_address_label,
    source_address_name: text.source_address_name,
    source_address: f.source_address === null ? null : String(f.source_address),
    status: f.status,
    first_observed_at: wireTime(f.first_observed_at)!,
    last_observed_at: wireTime(f.last_observed_at)!,
    type: text.type,
    fmi: f.fmi,
    fmi_description: text.fmi_description,
    occurrence_count: f.occurrence_count,
    num_observations: f.num_observations,
    sum_num_observations: sumObservations,
    is_sid: text.is_sid,
    dtc_status: text.dtc_status,
    dtc_severity: text.dtc_severity,
    functional_grp_id: null,
    ftb: null,
    vehicle: e.vehicleAlways(f.vehicle_id),
    eld_device: e.device(f.device_id),
    network: networkOf(f.protocol),
  };
}

export const PerformanceEvent = Type.Object({
  id: Type.Integer(),
  type: Type.String(),
  start_time: DateTime(),
  end_time: DateTime(),
  duration: Type.Number(),
  start_speed: NNum(),
  end_speed: NNum(),
  start_bearing: NNum(),
  end_bearing: NNum(),
  acceleration: NNum(),
  lat: NNum(),
  lon: NNum(),
  location: NStr(),
  intensity: NStr(),
  coaching_status: Type.String(),
  m_gps_lat: Type.Array(Type.Number()),
  m_gps_lon: Type.Array(Type.Number()),
  m_gps_heading: Type.Array(Type.Number()),
  m_gps_spd: Type.Array(Type.Number()),
  m_veh_spd: Type.Array(Type.Number()),
  m_veh_odo: NNum(),
  driver: Nullable(UserSummary),
  vehicle: VehicleSummary,
  eld_device: Nullable(EldDeviceSummary),
});

export function performanceEvent(p: Selectable<DriverPerformanceEventsTable>, e: Embeds) {
  const s = fromJson<{ lat: number[]; lon: number[]; heading: number[]; speed_kph: number[] }>(p.samples, {
    lat: [],
    lon: [],
    heading: [],
    speed_kph: [],
  });
  return {
    id: p.id,
    type: p.type,
    start_time: wireTime(p.start_time)!,
    end_time: wireTime(p.end_time)!,
    duration: (Date.parse(p.end_time) - Date.parse(p.start_time)) / 1000,
    start_speed: rounded(p.start_speed_kph),
    end_speed: rounded(p.end_speed_kph),
    start_bearing: p.start_bearing,
    end_bearing: p.end_bearing,
    acceleration: rounded(p.peak_g, 3),
    lat: p.lat,
    lon: p.lon,
    location: p.location,
    intensity: intensityText(p.peak_g),
    coaching_status: p.coaching_status,
    m_gps_lat: s.lat,
    m_gps_lon: s.lon,
    m_gps_heading: s.heading,
    m_gps_spd: s.speed_kph,
    m_veh_spd: s.speed_kph,
    m_veh_odo: rounded(p.odometer_km, 1),
    driver: e.user(p.driver_id),
    vehicle: e.vehicleAlways(p.vehicle_id),
    eld_device: e.device(p.device_id),
  };
}

export const GeofenceEvent = Type.Object({
  id: Type.Integer(),
  geofence_id: Type.Integer(),
  start_time: DateTime(),
  end_time: NDateTime(),
  duration: Type.Integer({
    description: 'Seconds inside: until end_time, or so far while the vehicle is still inside',
  }),
  vehicle: VehicleSummary,
  start_driver: Nullable(UserSummary),
  end_driver: Nullable(UserSummary),
});

/**
 * A visit's `duration` (docs/reference/wire.md §4.23: int seconds): until its exit, or, while it is open, until
 * `nowMs` (the time of the answer; a webhook announcing the entry passes the entry, so 0).
 */
export function visitDuration(start: string, end: string | null, nowMs: number): number {
  return Math.max(0, Math.round(((end === null ? nowMs : Date.parse(end)) - Date.parse(start)) / 1000));
}

export function geofenceEvent(g: Selectable<GeofenceEventsTable>, e: Embeds, nowMs: number) {
  return {
    id: g.id,
    geofence_id: g.geofence_id,
    start_time: wireTime(g.start_time)!,
    end_time: wireTime(g.end_time),
    duration: visitDuration(g.start_time, g.end_time, nowMs),
    vehicle: e.vehicleAlways(g.vehicle_id),
    start_driver: e.user(g.start_driver_id),
    end_driver: e.user(g.end_driver_id),
  };
}
