/**
 * Writes processor outputs inside the processing transaction: each derived row is upserted by its
 * natural key (so a replay rewrites rather than duplicates), and what a webhook would announce is
 * recorded as a domain event in the same transaction (docs/reference/wire.md §7.6): fault_code_opened/closed,
 * driver_performance_event_created/updated (and, for speeding, speeding_event_created/updated),
 * vehicle_geofence_event and asset_geofence_event
 * (./outputs-geofences.ts), engine_toggle_event, vehicle_gateway_disconnected/_disconnect_ended. A replay writes rows without events
 * (`announce: false`). Utilization increments add up per bucket.
 */
import { sql } from 'kysely';
import { json, toIso } from '../../storage/values.js';
import { recordEvent } from '../../events/outbox.js';
import type { FaultRow, IdleRow, Output, PerformanceRow, PeriodRow, UtilizationRow } from '../processors/types.js';
import { describePlace } from '../geocode/places.js';
import type { Trx } from './tx.js';
import type { DbKind } from '../../storage/db.js';
import { prepared } from '../../storage/prepared.js';
import { faultBody, gatewayBody, performanceBody, speedingBody } from './payloads-derived.js';
import { writeAssetGeofences, writeVehicleGeofences } from './outputs-geofences.js';

export interface Target {
  companyId: number;
  vehicleId: number;
  announce: boolean;
  /** The database's kind, for the statements prepared once per kind (storage/prepared.ts). */
  kind: DbKind;
}

const iso = (t: number | null) => (t === null ? null : toIso(t));

/** Keeps the last output per natural key (a period opened and closed in one run is written once). */
function lastByKey<T>(items: T[], key: (t: T) => string): T[] {
  const m = new Map<string, T>();
  for (const it of items) {
    const k = key(it);
    m.delete(k);
    m.set(k, it);
  }
  return [...m.values()];
}

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
async function writePerformance(trx: Trx, t: Target, rows: PerformanceRow[], now: string) {
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

async function writeUtilization(trx: Trx, t: Target, rows: UtilizationRow[]) {
  const sums = new Map<string, UtilizationRow>();
  for (const r of rows) {
    const k = `${r.driverId ?? 0}@${r.bucketStart}`;
    const s = sums.get(k);
    if (!s) sums.set(k, { ...r });
    else {
      s.drivingS += r.drivingS;
      s.idleS += r.idleS;
      s.drivingFuelL += r.drivingFuelL;
      s.idleFuelL += r.idleFuelL;
      s.distanceKm += r.distanceKm;
      s.ptoIdleS += r.ptoIdleS;
      s.ptoIdleFuelL += r.ptoIdleFuelL;
    }
  }
  for (const r of sums.values()) {
    await addUtilization(
      trx,
      t.kind,
      t.companyId,
      t.vehicleId,
      r.driverId ?? 0,
      toIso(r.bucketStart),
      r.drivingS,
      r.idleS,
      r.drivingFuelL,
      r.idleFuelL,
      r.distanceKm,
      r.ptoIdleS,
      r.ptoIdleFuelL,
    );
  }
}

const add = (
  c: 'driving_s' | 'idle_s' | 'driving_fuel_l' | 'idle_fuel_l' | 'distance_km' | 'pto_idle_s' | 'pto_idle_fuel_l',
) => sql<number>`utilization_buckets.${sql.ref(c)} + excluded.${sql.ref(c)}`;

/** Adds to one utilization bucket (a batch touches one or two: prepared once, run per bucket). */
const addUtilization = prepared(
  (
    db,
    _kind,
    companyId: number,
    vehicleId: number,
    driverId: number,
    bucketStart: string,
    drivingS: number,
    idleS: number,
    drivingFuelL: number,
    idleFuelL: number,
    distanceKm: number,
    ptoIdleS: number,
    ptoIdleFuelL: number,
  ) =>
    db
      .insertInto('utilization_buckets')
      .values({
        company_id: companyId,
        vehicle_id: vehicleId,
        driver_id: driverId,
        bucket_start: bucketStart,
        driving_s: drivingS,
        idle_s: idleS,
        driving_fuel_l: drivingFuelL,
        idle_fuel_l: idleFuelL,
        distance_km: distanceKm,
        pto_idle_s: ptoIdleS,
        pto_idle_fuel_l: ptoIdleFuelL,
      })
      .onConflict((oc) =>
        oc.columns(['vehicle_id', 'driver_id', 'bucket_start']).doUpdateSet({
          driving_s: add('driving_s'),
          idle_s: add('idle_s'),
          driving_fuel_l: add('driving_fuel_l'),
          idle_fuel_l: add('idle_fuel_l'),
          distance_km: add('distance_km'),
          pto_idle_s: add('pto_idle_s'),
          pto_idle_fuel_l: add('pto_idle_fuel_l'),
        }),
      ),
);

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
