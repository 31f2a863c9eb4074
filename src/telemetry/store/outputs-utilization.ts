/** Utilization increments from the processors, added up per (vehicle, driver, bucket). */
import { sql } from 'kysely';
import { toIso } from '../../storage/values.js';
import type { UtilizationRow } from '../processors/types.js';
import type { Trx } from './tx.js';
import { prepared } from '../../storage/prepared.js';
import type { Target } from './outputs-target.js';

/** Most buckets whose increments go along with the state row's update (PostgreSQL, ./outputs-target.ts). */
const ALONG_BUCKETS = 2;

export async function writeUtilization(trx: Trx, t: Target, rows: UtilizationRow[]) {
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
  // Sent along with a later statement only for a batch of a bucket or two (what small batches make): a
  // batch spanning hours would make one long statement of many parts, each a text of its own to keep.
  const defer = sums.size <= ALONG_BUCKETS ? t.defer : undefined;
  for (const r of sums.values()) {
    // One row per (driver, bucket): deferred increments never touch the same row twice.
    const q = addUtilization.compiled(
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
    if (defer) defer.push(q);
    else await trx.executeQuery(q);
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
