/**
 * The one batch loader of embedded objects: the users, vehicles and devices a page (or a webhook
 * payload) embeds, loaded with one query each from their owners (src/domain/users, vehicles, devices),
 * then mapped to their wire summaries (./summaries.ts) by the pure mappers.
 */
import type { Db } from '../storage/db.js';
import { userSummaryRows } from '../domain/users/summaries.js';
import { vehicleSummaryRows } from '../domain/vehicles/summaries.js';
import { deviceSummaryRows, type DeviceSummaryRow } from '../domain/devices/summaries.js';
import { unknownVehicle, userSummary, vehicleSummary } from './summaries.js';

type MaybeId = number | null | undefined;

export interface Embeds {
  user(id: MaybeId): ReturnType<typeof userSummary> | null;
  vehicle(id: MaybeId): ReturnType<typeof vehicleSummary> | null;
  /**
   * For objects whose schema requires a vehicle (telemetry events): its summary, or an empty one with its
   * id when it is not among the company's vehicles.
   */
  vehicleAlways(id: number): ReturnType<typeof vehicleSummary>;
  device(id: MaybeId): DeviceSummaryRow | null;
}

export interface EmbedIds {
  users?: MaybeId[];
  vehicles?: MaybeId[];
  devices?: MaybeId[];
}

export async function loadEmbeds(db: Pick<Db, 'kysely'>, companyId: number, ids: EmbedIds): Promise<Embeds> {
  const [users, vehicles, devices] = await Promise.all([
    userSummaryRows(db, companyId, ids.users ?? []),
    vehicleSummaryRows(db, companyId, ids.vehicles ?? []),
    deviceSummaryRows(db, companyId, ids.devices ?? []),
  ]);
  const get = <T>(m: Map<number, T>, id: MaybeId) => (typeof id === 'number' ? m.get(id) : undefined);
  const user = (id: MaybeId) => {
    const u = get(users, id);
    return u ? userSummary(u) : null;
  };
  const vehicle = (id: MaybeId) => {
    const v = get(vehicles, id);
    return v ? vehicleSummary(v) : null;
  };
  return {
    user,
    vehicle,
    vehicleAlways: (id) => vehicle(id) ?? unknownVehicle(id),
    device: (id) => get(devices, id) ?? null,
  };
}
