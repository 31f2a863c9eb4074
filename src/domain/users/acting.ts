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

/** `id` when it is an active admin of the company (the X-User-Id a request may act as), else undefined. */
export async function activeAdminId(db: Db, companyId: number, id: number): Promise<number | undefined> {
  const row = await db.kysely
    .selectFrom('users')
    .select('id')
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('role', '=', 'admin')
    .where('status', '=', 'active')
    .executeTakeFirst();
  return row?.id;
}
