/**
 * Asset locations: the positions the telemetry pipeline stores for assets with a gateway
 * (table asset_locations). Read-only here: the current location of each asset, and one asset's history.
 */
import type { Selectable } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { Tenant } from '../tenant.js';
import type { AssetLocationsTable } from './tables.js';
import { countOf } from '../../storage/query.js';
import { getAsset } from './service.js';

export type AssetLocationRow = Selectable<AssetLocationsTable>;

/** The latest location of each of these assets (by located_at), in one query. */
export async function latestAssetLocations(
  db: Db,
  companyId: number,
  assetIds: number[],
): Promise<Map<number, AssetLocationRow>> {
  const out = new Map<number, AssetLocationRow>();
  if (assetIds.length === 0) return out;
  const rows = await db.kysely
    .selectFrom('asset_locations as l')
    .selectAll('l')
    .where('l.company_id', '=', companyId)
    .where('l.asset_id', 'in', assetIds)
    .where((eb) =>
      eb(
        'l.located_at',
        '=',
        eb
          .selectFrom('asset_locations as m')
          .select((m) => m.fn.max('m.located_at').as('t'))
          .whereRef('m.asset_id', '=', 'l.asset_id'),
      ),
    )
    .orderBy('l.id')
    .execute();
  // Two fixes at the same instant: the first by id wins, so the answer is stable.
  for (const r of rows) if (!out.has(r.asset_id)) out.set(r.asset_id, r);
  return out;
}

export interface HistoryWindow {
  start: Date;
  end: Date;
}

/** One asset's locations in time order, optionally within [start, end); 404 for another company's asset. */
export async function assetLocationHistory(
  db: Db,
  t: Tenant,
  assetId: number,
  window: HistoryWindow | undefined,
  limit: number,
  offset: number,
) {
  await getAsset(db, t, assetId);
  let base = db.kysely
    .selectFrom('asset_locations')
    .where('company_id', '=', t.companyId)
    .where('asset_id', '=', assetId);
  if (window) {
    base = base
      .where('located_at', '>=', window.start.toISOString())
      .where('located_at', '<', window.end.toISOString());
  }
  const [rows, total] = await Promise.all([
    base.selectAll().orderBy('located_at').orderBy('id').limit(limit).offset(offset).execute(),
    countOf(base.select('id')),
  ]);
  return { rows, total };
}

/** Where a page of an asset's history ends: the last location's time and id (a uuid; locations are in that order). */
export interface HistoryCursor {
  t: string;
  id: string;
}

/**
 * One asset's locations in [start, end) after `after`, in time order: `limit` of them, and the cursor
 * of the next page (null on the last). 404 for another company's asset.
 */
export async function assetLocationPage(
  db: Db,
  t: Tenant,
  assetId: number,
  window: HistoryWindow,
  after: HistoryCursor | null,
  limit: number,
) {
  await getAsset(db, t, assetId);
  let q = db.kysely
    .selectFrom('asset_locations')
    .selectAll()
    .where('company_id', '=', t.companyId)
    .where('asset_id', '=', assetId)
    .where('located_at', '>=', window.start.toISOString())
    .where('located_at', '<', window.end.toISOString());
  if (after)
    q = q.where((eb) =>
      eb.or([eb('located_at', '>', after.t), eb.and([eb('located_at', '=', after.t), eb('id', '>', after.id)])]),
    );
  const rows = await q
    .orderBy('located_at')
    .orderBy('id')
    .limit(limit + 1)
    .execute();
  const more = rows.length > limit;
  if (more) rows.pop();
  const last = rows[rows.length - 1];
  return { rows, next: more && last ? { t: last.located_at, id: last.id } : null };
}
