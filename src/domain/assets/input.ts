/**
 * What a client may send to create an asset: the body of `POST /v1/assets`, and the input of
 * createAsset (its type is derived from this schema). Value sets and field lists: ./fields.ts.
 */
import { Type, type Static } from 'typebox';
import { Id } from '../../core/ids.js';
import { Enum, each } from '../../core/schema.js';
import {
  ASSET_AVAILABILITY,
  ASSET_BOOL_FIELDS,
  ASSET_NUMBER_FIELDS,
  ASSET_STATUSES,
  ASSET_TEXT_FIELDS,
} from './fields.js';

const opt = Type.Optional;
const S = (max = 255) => Type.String({ maxLength: max });

export const AssetBody = Type.Object({
  name: S(),
  status: opt(Enum(ASSET_STATUSES)),
  type: opt(
    Type.String({
      maxLength: 64,
      description: 'e.g. flatbed, dry_van, reefer, tanker, chassis, other (default other)',
    }),
  ),
  year: opt(Type.Union([Type.String({ maxLength: 8 }), Type.Integer({ minimum: 0, maximum: 9999 }), Type.Null()])),
  axle: opt(Type.Union([Type.Integer({ minimum: 1, maximum: 20 }), Type.Null()])),
  group_ids: opt(Type.Array(Id(), { maxItems: 1000 })),
  availability_status: opt(Enum(ASSET_AVAILABILITY)),
  external_ids_attributes: opt(Type.Array(Type.Object({ external_id: S(), integration_name: S() }), { maxItems: 50 })),
  ...each(ASSET_TEXT_FIELDS, (f) => opt(Type.Union([S(f === 'notes' ? 2000 : 255), Type.Null()]))),
  ...each(ASSET_NUMBER_FIELDS, () => opt(Type.Union([Type.Number({ minimum: 0, maximum: 1e7 }), Type.Null()]))),
  ...each(ASSET_BOOL_FIELDS, () => opt(Type.Boolean())),
});

export type AssetInput = Static<typeof AssetBody>;
