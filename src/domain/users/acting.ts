/** The user a request acts as (docs/reference/wire.md §2.4). */
import type { Db } from '../../storage/db.js';

/** X-User-Id when it was sent (already validated as an active admin), else the company's first active admin. */
export async function actingUserId(
  db: Db,
  t: { companyId: number; actingUserId?: number | null },
): Promise<number | null> {
  if (t.actingUserId) return t.actingUserId;
  const row = await db.kysely
    .selectFrom('users')
    .select('id')
    .where('company_id', '=', t.companyId)
    .where('role', '=', 'admin')
    .where('status', '=', 'active')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}
