/**
 * What a client may send to create or change a user: the body of `POST` and `PUT /v1/users`, which the
 * console's user forms are checked against too (src/http/console/users.ts). Value sets and field lists:
 * ./fields.ts; the password's length: src/auth/password-policy.ts.
 */
import { Type } from 'typebox';
import { Id } from '../../core/ids.js';
import { each } from '../../core/schema.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../auth/password-policy.js';
import {
  DRIVER_FLAGS,
  DRIVER_TEXT_FIELDS,
  DUTY_STATUSES,
  ELD_MODES,
  GROUP_VISIBILITY,
  MANAGER_TEXT_FIELDS,
  ROLES,
  USER_STATUSES,
  USER_TEXT_FIELDS,
  VIOLATION_ALERTS,
} from './fields.js';

const S = (max = 255) => Type.String({ maxLength: max });
const Enum = (values: readonly string[]) => Type.String({ enum: [...values] });
const opt = Type.Optional;

export const UserBody = Type.Object({
  first_name: opt(S()),
  last_name: opt(S()),
  role: opt(Enum(ROLES)),
  status: opt(Enum(USER_STATUSES)),
  password: opt(Type.String({ minLength: MIN_PASSWORD_LENGTH, maxLength: MAX_PASSWORD_LENGTH })),
  metric_units: opt(Type.Boolean()),
  group_ids: opt(Type.Array(Id(), { maxItems: 1000 })),
  group_visibility: opt(Enum(GROUP_VISIBILITY)),
  external_ids_attributes: opt(Type.Array(Type.Object({ external_id: S(), integration_name: S() }), { maxItems: 50 })),
  duty_status: opt(Enum(DUTY_STATUSES)),
  eld_mode: opt(Enum(ELD_MODES)),
  violation_alerts: opt(Enum(VIOLATION_ALERTS)),
  ...each([...USER_TEXT_FIELDS, ...MANAGER_TEXT_FIELDS, ...DRIVER_TEXT_FIELDS], () =>
    opt(Type.Union([S(), Type.Null()])),
  ),
  ...each(DRIVER_FLAGS, () => opt(Type.Boolean())),
});
