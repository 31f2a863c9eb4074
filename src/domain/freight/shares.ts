/**
 * The carrier's side of freight visibility: shares. A share says "these vehicles of mine are visible to
 * that shipper or broker from start_time until end_time". Revoking a share ends it at once, and with it
 * everything its subscriptions showed.
 */
import type { Selectable } from 'kysely';
import type { Db } from '../../storage/db.js';
import { nowIso } from '../../storage/values.js';
import { countOf } from '../../storage/query.js';
import { notFound, validation } from '../../core/errors.js';
import type { Tenant } from '../tenant.js';
import type { FreightSharesTable } from './tables.js';
import { parseInstant } from '../inspections/instant.js';
import { findCompanyByRef, parseCompanyRef } from './parties.js';
import { vehicleRefs } from '../vehicles/refs.js';
import type { ShareInput } from './input.js';

export type ShareRow = Selectable<FreightSharesTable>;

export async function createShare(db: Db, t: Tenant, input: ShareInput): Promise<ShareRow> {
  const start = parseInstant('start_time', input.start_time);
  const end = parseInstant('end_time', input.end_time);
  if (end <= start) throw validation('end_time', 'must be after start_time');
  if (end.getTime() <= Date.now()) throw validation('end_time', 'must be in the future');
  const shipper = await findCompanyByRef(db, parseCompanyRef('shipper_company_id', input.shipper_company_id));
  if (!shipper) throw notFound(`shipper_company_id: company ${String(input.shipper_company_id).trim()}`);
  if (shipper.id === t.companyId) throw validation('shipper_company_id', 'must name another company than your own');
  const ids = [...new Set(input.vehicle_ids)];
  const found = await vehicleRefs(db.kysely, t.companyId, ids);
  const mine = new Set(found.map((v) => v.id));
  const missing = ids.find((id) => !mine.has(id));
  if (missing !== undefined) throw notFound(`vehicle_ids: vehicle ${missing}`);
  const now = nowIso();
  const id = await db.kysely.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('freight_shares')
      .values({
        carrier_company_id: t.companyId,
        shipper_company_id: shipper.id,
        starts_at: start.toISOString(),
        ends_at: end.toISOString(),
        revoked_at: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('freight_share_vehicles')
      .values(ids.map((v) => ({ share_id: row.id, carrier_company_id: t.companyId, vehicle_id: v })))
      .execute();
    return row.id;
  });
  return getShare(db, t, id);
}

export async function getShare(db: Db, t: Tenant, id: number): Promise<ShareRow> {
  const row = await db.kysely
    .selectFrom('freight_shares')
    .selectAll()
    .where('carrier_company_id', '=', t.companyId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound(`freight share ${id}`);
  return row;
}

/** The carrier's shares, newest window last (id order); `active` keeps those not revoked and not ended. */
export async function listShares(db: Db, t: Tenant, f: { active?: boolean }, limit: number, offset: number) {
  let base = db.kysely.selectFrom('freight_shares').where('carrier_company_id', '=', t.companyId);
  if (f.active) base = base.where('revoked_at', 'is', null).where('ends_at', '>', nowIso());
  const [rows, total] = await Promise.all([
    base.selectAll().orderBy('id').limit(limit).offset(offset).execute(),
    countOf(base.select('id')),
  ]);
  return { rows, total };
}

/** Vehicle ids of a page of shares, in one query. */
export async function shareVehicleIds(db: Db, shareIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(shareIds.map((id) => [id, []]));
  if (shareIds.length === 0) return out;
  const rows = await db.kysely
    .selectFrom('freight_share_vehicles')
    .select(['share_id', 'vehicle_id'])
    .where('share_id', 'in', shareIds)
    .orderBy('vehicle_id')
    .execute();
  for (const r of rows) out.get(r.share_id)?.push(r.vehicle_id);
  return out;
}

/** Revokes a share; revoking twice is not an error. */
export async function revokeShare(db: Db, t: Tenant, id: number): Promise<void> {
  const row = await getShare(db, t, id);
  if (row.revoked_at) return;
  const now = nowIso();
  await db.kysely
    .updateTable('freight_shares')
    .set({ revoked_at: now, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/**
 * Shares to a shipper that include these vehicles (revoked ones too; callers apply the rules). A vehicle
 * belongs to one carrier, so the vehicle ids imply the carrier.
 */
export async function sharesOfVehicles(db: Db, shipperId: number, vehicleIds: number[]) {
  if (vehicleIds.length === 0) return [];
  return db.kysely
    .selectFrom('freight_shares as s')
    .innerJoin('freight_share_vehicles as v', 'v.share_id', 's.id')
    .select(['s.id', 'v.vehicle_id', 's.starts_at', 's.ends_at', 's.revoked_at'])
    .where('s.shipper_company_id', '=', shipperId)
    .where('v.vehicle_id', 'in', vehicleIds)
    .orderBy('s.id')
    .execute();
}
