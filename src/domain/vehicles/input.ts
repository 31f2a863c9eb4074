/**
 * What a client may send to create or change a vehicle: the body of `POST` and `PUT /v1/vehicles`, which
 * the console's vehicle forms are checked against too, and the input of the vehicle services (its type
 * is derived from this schema, so the two cannot drift apart). Value sets and lengths: ./fields.ts.
 */
import { Type, type Static } from 'typebox';
import { Id } from '../../core/ids.js';
import { Enum, each } from '../../core/schema.js';
import {
  AVAILABILITY,
  FUEL_TYPES,
  VEHICLE_BOOL_FIELDS,
  VEHICLE_CAMERA_FIELDS,
  VEHICLE_MAX_LENGTH,
  VEHICLE_STATUSES,
  VEHICLE_TEXT_FIELDS,
} from './fields.js';

const opt = Type.Optional;
const Text = (description?: string) =>
  opt(Type.Union([Type.String({ maxLength: VEHICLE_MAX_LENGTH.text, description }), Type.Null()]));

/** The nested availability of the real API (docs/vehicles.md). */
export const AvailabilityBody = Type.Object({
  availability_status: opt(Enum(AVAILABILITY)),
  out_of_service_reason: Text('Kept while out of service'),
  additional_note: Text(),
  custom_driver_app_warning_prompt: Text('Kept while out of service'),
});

/** The nested availability as the vehicle services take it, the flat availability_status joined in (./availability.ts). */
export type AvailabilityInput = Static<typeof AvailabilityBody>;

export const VehicleBody = Type.Object({
  number: opt(Type.String({ maxLength: VEHICLE_MAX_LENGTH.number })),
  status: opt(Enum(VEHICLE_STATUSES)),
  year: opt(
    Type.Union([
      Type.String({ maxLength: VEHICLE_MAX_LENGTH.year }),
      Type.Integer({ minimum: 0, maximum: 9999 }),
      Type.Null(),
    ]),
  ),
  fuel_type: opt(Type.Union([Enum(FUEL_TYPES), Type.Null()])),
  permanent_driver_id: opt(Type.Union([Id(), Type.Null()])),
  group_ids: opt(Type.Array(Id(), { maxItems: 1000 })),
  availability_status: opt(Enum(AVAILABILITY)),
  availability_details: opt(AvailabilityBody),
  external_ids_attributes: opt(
    Type.Array(
      Type.Object({ external_id: Type.String({ maxLength: 255 }), integration_name: Type.String({ maxLength: 255 }) }),
      { maxItems: 50, description: 'Replaces the external ids of the vehicle ([] clears them)' },
    ),
  ),
  carb_ctc_test_enabled: opt(Type.Union([Type.Boolean(), Type.Null()])),
  ...each(VEHICLE_TEXT_FIELDS, () => Text()),
  ...each(VEHICLE_BOOL_FIELDS, () => opt(Type.Boolean())),
  ...each(VEHICLE_CAMERA_FIELDS, () => opt(Type.Integer({ minimum: -1, maximum: 1 }))),
});

export type VehicleInput = Static<typeof VehicleBody>;
