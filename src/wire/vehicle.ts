/** The vehicle object (docs/reference/wire.md §4.3; availability and external ids: docs/vehicles.md). */
import { Type } from 'typebox';
import { fromBool, wireTime } from '../storage/values.js';
import { DateTime, NBool, NStr } from './types.js';
import { UserSummary, userSummary } from './summaries.js';
import type { UserSummaryRow } from '../domain/users/summaries.js';
import type { vehicleExternalIds, vehicleGroupIds, VehicleRow } from '../domain/vehicles/service.js';
import type { boundDevices } from '../domain/devices/service.js';
import type { ExternalId as ExternalIdValue } from '../domain/assets/external-ids.js';
import { ExternalId } from './asset.js';
import { Nullable } from '../core/schema.js';

export const EldDevice = Type.Object({ id: Type.Integer(), identifier: Type.String(), model: Type.String() });

export const Vehicle = Type.Object({
  id: Type.Integer(),
  company_id: Type.Integer(),
  number: Type.String(),
  status: Type.String({ enum: ['active', 'inactive', 'deactivated'] }),
  ifta: Type.Boolean(),
  vin: NStr(),
  make: NStr(),
  model: NStr(),
  year: NStr(),
  license_plate_state: NStr(),
  license_plate_number: NStr(),
  license_plate_country_code: NStr(),
  metric_units: Type.Boolean(),
  fuel_type: NStr(),
  prevent_auto_odometer_entry: Type.Boolean(),
  notes: NStr(),
  incab_alert_live_stream_enable: Type.Integer(),
  driver_facing_camera: Type.Integer(),
  incab_audio_recording: Type.Integer(),
  group_ids: Type.Array(Type.Integer()),
  created_at: DateTime(),
  updated_at: DateTime(),
  permanent_driver: Nullable(UserSummary),
  availability_details: Type.Object({
    availability_status: Type.String({ enum: ['in_service', 'out_of_service'] }),
    out_of_service_reason: Nullable(Type.String({ description: 'Out of service only' })),
    updated_at: DateTime('When the availability last changed'),
    additional_note: NStr(),
    custom_driver_app_warning_prompt: Nullable(
      Type.String({ description: 'Out of service only: the warning the driver app shows' }),
    ),
    updated_by_user: Nullable(UserSummary),
  }),
  eld_device: Nullable(EldDevice),
  current_driver: Nullable(UserSummary),
  carb_ctc_test_enabled: NBool(),
  carb_ctc_emission_status: NStr(),
  registration_expiry_date: NStr(),
  external_ids: Type.Array(ExternalId),
});

/** The live ELD bound to a vehicle, as the vehicle embeds it. */
const eldDevice = (d: { id: number; identifier: string; model: string } | undefined) =>
  d ? { id: d.id, identifier: d.identifier, model: d.model } : null;

/** A vehicle as a webhook snapshot carries it: with its external ids at the time of the change. */
export type VehicleWithIds = VehicleRow & { external_ids?: ExternalIdValue[] };

/**
 * What a page of vehicles embeds: users, and groups, ELDs and external ids by vehicle (./pages.ts). A
 * row that carries its `external_ids` (a webhook's snapshot) is shown with those.
 */
export interface VehiclePage {
  users: Map<number, UserSummaryRow>;
  groups: Awaited<ReturnType<typeof vehicleGroupIds>>;
  devices: Awaited<ReturnType<typeof boundDevices>>;
  external: Awaited<ReturnType<typeof vehicleExternalIds>>;
}

export function vehicleWire(v: VehicleWithIds, { users, groups, devices, external }: VehiclePage) {
  const summary = (id: number | null) => {
    const u = id === null ? undefined : users.get(id);
    return u ? userSummary(u) : null;
  };
  return {
    id: v.id,
    company_id: v.company_id,
    number: v.number,
    status: v.status,
    ifta: fromBool(v.ifta),
    vin: v.vin,
    make: v.make,
    model: v.model,
    year: v.year,
    license_plate_state: v.license_plate_state,
    license_plate_number: v.license_plate_number,
    license_plate_country_code: v.license_plate_country_code,
    metric_units: fromBool(v.metric_units),
    fuel_type: v.fuel_type,
    prevent_auto_odometer_entry: fromBool(v.prevent_auto_odometer_entry),
    notes: v.notes,
    incab_alert_live_stream_enable: v.incab_alert_live_stream_enable,
    driver_facing_camera: v.driver_facing_camera,
    incab_audio_recording: v.incab_audio_recording,
    group_ids: groups.get(v.id) ?? [],
    created_at: wireTime(v.created_at)!,
    updated_at: wireTime(v.updated_at)!,
    permanent_driver: summary(v.permanent_driver_id),
    availability_details: {
      availability_status: v.availability_status ?? 'in_service',
      out_of_service_reason: v.out_of_service_reason ?? null,
      updated_at: wireTime(v.availability_updated_at ?? v.created_at)!,
      additional_note: v.availability_note ?? null,
      custom_driver_app_warning_prompt: v.availability_prompt ?? null,
      updated_by_user: summary(v.availability_updated_by),
    },
    eld_device: eldDevice(devices.get(v.id)),
    current_driver: summary(v.current_driver_id),
    carb_ctc_test_enabled: v.carb_ctc_test_enabled === null ? null : fromBool(v.carb_ctc_test_enabled),
    carb_ctc_emission_status: v.carb_ctc_emission_status,
    registration_expiry_date: v.registration_expiry_date,
    external_ids: v.external_ids ?? external.get(v.id) ?? [],
  };
}
