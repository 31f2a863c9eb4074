/**
 * Freight visibility objects (docs/freight-visibility.md). `/companies`, `/vehicle_association` and
 * `/vehicle_subscriptions` answer `{"data": {...}}` as the real API does (docs/reference/wire.md §3.5); the
 * vehicle locations list uses the standard envelope with `vehicles[].vehicle`, like /v1/vehicle_locations.
 */
import { Type } from 'typebox';
import { CoreLocation, coreLocation, LOCATION_VEHICLE_KEYS } from './vehicle-location.js';
import { wireTime } from '../storage/values.js';
import { DateTime, NDateTime, NNum, NStr } from './types.js';
import { UserSummary } from './summaries.js';
import { dotIds, type CompanyRow } from '../domain/freight/parties.js';
import type { LatestLocationRow } from '../domain/freight/locations.js';
import type { ShareRow } from '../domain/freight/shares.js';
import { Nullable } from '../core/schema.js';

export const FreightCompany = Type.Object({
  id: Type.Integer(),
  company_id: Type.String({ description: 'The company code, e.g. FP0000001' }),
  name: Type.String(),
  dot_ids: Type.Array(Type.String()),
});

export function freightCompany(c: CompanyRow) {
  return { id: c.id, company_id: c.company_code, name: c.name, dot_ids: dotIds(c) };
}

export const CompaniesBody = Type.Object({ data: Type.Object({ companies: Type.Array(FreightCompany) }) });

/** The freight-visibility location: the core keys of a current location (./vehicle-location.ts). */
export const CurrentLocation = CoreLocation;

export function currentLocation(l: LatestLocationRow | null) {
  return l ? coreLocation(l) : null;
}

export const FreightVehicleLocation = Type.Object({
  ...LOCATION_VEHICLE_KEYS,
  current_location: Nullable(CurrentLocation),
  current_driver: Nullable(UserSummary),
  company: FreightCompany,
  tracking_subscription_id: Type.Integer(),
  start_time: DateTime(),
  end_time: DateTime(),
  load_id: NStr(),
  load_details: NStr(),
});

export const AssociationBody = Type.Object({
  data: Type.Object({
    company_id: Type.String(),
    dot_ids: Type.Array(Type.String()),
    vehicles: Type.Array(
      Type.Object({
        vehicle_id: Type.String(),
        vehicle_name: Type.String(),
        vin: NStr(),
        driver: Nullable(Type.Object({ id: Type.Integer(), first_name: Type.String(), last_name: Type.String() })),
        distance_mi: NNum(),
      }),
    ),
  }),
});

export const SubscriptionsBody = Type.Object({
  data: Type.Object({
    company_id: Type.String(),
    dot_ids: Type.Array(Type.String()),
    vehicle_subscriptions: Type.Array(
      Type.Object({
        vehicle_id: Type.String(),
        vehicle_name: Type.String(),
        subscriptions: Type.Array(
          Type.Object({
            tracking_subscription_id: Type.Integer(),
            start_time: DateTime(),
            end_time: DateTime(),
            load_id: NStr(),
          }),
        ),
      }),
    ),
  }),
});

export const SubscribeResponse = Type.Object({ tracking_subscription_id: Type.Integer() });

export const FreightShare = Type.Object({
  id: Type.Integer(),
  shipper: Type.Object({ id: Type.Integer(), company_id: Type.String(), name: Type.String() }),
  vehicle_ids: Type.Array(Type.Integer()),
  start_time: DateTime(),
  end_time: DateTime(),
  revoked_at: NDateTime(),
  created_at: DateTime(),
});

export function freightShare(s: ShareRow, shipper: CompanyRow | undefined, vehicleIds: number[]) {
  return {
    id: s.id,
    shipper: { id: s.shipper_company_id, company_id: shipper?.company_code ?? '', name: shipper?.name ?? '' },
    vehicle_ids: vehicleIds,
    start_time: wireTime(s.starts_at)!,
    end_time: wireTime(s.ends_at)!,
    revoked_at: wireTime(s.revoked_at),
    created_at: wireTime(s.created_at)!,
  };
}
