/** The asset object (docs/reference/wire.md §4.24) and the asset location objects of /v1/asset_locations. */
import { Type } from 'typebox';
import { fromBool, wireTime } from '../storage/values.js';
import { DateTime, NInt, NNum, NStr } from './types.js';
import { UserSummary, userSummary } from './summaries.js';
import type { UserSummaryRow } from '../domain/users/summaries.js';
import type { assetExternalIds, assetGroupIds, AssetRow } from '../domain/assets/service.js';
import type { boundDevices } from '../domain/devices/service.js';
import type { AssetLocationRow } from '../domain/assets/locations.js';
import { Nullable } from '../core/schema.js';

export const ExternalId = Type.Object({ external_id: Type.String(), integration_name: Type.String() });

export const AssetGateway = Type.Object({ id: Type.Integer(), identifier: Type.String(), active: Type.Boolean() });

export const Asset = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  status: Type.String({ enum: ['active', 'deactivated'] }),
  type: Type.String(),
  custom_type: NStr(),
  vin: NStr(),
  make: NStr(),
  model: NStr(),
  year: NStr(),
  license_plate_state: NStr(),
  license_plate_number: NStr(),
  gvwr: NNum(),
  gawr: NNum(),
  length: NNum(),
  length_metric_units: Type.Boolean(),
  weight_metric_units: Type.Boolean(),
  axle: NInt(),
  leased: Type.Boolean(),
  notes: NStr(),
  group_ids: Type.Array(Type.Integer()),
  asset_gateway: Nullable(AssetGateway),
  availability_details: Type.Object({
    availability_status: Type.String(),
    updated_at: DateTime(),
    updated_by_user: Nullable(UserSummary),
  }),
  external_ids: Type.Array(ExternalId),
});

/** What a page of assets embeds: groups, external ids and gateways by asset, users (./pages.ts). */
export interface AssetPage {
  groups: Awaited<ReturnType<typeof assetGroupIds>>;
  external: Awaited<ReturnType<typeof assetExternalIds>>;
  gateways: Awaited<ReturnType<typeof boundDevices>>;
  users: Map<number, UserSummaryRow>;
}

export function assetWire(a: AssetRow, { groups, external, gateways, users }: AssetPage) {
  const gw = gateways.get(a.id);
  const by = a.availability_updated_by === null ? undefined : users.get(a.availability_updated_by);
  return {
    id: a.id,
    name: a.name,
    status: a.status,
    type: a.type,
    custom_type: a.custom_type,
    vin: a.vin,
    make: a.make,
    model: a.model,
    year: a.year,
    license_plate_state: a.license_plate_state,
    license_plate_number: a.license_plate_number,
    gvwr: a.gvwr,
    gawr: a.gawr,
    length: a.length,
    length_metric_units: fromBool(a.length_metric_units),
    weight_metric_units: fromBool(a.weight_metric_units),
    axle: a.axle,
    leased: fromBool(a.leased),
    notes: a.notes,
    group_ids: groups.get(a.id) ?? [],
    asset_gateway: gw ? { id: gw.id, identifier: gw.identifier, active: gw.revoked_at === null } : null,
    availability_details: {
      availability_status: a.availability_status,
      updated_at: wireTime(a.availability_updated_at)!,
      updated_by_user: by ? userSummary(by) : null,
    },
    external_ids: external.get(a.id) ?? [],
  };
}

/** One fix of an asset. */
export const AssetLocationPoint = Type.Object({
  id: Type.String({ description: 'uuid of the location point' }),
  located_at: DateTime(),
  lat: Type.Number(),
  lon: Type.Number(),
  bearing: NNum(),
  speed: NNum(),
  description: NStr(),
  battery_voltage: NNum(),
});

export function assetLocationPoint(l: AssetLocationRow) {
  return {
    id: l.id,
    located_at: wireTime(l.located_at)!,
    lat: l.lat,
    lon: l.lon,
    bearing: l.bearing,
    speed: l.speed,
    description: l.description,
    battery_voltage: l.battery_voltage,
  };
}

/** An item of `GET /v1/asset_locations`: the asset and its latest fix (null until one is stored). */
export const AssetLocation = Type.Object({
  asset: Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    status: Type.String(),
    type: Type.String(),
    vin: NStr(),
    license_plate_state: NStr(),
    license_plate_number: NStr(),
    make: NStr(),
    model: NStr(),
  }),
  asset_gateway: Nullable(AssetGateway),
  current_location: Nullable(AssetLocationPoint),
});
