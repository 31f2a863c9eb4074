/**
 * Driver performance events from the processors: created once per (vehicle, type, start), updated when
 * described again with other values, and announced (driver_performance_event_created/updated, and for
 * speeding also speeding_event_created/updated) in the processing transaction.
 */
import { json, toIso } from '../../storage/values.js';
import { recordEvent } from '../../events/outbox.js';
import type { PerformanceRow } from '../processors/types.js';
import type { Trx } from './tx.js';
import { performanceBody, speedingBody } from './payloads-derived.js';
import { lastByKey, type Target } from './outputs-target.js';

/** What a stored performance event is compared on: a change to any of them is an update. */
const PERFORMANCE_FIELDS = [
  'device_id',
  'driver_id',
  'end_time',
  'start_speed_kph',
  'end_speed_kph',
  'max_speed_kph',
  'start_bearing',
  'end_bearing',
  'peak_g',
  'lat',
  'lon',
  'location',
  'odometer_km',
  'samples',
] as const;

/**
 * A performance event is created once per (vehicle, type, start). The processors can describe one event
 * again later — a speeding event announced while it lasts is described again when it ends, a device
 * reports an accelerometer event again with its final values — and then the stored row is updated
 * (`driver_performance_event_updated`) if anything changed.
 */
export async function writePerformance(trx: Trx, t: Target, rows: PerformanceRow[], now: string) {
  for (const p of lastByKey(rows, (r) => `${r.type}@${r.start}`)) {
    const values = {
      device_id: p.deviceId,
      driver_id: p.driverId,
      end_time: toIso(p.end),
      start_speed_kph: p.startSpeedKph,
      end_speed_kph: p.endSpeedKph,
      max_speed_kph: p.maxSpeedKph,
      start_bearing: p.startBearing,
      end_bearing: p.endBearing,
      peak_g: p.peakG,
      lat: p.lat,
      lon: p.lon,
      location: p.location,
      odometer_km: p.odometerKm,
      samples: json(p.samples),
    };
    const key = { vehicle_id: t.vehicleId, type: p.type, start_time: toIso(p.start) };
    const created = await trx
      .insertInto('driver_performance_events')
      .values({
        company_id: t.companyId,
        ...key,
        ...values,
        coaching_status: 'pending_review',
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.columns(['vehicle_id', 'type', 'start_time']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (created && t.announce) await announcePerformance(trx, t, created.id, p.type, 'created');
    if (created) continue;
    const saved = await trx
      .selectFrom('driver_performance_events')
      .select(['id', 'coaching_status', ...PERFORMANCE_FIELDS])
      .where('vehicle_id', '=', key.vehicle_id)
      .where('type', '=', key.type)
      .where('start_time', '=', key.start_time)
      .executeTakeFirstOrThrow();
    if (PERFORMANCE_FIELDS.every((c) => saved[c] === values[c])) continue;
    await trx
      .updateTable('driver_performance_events')
      .set({ ...values, updated_at: now })
      .where('id', '=', saved.id)
      .execute();
    if (t.announce) await announcePerformance(trx, t, saved.id, p.type, 'updated');
  }
}

/**
 * Announces a stored performance event as `driver_performance_event_created` / `_updated`; a speeding
 * event is also a `speeding_event_created` / `_updated`, with the same subject (so a webhook subscribed
 * to both gets them in this order, in one lane) and the body `GET /v1/speeding_events` shows.
 */
async function announcePerformance(
  trx: Trx,
  t: Target,
  id: number,
  type: PerformanceRow['type'],
  change: 'created' | 'updated',
) {
  const created = change === 'created';
  const subject = { type: 'driver_performance_event', id };
  const data = await performanceBody(trx, id);
  await recordEvent(trx, {
    companyId: t.companyId,
    action: created ? 'driver_performance_event_created' : 'driver_performance_event_updated',
    subject,
    data,
  });
  if (type !== 'speeding') return;
  await recordEvent(trx, {
    companyId: t.companyId,
    action: created ? 'speeding_event_created' : 'speeding_event_updated',
    subject,
    data: await speedingBody(trx, id),
  });
}
