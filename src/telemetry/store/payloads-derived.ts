/**
 * Webhook bodies of derived telemetry (fault codes, driver performance events, geofence visits, a
 * gateway's loss of vehicle power): the
 * object exactly as its REST endpoint shows it, rendered by the same wire mappers (with the vehicle,
 * drivers and ELD device as objects, docs/reference/wire.md §7.6), plus the additions the catalogue names
 * (docs/webhooks.md). Read in the transaction that wrote the row, so the body is what was committed.
 */
import { sql, type Selectable } from 'kysely';
import { fromBool, toIso, wireTime } from '../../storage/values.js';
import { describePlace } from '../geocode/places.js';
import { loadEmbeds } from '../../wire/embeds.js';
import { faultCode, geofenceEvent, performanceEvent, visitDuration } from '../../wire/telemetry-events.js';
import { speedingEvent } from '../../wire/speeding-event.js';
import { performanceWebhookMembers } from '../../wire/performance-webhook.js';
import type { Output } from '../processors/types.js';
import type { FaultCodesTable } from './tables.js';
import type { Trx } from './tx.js';

/**
 * A fault code as `GET /v1/fault_codes` shows it, with `closed_at` and `cleared`. The row may already
 * be closed when a fault opened and closed within one batch: the opening is announced as it was.
 */
export async function faultBody(trx: Trx, saved: Selectable<FaultCodesTable>, event: 'opened' | 'closed') {
  const [e, sum] = await Promise.all([
    loadEmbeds({ kysely: trx }, saved.company_id, { vehicles: [saved.vehicle_id], devices: [saved.device_id] }),
    trx
      .selectFrom('fault_codes')
      .select(sql<number>`sum(num_observations)`.as('n'))
      .where('vehicle_id', '=', saved.vehicle_id)
      .where('fault_key', '=', saved.fault_key)
      .executeTakeFirst(),
  ]);
  const body = faultCode(saved, e, Number(sum?.n ?? saved.num_observations));
  return event === 'opened'
    ? { ...body, status: 'open', closed_at: null, cleared: false }
    : { ...body, closed_at: wireTime(saved.closed_at), cleared: fromBool(saved.cleared) };
}

/**
 * A driver performance event as `GET /v1/driver_performance_events` shows it, with the ids and the
 * members of the real body (docs/reference/wire.md §7.6; performance-webhook.ts).
 */
export async function performanceBody(trx: Trx, id: number) {
  const row = await trx
    .selectFrom('driver_performance_events')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const e = await loadEmbeds({ kysely: trx }, row.company_id, {
    users: [row.driver_id],
    vehicles: [row.vehicle_id],
    devices: [row.device_id],
  });
  return {
    ...performanceEvent(row, e),
    driver_id: row.driver_id,
    vehicle_id: row.vehicle_id,
    eld_device_id: row.device_id,
    ...performanceWebhookMembers(row, e),
  };
}

/** A speeding event as `GET /v1/speeding_events` shows it, with the ids (docs/webhooks.md). */
export async function speedingBody(trx: Trx, id: number) {
  const row = await trx
    .selectFrom('driver_performance_events')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const e = await loadEmbeds({ kysely: trx }, row.company_id, {
    users: [row.driver_id],
    vehicles: [row.vehicle_id],
    devices: [row.device_id],
  });
  return {
    ...speedingEvent(row, e),
    driver_id: row.driver_id,
    vehicle_id: row.vehicle_id,
    eld_device_id: row.device_id,
  };
}

/** A vehicle's visit as `GET /v1/geofences/events` shows it. */
export async function vehicleVisitBody(trx: Trx, id: number) {
  const row = await trx.selectFrom('geofence_events').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const e = await loadEmbeds({ kysely: trx }, row.company_id, {
    users: [row.start_driver_id, row.end_driver_id],
    vehicles: [row.vehicle_id],
  });
  return geofenceEvent(row, e, Date.parse(row.start_time));
}

/** An asset's visit: the same object with `asset` in the place of `vehicle` (docs/reference/wire.md §4.23); assets have no driver. */
export async function assetVisitBody(trx: Trx, id: number) {
  const row = await trx.selectFrom('asset_geofence_events').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const asset = await trx
    .selectFrom('assets')
    .select(['id', 'name', 'status', 'type', 'vin'])
    .where('id', '=', row.asset_id)
    .executeTakeFirstOrThrow();
  return {
    id: row.id,
    geofence_id: row.geofence_id,
    start_time: wireTime(row.start_time),
    end_time: wireTime(row.end_time),
    duration: visitDuration(row.start_time, row.end_time, Date.parse(row.start_time)),
    asset,
    start_driver: null,
    end_driver: null,
  };
}

/**
 * `vehicle_gateway_disconnected` / `_disconnect_ended`: the ids, when the power was lost and (when it
 * has ended) when it came back and how long it was out, in seconds, where the report was made, and the
 * vehicle, gateway and driver as the telemetry endpoints embed them (docs/webhooks.md).
 */
export async function gatewayBody(
  trx: Trx,
  companyId: number,
  vehicleId: number,
  g: Extract<Output, { kind: 'gateway' }>,
) {
  const e = await loadEmbeds({ kysely: trx }, companyId, {
    users: [g.driverId],
    vehicles: [vehicleId],
    devices: [g.deviceId],
  });
  const ended = !g.disconnected;
  return {
    vehicle_id: vehicleId,
    eld_device_id: g.deviceId,
    driver_id: g.driverId,
    disconnected_at: wireTime(toIso(g.since)),
    reconnected_at: ended ? wireTime(toIso(g.t)) : null,
    duration: ended ? (g.t - g.since) / 1000 : null,
    lat: g.lat,
    lon: g.lon,
    location: g.lat === null || g.lon === null ? null : (describePlace(g.lat, g.lon)?.description ?? null),
    vehicle: e.vehicleAlways(vehicleId),
    eld_device: e.device(g.deviceId),
    driver: e.user(g.driverId),
  };
}
