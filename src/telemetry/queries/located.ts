/**
 * What IFTA reads of the stored records (src/domain/ifta): a vehicle's located fixes, its last ECM
 * odometer reading, and the records stored since a given id. The telemetry area owns `telemetry_records`;
 * these are the fragments it lends (a query builder the caller narrows, orders and limits).
 */
import { sql, type Kysely } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { Database } from '../../storage/schema.js';

/** The vehicle's records with a position. */
const located = (k: Kysely<Database>, companyId: number, vehicleId: number) =>
  k
    .selectFrom('telemetry_records')
    .where('company_id', '=', companyId)
    .where('vehicle_id', '=', vehicleId)
    .where('lat', 'is not', null)
    .where('lon', 'is not', null);

/** Those records with the columns IFTA's allocation reads, to narrow by `fix_time`. */
export function locatedFixes(k: Kysely<Database>, companyId: number, vehicleId: number) {
  return located(k, companyId, vehicleId).select([
    'fix_time',
    'lat',
    'lon',
    'odometer_km',
    'speed_kph',
    'type',
    'data',
  ]);
}

/** The same records' fix times only (where a day is all that is wanted). */
export function locatedFixTimes(k: Kysely<Database>, companyId: number, vehicleId: number) {
  return located(k, companyId, vehicleId).select('fix_time');
}

/** The vehicle's last ECM odometer reading at or before `atIso`, or undefined. */
export function odometerAtOrBefore(k: Kysely<Database>, companyId: number, vehicleId: number, atIso: string) {
  return k
    .selectFrom('telemetry_records')
    .select(['odometer_km', 'fix_time'])
    .where('company_id', '=', companyId)
    .where('vehicle_id', '=', vehicleId)
    .where('odometer_km', 'is not', null)
    .where('fix_time', '<=', atIso)
    .orderBy('fix_time', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * The highest record id below which every record is committed. On PostgreSQL ids are drawn before
 * commit, so a share lock waits for the writes in flight (at most 30 s) before the maximum is read.
 */
export async function committedMaxRecordId(db: Db): Promise<number> {
  const max = (k: Kysely<Database>) =>
    k
      .selectFrom('telemetry_records')
      .select((eb) => eb.fn.max('id').as('m'))
      .executeTakeFirst();
  if (db.kind === 'sqlite') return Number((await max(db.kysely))?.m ?? 0);
  return db.kysely.transaction().execute(async (trx) => {
    await sql`set local lock_timeout = '30s'`.execute(trx);
    await sql`lock table telemetry_records in share mode`.execute(trx);
    return Number((await max(trx))?.m ?? 0);
  });
}

/** Each (vehicle, UTC day) with located records of ids in (fromId, toId], with its first and last fix time. */
export function locatedDaysBetween(k: Kysely<Database>, companyId: number, fromId: number, toId: number) {
  const day = sql<string>`substr(fix_time, 1, 10)`;
  return k
    .selectFrom('telemetry_records')
    .select(['vehicle_id', day.as('day')])
    .select((eb) => [eb.fn.min('fix_time').as('first'), eb.fn.max('fix_time').as('last')])
    .where('company_id', '=', companyId)
    .where('id', '>', fromId)
    .where('id', '<=', toId)
    .where('vehicle_id', 'is not', null)
    .where('lat', 'is not', null)
    .where('lon', 'is not', null)
    .groupBy(['vehicle_id', day])
    .execute();
}
