/**
 * What other areas do with a driver's daily log rows (`hos_logs`, owned by HOS): an inspection report
 * names the log of its day (src/domain/inspections/create.ts), created on first use as HOS creates it.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';

/** Whether `logId` is a log of this driver in this company. */
export async function isDriversLog(
  db: Kysely<Database>,
  companyId: number,
  driverId: number,
  logId: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('hos_logs')
    .select('id')
    .where('id', '=', logId)
    .where('company_id', '=', companyId)
    .where('driver_id', '=', driverId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The id of the driver's log of `date` (YYYY-MM-DD), created if it does not exist yet. */
export async function driverLogId(
  trx: Kysely<Database>,
  companyId: number,
  driverId: number,
  date: string,
  now: string,
): Promise<number> {
  await trx
    .insertInto('hos_logs')
    .values({ company_id: companyId, driver_id: driverId, log_date: date, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['driver_id', 'log_date']).doNothing())
    .execute();
  const row = await trx
    .selectFrom('hos_logs')
    .select('id')
    .where('driver_id', '=', driverId)
    .where('log_date', '=', date)
    .executeTakeFirstOrThrow();
  return row.id;
}
