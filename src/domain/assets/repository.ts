/** Tenant-scoped queries on assets. */
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database } from '../../storage/schema.js';
import type { AssetsTable } from './tables.js';
import { containsCi, countOf } from '../../storage/query.js';
import { sql } from 'kysely';

export type AssetRow = Selectable<AssetsTable>;

export interface AssetFilters {
  name?: string;
  status?: string;
  /** With `name`: match the whole name (case-insensitive) instead of a part of it. */
  exact_match?: boolean;
  ids?: number[];
}

function filtered(db: Kysely<Database>, companyId: number, f: AssetFilters) {
  let q = db.selectFrom('assets').where('assets.company_id', '=', companyId);
  if (f.status) q = q.where('assets.status', '=', f.status);
  if (f.ids?.length) q = q.where('assets.id', 'in', f.ids);
  if (f.name !== undefined && f.name.trim() !== '') {
    const name = f.name.trim();
    q = f.exact_match
      ? q.where(sql<boolean>`lower(${sql.ref('assets.name')}) = ${name.toLowerCase()}`)
      : q.where(containsCi(sql.ref('assets.name'), name));
  }
  return q;
}

export async function listAssets(
  db: Kysely<Database>,
  companyId: number,
  f: AssetFilters,
  limit: number,
  offset: number,
) {
  const base = filtered(db, companyId, f);
  const [rows, total] = await Promise.all([
    base.selectAll('assets').orderBy('assets.id').limit(limit).offset(offset).execute(),
    countOf(base.select('assets.id')),
  ]);
  return { rows, total };
}

export function findAsset(db: Kysely<Database>, companyId: number, id: number): Promise<AssetRow | undefined> {
  return db
    .selectFrom('assets')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function nameTaken(db: Kysely<Database>, companyId: number, name: string): Promise<boolean> {
  const row = await db
    .selectFrom('assets')
    .select('id')
    .where('company_id', '=', companyId)
    .where('name', '=', name)
    .executeTakeFirst();
  return !!row;
}

export async function insertAsset(db: Kysely<Database>, values: Insertable<AssetsTable>): Promise<number> {
  return (await db.insertInto('assets').values(values).returning('id').executeTakeFirstOrThrow()).id;
}
