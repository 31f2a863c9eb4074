/**
 * Geofence visits as the geofence processor derives them: a vehicle's in geofence_events
 * (`vehicle_geofence_event`), an asset's in asset_geofence_events (`asset_geofence_event`). A visit is
 * upserted by (owner, geofence, entry time): the entry writes it, the exit completes it; each is
 * announced (trigger `entered` / `exited`) in the transaction that writes it, unless replaying.
 */
import { toIso } from '../../storage/values.js';
import { recordEvent } from '../../events/outbox.js';
import type { GeofenceEventRow } from '../processors/types.js';
import type { Trx } from './tx.js';
import { assetVisitBody, vehicleVisitBody } from './payloads-derived.js';

export type Visit = { row: GeofenceEventRow; event: 'entered' | 'exited' };

const iso = (t: number | null) => (t === null ? null : toIso(t));

export async function writeVehicleGeofences(
  trx: Trx,
  t: { companyId: number; vehicleId: number; announce: boolean },
  items: Visit[],
  now: string,
) {
  for (const g of items) {
    const r = g.row;
    const values = { end_time: iso(r.end), end_driver_id: r.endDriverId, updated_at: now };
    const { id } = await trx
      .insertInto('geofence_events')
      .values({
        company_id: t.companyId,
        geofence_id: r.geofenceId,
        vehicle_id: t.vehicleId,
        start_time: toIso(r.start),
        start_driver_id: r.startDriverId,
        created_at: now,
        ...values,
      })
      .onConflict((oc) => oc.columns(['vehicle_id', 'geofence_id', 'start_time']).doUpdateSet(values))
      .returning('id')
      .executeTakeFirstOrThrow();
    if (t.announce) {
      await recordEvent(trx, {
        companyId: t.companyId,
        action: 'vehicle_geofence_event',
        trigger: g.event,
        subject: { type: 'geofence_event', id },
        data: await vehicleVisitBody(trx, id),
      });
    }
  }
}

export async function writeAssetGeofences(
  trx: Trx,
  t: { companyId: number; assetId: number; announce: boolean },
  items: Visit[],
  now: string,
) {
  for (const g of items) {
    const r = g.row;
    const values = { end_time: iso(r.end), updated_at: now };
    const { id } = await trx
      .insertInto('asset_geofence_events')
      .values({
        company_id: t.companyId,
        geofence_id: r.geofenceId,
        asset_id: t.assetId,
        start_time: toIso(r.start),
        created_at: now,
        ...values,
      })
      .onConflict((oc) => oc.columns(['asset_id', 'geofence_id', 'start_time']).doUpdateSet(values))
      .returning('id')
      .executeTakeFirstOrThrow();
    if (t.announce) {
      await recordEvent(trx, {
        companyId: t.companyId,
        action: 'asset_geofence_event',
        trigger: g.event,
        subject: { type: 'asset_geofence_event', id },
        data: await assetVisitBody(trx, id),
      });
    }
  }
}
