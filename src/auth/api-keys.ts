/**
 * Company API keys (`X-Api-Key`, any letter case). A key is shown once at creation and stored as its
 * SHA-256 digest; it acts as the company's admin with every scope.
 */
import type { Selectable } from 'kysely';
import type { Db } from '../storage/db.js';
import type { ApiKeysTable } from '../storage/schema.js';
import { countOf } from '../storage/query.js';
import { nowIso } from '../storage/values.js';
import { AppError, notFound } from '../core/errors.js';
import type { Authenticator } from './authenticator.js';
import type { Principal } from '../core/context.js';
import { digest, newSecret } from './secrets.js';
import { getCompany } from '../domain/companies/service.js';

export interface CreatedApiKey {
  id: number;
  company_id: number;
  name: string;
  api_key: string;
}

export async function createApiKey(db: Db, companyId: number, name = 'default'): Promise<CreatedApiKey> {
  await getCompany(db, companyId);
  const key = newSecret('fk');
  const row = await db.kysely
    .insertInto('api_keys')
    .values({ company_id: companyId, name, key_hash: digest(key), key_prefix: key.slice(0, 7), created_at: nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, company_id: companyId, name, api_key: key };
}

/** A key as stored: its name, its first characters (`key_prefix`) and dates, never the key. */
export type ApiKeyRow = Omit<Selectable<ApiKeysTable>, 'key_hash'>;
const API_KEY_COLUMNS = ['id', 'company_id', 'name', 'key_prefix', 'created_at', 'revoked_at'] as const;

export async function getApiKey(db: Db, id: number): Promise<ApiKeyRow> {
  const row = await db.kysely.selectFrom('api_keys').select(API_KEY_COLUMNS).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(`API key ${id}`);
  return row;
}

/** A company's keys in id order: the working ones, or with `revoked` the revoked ones too. */
export async function listApiKeys(db: Db, companyId: number, f: { revoked?: boolean }, limit: number, offset: number) {
  let base = db.kysely.selectFrom('api_keys').where('company_id', '=', companyId);
  if (!f.revoked) base = base.where('revoked_at', 'is', null);
  const [rows, total] = await Promise.all([
    base.select(API_KEY_COLUMNS).orderBy('id').limit(limit).offset(offset).execute(),
    countOf(base.select('id')),
  ]);
  return { rows: rows as ApiKeyRow[], total };
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
  authenticate(db, key) {
    // Kept in the read cache while `api_keys` is unchanged: a revocation anywhere drops it at once.
    const hash = digest(key.trim());
    const cacheKey = `api_key ${hash}`;
    const known = db.cache.peek<KeyRow>(cacheKey);
    if (known !== undefined) return keyPrincipal(known);
    return db.cache
      .rememberFound(
        cacheKey,
        async () =>
          (await db.kysely
            .selectFrom('api_keys')
            .select(['id', 'company_id'])
            .where('key_hash', '=', hash)
            .where('revoked_at', 'is', null)
            .executeTakeFirst()) ?? null,
      )
      .then(keyPrincipal);
  },
};

interface KeyRow {
  id: number;
  company_id: number;
}

function keyPrincipal(row: KeyRow | null): Principal | AppError {
  if (!row) return new AppError('invalid_api_key', 'invalid API key');
  return { companyId: row.company_id, credential: { type: 'api_key', id: row.id }, scopes: 'all' };
}
