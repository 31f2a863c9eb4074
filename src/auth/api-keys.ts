/**
 * Company API keys (`X-Api-Key`, any letter case). A key is shown once at creation and stored as its
 * SHA-256 digest; it acts as the company's admin with every scope.
 */
import type { Db } from '../storage/db.js';
import { nowIso } from '../storage/values.js';
import { AppError, notFound } from '../http/plumbing/errors.js';
import type { Authenticator } from '../http/plumbing/auth.js';
import { digest, newSecret } from './secrets.js';

export interface CreatedApiKey {
  id: number;
  company_id: number;
  name: string;
  api_key: string;
}

export async function createApiKey(db: Db, companyId: number, name = 'default'): Promise<CreatedApiKey> {
  const company = await db.kysely.selectFrom('companies').select('id').where('id', '=', companyId).executeTakeFirst();
  if (!company) throw notFound(`company ${companyId}`);
  const key = newSecret('fk');
  const row = await db.kysely
    .insertInto('api_keys')
    .values({ company_id: companyId, name, key_hash: digest(key), key_prefix: key.slice(0, 7), created_at: nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, company_id: companyId, name, api_key: key };
}

export async function revokeApiKey(db: Db, id: number): Promise<boolean> {
  const res = await db.kysely
    .updateTable('api_keys')
    .set({ revoked_at: nowIso() })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export const apiKeyAuthenticator: Authenticator = {
  name: 'api_key',
  credential(req) {
    const v = req.headers['x-api-key'];
    if (v === undefined) return null;
    return Array.isArray(v) ? (v[0] ?? '') : v;
  },
  async authenticate(db, key) {
    // Kept in the read cache while `api_keys` is unchanged: a revocation anywhere drops it at once.
    const hash = digest(key.trim());
    const row = await db.cache.rememberFound(`api_key ${hash}`, async () =>
      (await db.kysely.selectFrom('api_keys').select(['id', 'company_id']).where('key_hash', '=', hash).where('revoked_at', 'is', null).executeTakeFirst()) ?? null);
    if (!row) return new AppError('invalid_api_key', 'invalid API key');
    return { companyId: row.company_id, credential: { type: 'api_key', id: row.id }, scopes: 'all' };
  },
};

