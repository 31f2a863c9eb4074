/** Use cases on assets (docs/reference/wire.md §4.24): trailers and other equipment a fleet tracks. */
import type { Insertable, Kysely } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { Database } from '../../storage/schema.js';
import type { AssetsTable } from './tables.js';
import { bool, nowIso } from '../../storage/values.js';
import { isUniqueViolation } from '../../storage/query.js';
import { duplicate, notFound, validation } from '../../core/errors.js';
import type { Tenant } from '../tenant.js';
import { assertGroups } from '../groups/membership.js';
import { actingUserId } from '../users/acting.js';
import { ASSET_BOOL_FIELDS, ASSET_NUMBER_FIELDS, ASSET_TEXT_FIELDS } from './fields.js';
import {
  assertExternalIdsFree,
  externalIdsOf,
  findByExternalId,
  normalizeExternalIds,
  setExternalIds,
  type ExternalId,
} from './external-ids.js';
import * as repo from './repository.js';
import type { AssetInput } from './input.js';

export type { AssetRow, AssetFilters } from './repository.js';

export async function getAsset(db: Db, t: Tenant, id: number): Promise<repo.AssetRow> {
  const row = await repo.findAsset(db.kysely, t.companyId, id);
  if (!row) throw notFound(`asset ${id}`);
  return row;
}

export function listAssets(db: Db, t: Tenant, f: repo.AssetFilters, limit: number, offset: number) {
  return repo.listAssets(db.kysely, t.companyId, f, limit, offset);
}

/** `GET /v1/assets/lookup_by_external_id`: the asset holding this external id, or 404. */
export async function lookupAsset(db: Db, t: Tenant, key: ExternalId): Promise<repo.AssetRow> {
  if (!key.external_id?.trim()) throw validation('external_id', 'is required');
  if (!key.integration_name?.trim()) throw validation('integration_name', 'is required');
  const id = await findByExternalId(db.kysely, t.companyId, 'asset', key);
  const row = id === undefined ? undefined : await repo.findAsset(db.kysely, t.companyId, id);
  if (!row) throw notFound('asset');
  return row;
}

/** Group ids of a page of assets, in one query. */
export async function assetGroupIds(db: Db, ids: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const rows = await db.kysely
    .selectFrom('group_assets')
    .select(['member_id', 'group_id'])
    .where('member_id', 'in', ids)
    .orderBy('group_id')
    .execute();
  for (const r of rows) out.get(r.member_id)?.push(r.group_id);
  return out;
}

export const assetExternalIds = (db: Db, ids: number[]) => externalIdsOf(db.kysely, 'asset', ids);

async function addGroups(trx: Kysely<Database>, companyId: number, assetId: number, groupIds: number[]) {
  const unique = [...new Set(groupIds)];
  if (unique.length === 0) return;
  const now = nowIso();
  await trx
    .insertInto('group_assets')
    .values(unique.map((g) => ({ company_id: companyId, group_id: g, member_id: assetId, created_at: now })))
    .execute();
}

function columns(input: AssetInput): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of ASSET_TEXT_FIELDS) {
    const v = input[f];
    if (v !== undefined) out[f] = v === null || v.trim() === '' ? null : v.trim();
  }
  for (const f of ASSET_NUMBER_FIELDS) if (input[f] !== undefined) out[f] = input[f];
  for (const f of ASSET_BOOL_FIELDS) {
    const v = input[f];
    if (v !== undefined) out[f] = bool(v);
  }
  if (input.status !== undefined) out.status = input.status;
  if (input.type !== undefined) out.type = input.type.trim();
  if (input.year !== undefined) out.year = input.year === null ? null : String(input.year);
  if (input.axle !== undefined) out.axle = input.axle;
  return out;
}

export async function createAsset(
  db: Db,
  t: Tenant & { actingUserId?: number | null },
  input: AssetInput,
): Promise<repo.AssetRow> {
  const name = input.name?.trim();
  if (input.name === undefined) throw validation('name', 'is required');
  if (!name) throw validation('name', 'must not be empty');
  if (input.type !== undefined && input.type.trim() === '') throw validation('type', 'must not be empty');
  const externalIds = normalizeExternalIds('external_ids_attributes', input.external_ids_attributes ?? []);
  if (await repo.nameTaken(db.kysely, t.companyId, name)) throw duplicate('name', name);
  await assertGroups(db.kysely, t.companyId, input.group_ids ?? []);
  await assertExternalIdsFree(db.kysely, t.companyId, 'asset', 0, externalIds);
  const now = nowIso();
  const values = {
    ...columns(input),
    name,
    company_id: t.companyId,
    availability_status: input.availability_status ?? 'in_service',
    availability_updated_at: now,
    availability_updated_by: await actingUserId(db, t),
    created_at: now,
    updated_at: now,
  } as Insertable<AssetsTable>;
  try {
    const id = await db.kysely.transaction().execute(async (trx) => {
      const id = await repo.insertAsset(trx, values);
      await addGroups(trx, t.companyId, id, input.group_ids ?? []);
      await setExternalIds(trx, t.companyId, 'asset', id, externalIds);
      return id;
    });
    return getAsset(db, t, id);
  } catch (err) {
    // Two creates racing for one name or external id: the unique index decides, the loser gets a 400.
    if (isUniqueViolation(err)) {
      if (await repo.nameTaken(db.kysely, t.companyId, name)) throw duplicate('name', name);
      await assertExternalIdsFree(db.kysely, t.companyId, 'asset', 0, externalIds);
    }
    throw err;
  }
}
