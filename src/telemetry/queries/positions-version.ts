/** A cheap fingerprint of a company's current positions (vehicle_locations_latest): it changes whenever a position does. */
import type { Db } from '../../storage/db.js';

export async function positionsVersion(db: Db, companyId: number): Promise<string> {
  const row = await db.kysely
    .selectFrom('vehicle_locations_latest')
    .select((eb) => [eb.fn.max('updated_at').as('at'), eb.fn.countAll().as('n')])
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  return `${row?.at ?? ''}|${row?.n ?? 0}`;
}
