/**
 * Vehicle location objects (docs/reference/wire.md §4.4, §4.5): the v1/v2 current location (v2 superset served on
 * both), the v3 current location, the v1 and v3 history points, and the driver_locations user. Units:
 * speed mph (v3 `kph` in kph), odometer miles, fuel = fuel used in gallons, engine hours in hours.
 */
import { Type } from 'typebox';
import { wireTime } from '../storage/values.js';
import type { LatestLocationRow } from '../domain/freight/locations.js';
import type { CurrentExtra, HistoryRow } from '../telemetry/queries/locations.js';
import { DateTime, NNum, NStr } from './types.js';
import { UserSummary, userSummary } from './summaries.js';
import { USER_SUMMARY_COLUMNS, type UserSummaryRow } from '../domain/users/summaries.js';
import { EldDeviceSummary, coord, gallons, miles, mph, pointId, rounded } from './telemetry-common.js';
import { type Embeds } from './embeds.js';
import { Nullable } from '../core/schema.js';

/** The keys every current location carries (also the freight-visibility location). */
const CORE_LOCATION = {
  id: Type.String({ description: 'uuid of the location point' }),
  lat: Type.Number(),
  lon: Type.Number(),
  description: NStr(),
  located_at: DateTime(),
  bearing: NNum(),
  speed: NNum(),
  engine_hours: NNum(),
  fuel: NNum(),
  odometer: NNum(),
  type: NStr(),
};

export const CoreLocation = Type.Object(CORE_LOCATION);

export function coreLocation(l: LatestLocationRow) {
  return {
    id: l.id,
    lat: l.lat,
    lon: l.lon,
    description: l.description,
    located_at: wireTime(l.located_at)!,
    bearing: l.bearing,
    speed: l.speed,
    engine_hours: l.engine_hours,
    fuel: l.fuel,
    odometer: l.odometer,
    type: l.type,
  };
}

export const CurrentLocation = Type.Object({
  ...CORE_LOCATION,
  true_odometer: NNum(),
  battery_voltage: NNum(),
  fuel_primary_remaining_percentage: NNum(),
});

/** The vehicle keys of every location list item (v1/v2 lists, freight visibility), in wire order. */
export const LOCATION_VEHICLE_KEYS = {
  id: Type.Integer(),
  number: Type.String(),
  year: NStr(),
  make: NStr(),
  model: NStr(),
  vin: NStr(),
};

export const LocationVehicle = Type.Object({
  ...LOCATION_VEHICLE_KEYS,
  fuel_type: Nullable(Type.String({ description: 'As on /v1/vehicles, e.g. diesel, gasoline' })),
  current_location: Nullable(CurrentLocation),
  current_driver: Nullable(UserSummary),
});

export const CurrentLocationV3 = Type.Object({
  lat: Type.Number(),
  lon: Type.Number(),
  bearing: NNum(),
  located_at: DateTime(),
  kph: NNum(),
  vehicle_state: Type.String({ description: 'moving, idle, stopped or off' }),
  current_location: NStr(),
  city: NStr(),
  state: NStr(),
});

export const LocationVehicleV3 = Type.Object({
  id: Type.Integer(),
  number: Type.String(),
  year: NStr(),
  make: NStr(),
  model: NStr(),
  vin: NStr(),
  current_location: Nullable(CurrentLocationV3),
});

interface VehicleRowLike {
  id: number;
  number: string;
  year: string | null;
  make: string | null;
  model: string | null;
  vin: string | null;
  fuel_type: string | null;
  current_driver_id: number | null;
}

type Latest = LatestLocationRow & CurrentExtra;

export function currentLocation(l: Latest) {
  return {
    ...coreLocation(l),
    true_odometer: l.odometer,
    battery_voltage: l.battery_v,
    fuel_primary_remaining_percentage: l.fuel_level_pct,
  };
}

export function locationVehicle(v: VehicleRowLike, l: Latest | undefined, embeds: Embeds) {
  return {
    id: v.id,
    number: v.number,
    year: v.year,
    make: v.make,
    model: v.model,
    vin: v.vin,
    fuel_type: v.fuel_type,
    current_location: l ? currentLocation(l) : null,
    current_driver: embeds.user(l?.driver_id ?? v.current_driver_id),
  };
}

/** "moving" above the motion threshold, else "idle" with the engine on, "off" with it off, "stopped" when unknown. */
export function vehicleState(l: Latest): string {
  if (l.type === 'vehicle_moving') return 'moving';
  if (l.engine === 'on') return 'idle';
  if (l.engine === 'off') return 'off';
  return 'stopped';
}

export function locationVehicleV3(
  v: VehicleRowLike,
  l: Latest | undefined,
  place: (lat: number, lon: number) => { city: string; state: string } | null,
) {
  const p = l ? place(l.lat, l.lon) : null;
  return {
    id: v.id,
    number: v.number,
    year: v.year,
    make: v.make,
    model: v.model,
    vin: v.vin,
    current_location: l
      ? {
          lat: l.lat,
          lon: l.lon,
          bearing: l.bearing,
          located_at: wireTime(l.located_at)!,
          kph: l.speed === null ? null : Math.round(l.speed * 1.609344 * 10) / 10,
          vehicle_state: vehicleState(l),
          current_location: l.description,
          city: p?.city ?? null,
          state: p?.state ?? null,
        }
      : null,
  };
}

export const HistoryPointV1 = Type.Object({
  id: Type.String(),
  located_at: DateTime(),
  lat: Type.Number(),
  lon: Type.Number(),
  bearing: NNum(),
  engine_hours: NNum(),
  type: NStr(),
  description: NStr(),
  speed: NNum(),
  odometer: NNum(),
  fuel: NNum(),
  driver: Nullable(UserSummary),
});

export function historyPointV1(r: HistoryRow, embeds: Embeds) {
  return {
    id: pointId(r.id),
    located_at: wireTime(r.fix_time)!,
    lat: coord(r.lat!),
    lon: coord(r.lon!),
    bearing: r.bearing_deg,
    engine_hours: rounded(r.engine_hours, 2),
    type: r.point_type,
    description: r.description,
    speed: mph(r.speed_kph),
    odometer: miles(r.odometer_km),
    fuel: gallons(r.fuel_used_l),
    driver: embeds.user(r.driver_id),
  };
}

export const HistoryPointV3 = Type.Object({
  id: Type.String(),
  located_at: DateTime(),
  lat: Type.Number(),
  lon: Type.Number(),
  type: NStr(),
  description: NStr(),
  speed: NNum(),
  bearing: NNum(),
  battery_voltage: NNum(),
  odometer: NNum(),
  true_odometer: NNum(),
  engine_hours: NNum(),
  true_engine_hours: NNum(),
  fuel: NNum(),
  fuel_primary_remaining_percentage: NNum(),
  fuel_secondary_remaining_percentage: NNum(),
  veh_range: NNum(),
  hvb_state_of_charge: NNum(),
  hvb_lifetime_energy_output: NNum(),
  hvb_charge_status: NStr(),
  hvb_charge_source: NStr(),
  driver: Nullable(UserSummary),
  eld_device: Nullable(EldDeviceSummary),
});

export function historyPointV3(r: HistoryRow, embeds: Embeds) {
  const odometer = miles(r.odometer_km);
  const hours = rounded(r.engine_hours, 2);
  return {
    id: pointId(r.id),
    located_at: wireTime(r.fix_time)!,
    lat: coord(r.lat!),
    lon: coord(r.lon!),
    type: r.point_type,
    description: r.description,
    speed: mph(r.speed_kph),
    bearing: r.bearing_deg,
    battery_voltage: r.battery_v,
    odometer,
    true_odometer: odometer,
    engine_hours: hours,
    true_engine_hours: hours,
    fuel: gallons(r.fuel_used_l),
    fuel_primary_remaining_percentage: r.fuel_level_pct,
    fuel_secondary_remaining_percentage: null,
    veh_range: null,
    hvb_state_of_charge: null,
    hvb_lifetime_energy_output: null,
    hvb_charge_status: null,
    hvb_charge_source: null,
    driver: embeds.user(r.driver_id),
    eld_device: embeds.device(r.device_id),
  };
}

export const DriverLocationUser = Type.Object({
  ...UserSummary.properties,
  current_location: Nullable(
    Type.Object({ lat: Type.Number(), lon: Type.Number(), description: NStr(), located_at: DateTime() }),
  ),
  current_vehicle: Nullable(
    Type.Object({ id: Type.Integer(), number: Type.String(), status: Type.String(), make: NStr(), model: NStr() }),
  ),
});

export function driverLocationUser(
  u: UserSummaryRow,
  fix: LatestLocationRow | null,
  vehicle: { id: number; number: string; status: string; make: string | null; model: string | null } | null,
) {
  return {
    ...userSummary(u),
    current_location: fix
      ? { lat: fix.lat, lon: fix.lon, description: fix.description, located_at: wireTime(fix.located_at)! }
      : null,
    current_vehicle: vehicle
      ? { id: vehicle.id, number: vehicle.number, status: vehicle.status, make: vehicle.make, model: vehicle.model }
      : null,
  };
}
