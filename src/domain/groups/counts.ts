/** How many users and vehicles each group holds, for a page of groups in two queries. */
import type { Db } from '../../storage/db.js';
import type { Tenant } from '../tenant.js';
import type { MemberTable } from './membership.js';

export async function memberCounts(
  db: Db,
  t: Tenant,
  table: MemberTable,
  groupIds: number[],
): Promise<Map<number, number>> {
  const out = new Map<number, number>(groupIds.map((g) => [g, 0]));
  if (groupIds.length === 0) return out;
  const rows = await db.kysely
    .selectFrom(table)
    .select((eb) => ['group_id', eb.fn.countAll().as('n')])
    .where('company_id', '=', t.companyId)
    .where('group_id', 'in', groupIds)
    .groupBy('group_id')
    .execute();
  for (const r of rows) out.set(r.group_id, Number(r.n));
  return out;
}
