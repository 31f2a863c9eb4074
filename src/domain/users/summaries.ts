/** Batch loading of user summaries for embedding (driver, current_driver, a group's owner, …). */
import type { Db } from '../../storage/db.js';
import { USER_SUMMARY_COLUMNS, type UserSummaryRow } from '../../wire/summaries.js';

export async function userSummaryRows(db: Pick<Db, 'kysely'>, companyId: number, ids: Array<number | null | undefined>): Promise<Map<number, UserSummaryRow>> {
  const wanted = [...new Set(ids.filter((x): x is number => typeof x === 'number'))];
  const out = new Map<number, UserSummaryRow>();
  if (wanted.length === 0) return out;
  const rows = await db.kysely
    .selectFrom('users')
    .select([...USER_SUMMARY_COLUMNS])
    .where('company_id', '=', companyId)
    .where('id', 'in', wanted)
    .execute();
  for (const r of rows) out.set(r.id, r);
  return out;
}
