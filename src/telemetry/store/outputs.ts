/**
 * Writes processor outputs inside the processing transaction: each derived row is upserted by its
 * natural key (so a replay rewrites rather than duplicates), and what a webhook would announce is
 * recorded as a domain event in the same transaction (docs/reference/wire.md §7.6): fault_code_opened/closed,
 * driver_performance_event_created/updated (and, for speeding, speeding_event_created/updated),
 * vehicle_geofence_event and asset_geofence_event (./outputs-geofences.ts), engine_toggle_event,
 * vehicle_gateway_disconnected/_disconnect_ended. A replay writes rows without events (`announce: false`).
 * Performance events are written by ./outputs-performance.ts, utilization increments, which add up per
 * bucket, by ./outputs-utilization.ts.
 */
import { json, toIso } from '../../storage/values.js';
import { recordEvent } from '../../events/outbox.js';
import type { FaultRow, IdleRow, Output, PeriodRow } from '../processors/types.js';
import { describePlace } from '../geocode/places.js';
import type { Trx } from './tx.js';
import { faultBody, gatewayBody } from './payloads-derived.js';
import { writeAssetGeofences, writeVehicleGeofences } from './outputs-geofences.js';
import { writePerformance } from './outputs-performance.js';
import { writeUtilization } from './outputs-utilization.js';
import { lastByKey, type Target } from './outputs-target.js';

const iso = (t: number | null) => (t === null ? null : toIso(t));

async function writePeriods(trx: Trx, t: Target, rows: PeriodRow[], now: string) {
  for (const p of lastByKey(rows, (r) => String(r.start))) {
    const values = {
      driver_id: p.driverId,
      end_time: iso(p.end),
      status: p.end === null ? 'in_progress' : 'complete',
      type: p.type,
      source: p.source,
      start_km: p.startKm,
      end_km: p.endKm,
      distance_km: p.distanceKm,
      origin: p.origin,
      origin_lat: p.originLat,
      origin_lon: p.originLon,
      destination: p.destination,
      destination_lat: p.destinationLat,
      destination_lon: p.destinationLon,
      updated_at: now,
    };
    await trx
      .insertInto('driving_periods')
      .values({
        company_id: t.companyId,
        vehicle_id: t.vehicleId,
        start_time: toIso(p.start),
        created_at: now,
        ...values,
      })
      .onConflict((oc) => oc.columns(['vehicle_id', 'start_time']).doUpdateSet(values))
      .execute();
  }
}

async function writeIdle(trx: Trx, t: Target, rows: IdleRow[], now: string) {
  for (const e of lastByKey(rows, (r) => String(r.start))) {
    const place = describePlace(e.lat, e.lon);
    const values = {
      device_id: e.deviceId,
      driver_id: e.driverId,
      end_time: toIso(e.end),
      end_type: e.endType,
      lat: e.lat,
      lon: e.lon,
      city: place?.city ?? null,
      state: place?.state ?? null,
      rg_brg: place ? Math.round(place.bearingDeg) : null,
      rg_km: place ? Math.round(place.distanceKm * 100) / 100 : null,
      rg_match: place?.match ? 1 : 0,
      location: place?.description ?? null,
      fuel_start_l: e.fuelStartL,
      fuel_end_l: e.fuelEndL,
      pto: e.pto ? 1 : 0,
    };
    await trx
      .insertInto('idle_events')
      .values({
        company_id: t.companyId,
        vehicle_id: t.vehicleId,
        start_time: toIso(e.start),
        created_at: now,
        ...values,
      })
      .onConflict((oc) => oc.columns(['vehicle_id', 'start_time']).doUpdateSet(values))
      .execute();
  }
}

async function writeFaults(
  trx: Trx,
  t: Target,
  items: Array<{ row: FaultRow; event: 'opened' | 'closed' | null }>,
  now: string,
) {
  const events = items.filter((i) => i.event !== null);
  for (const f of lastByKey(items, (i) => `${i.row.key}@${i.row.first}`)) {
    const r = f.row;
    const values = {
      device_id: r.deviceId,
      status: r.closedAt === null ? 'open' : 'closed',
      last_observed_at: toIso(r.last),
      closed_at: iso(r.closedAt),
      cleared: r.cleared ? 1 : 0,
      occurrence_count: r.occurrenceCount,
      num_observations: r.observations,
      lamps: r.lamps ? json(r.lamps) : null,
      updated_at: now,
    };
    await trx
      .insertInto('fault_codes')
      .values({
        company_id: t.companyId,
        vehicle_id: t.vehicleId,
        fault_key: r.key,
        protocol: r.protocol,
        code: r.code,
        spn: r.spn,
        fmi: r.fmi,
        source_address: r.sourceAddress,
        is_sid: r.isSid ? 1 : 0,
        first_observed_at: toIso(r.first),
        created_at: now,
        ...values,
      })
      .onConflict((oc) => oc.columns(['vehicle_id', 'fault_key', 'first_observed_at']).doUpdateSet(values))
      .execute();
  }
  if (!t.announce) return;
  for (const e of events) {
    const saved = await trx
      .selectFrom('fault_codes')
      .selectAll()
      .where('vehicle_id', '=', t.vehicleId)
      .where('fault_key', '=', e.row.key)
      .where('first_observed_at', '=', toIso(e.row.first))
      .executeTakeFirstOrThrow();
    await recordEvent(trx, {
      companyId: t.companyId,
      action: e.event === 'opened' ? 'fault_code_opened' : 'fault_code_closed',
      subject: { type: 'fault_code', id: saved.id },
      data: await faultBody(trx, saved, e.event === 'opened' ? 'opened' : 'closed'),
    });
  }
}

export async function writeOutputs(trx: Trx, t: Target, outputs: Output[]): Promise<void> {
  if (outputs.length === 0) return;
  const now = toIso(Date.now());
  const pick = <K extends Output['kind']>(k: K) =>
    outputs.filter((o): o is Extract<Output, { kind: K }> => o.kind === k);
  await writePeriods(
    trx,
    t,
    pick('period').map((o) => o.row),
    now,
  );
  await writeIdle(
    trx,
    t,
    pick('idle').map((o) => o.row),
    now,
  );
  await writeFaults(trx, t, pick('fault'), now);
  await writePerformance(
    trx,
    t,
    pick('performance').map((o) => o.row),
    now,
  );
  await writeVehicleGeofences(trx, t, pick('geofence'), now);
  await writeUtilization(
    trx,
    t,
    pick('utilization').map((o) => o.row),
  );
  if (!t.announce) return;
  for (const e of pick('engine')) {
    await recordEvent(trx, {
      companyId: t.companyId,
      action: 'engine_toggle_event',
      trigger: e.on ? 'on' : 'off',
      subject: { type: 'vehicle', id: t.vehicleId },
      data: {
        vehicle_id: t.vehicleId,
        driver_id: e.driverId,
        trigger: e.on ? 'on' : 'off',
        occurred_at: toIso(e.t).slice(0, 19) + 'Z',
        lat: e.lat,
        lon: e.lon,
      },
    });
  }
  for (const g of pick('gateway')) {
    await recordEvent(trx, {
      companyId: t.companyId,
      action: g.disconnected ? 'vehicle_gateway_disconnected' : 'vehicle_gateway_disconnect_ended',
      subject: { type: 'vehicle', id: t.vehicleId },
      data: await gatewayBody(trx, t.companyId, t.vehicleId, g),
    });
  }
}

/** An asset's outputs: geofence visits (`asset_geofence_event`). */
export async function writeAssetOutputs(
  trx: Trx,
  t: { companyId: number; assetId: number; announce: boolean },
  outputs: Output[],
): Promise<void> {
  const visits = outputs.filter((o): o is Extract<Output, { kind: 'geofence' }> => o.kind === 'geofence');
  if (visits.length > 0) await writeAssetGeofences(trx, t, visits, toIso(Date.now()));
}
