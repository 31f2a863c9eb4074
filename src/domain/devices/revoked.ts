/** The devices area's answer to the device API's authentication (src/telemetry/device-auth.ts) for a refused credential. */
import type { Db } from '../../storage/db.js';
import { digest } from '../../auth/secrets.js';

/** The identifier of the revoked device this credential belonged to, or null (then no device ever had it). */
export async function revokedIdentifier(db: Db, credential: string): Promise<string | null> {
  const row = await db.kysely
    .selectFrom('devices')
    .select('identifier')
    .where('credential_digest', '=', digest(credential))
    .where('revoked_at', 'is not', null)
    .executeTakeFirst();
  return row?.identifier ?? null;
}
