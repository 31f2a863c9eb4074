/**
 * The two parties of freight visibility: the carrier that shares vehicles and the shipper or broker that
 * tracks them. A shipper names a carrier by `company_id` (our integer id or the company code such as
 * "FP0000001") or by one of its DOT ids; a carrier that shares nothing with the caller is "not found".
 */
import type { Selectable } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { CompaniesTable } from '../../storage/schema.js';
import { fromJson } from '../../storage/values.js';
import { notFound, validation } from '../../core/errors.js';
import { companiesByIds, companyByRef } from '../companies/refs.js';

export type CompanyRow = Selectable<CompaniesTable>;

export interface CarrierRef {
  company_id?: string | number;
  dot_id?: string;
}

/** `5`, `"5"` or `"FP0000005"` → a company reference; anything else is a 400 naming the field. */
export function parseCompanyRef(field: string, value: string | number): { id: number } | { code: string } {
  const v = String(value).trim();
  if (/^\d{1,10}$/.test(v) && Number(v) >= 1 && Number(v) <= 2_147_483_647) return { id: Number(v) };
  if (/^[A-Za-z]{2}\d{1,10}$/.test(v)) return { code: v.toUpperCase() };
  throw validation(field, `must be a company id (5) or company code (FP0000005), got "${v}"`);
}

export async function findCompanyByRef(
  db: Db,
  ref: { id: number } | { code: string },
): Promise<CompanyRow | undefined> {
  return companyByRef(db.kysely, ref);
}

/** Carriers with a share to this shipper that is not revoked and has not ended, in id order. */
export async function sharingCarriers(db: Db, shipperId: number, nowIso: string): Promise<CompanyRow[]> {
  const carriers = await db.kysely
    .selectFrom('freight_shares')
    .select('carrier_company_id')
    .distinct()
    .where('shipper_company_id', '=', shipperId)
    .where('revoked_at', 'is', null)
    .where('ends_at', '>', nowIso)
    .execute();
  const rows = await companiesByIds(
    db.kysely,
    carriers.map((c) => c.carrier_company_id),
  );
  return rows.sort((a, b) => a.id - b.id);
}

/** The carrier a shipper's request names; 400 when none is named, 404 when it shares nothing with the caller. */
export async function resolveCarrier(db: Db, shipperId: number, ref: CarrierRef, nowIso: string): Promise<CompanyRow> {
  const hasId = ref.company_id !== undefined && String(ref.company_id).trim() !== '';
  const hasDot = ref.dot_id !== undefined && ref.dot_id.trim() !== '';
  if (!hasId && !hasDot) throw validation('company_id', 'or dot_id is required');
  const carriers = await sharingCarriers(db, shipperId, nowIso);
  if (hasId) {
    const r = parseCompanyRef('company_id', ref.company_id!);
    const found = carriers.find((c) => ('id' in r ? c.id === r.id : c.company_code === r.code));
    if (!found) throw notFound(`company_id: carrier ${String(ref.company_id).trim()}`);
    if (hasDot && !dotIds(found).includes(ref.dot_id!.trim())) {
      throw validation('dot_id', `${ref.dot_id!.trim()} is not a DOT id of carrier ${found.company_code}`);
    }
    return found;
  }
  const dot = ref.dot_id!.trim();
  const found = carriers.find((c) => dotIds(c).includes(dot));
  if (!found) throw notFound(`dot_id: carrier with DOT id ${dot}`);
  return found;
}

export const dotIds = (c: CompanyRow): string[] => fromJson<unknown[]>(c.dot_ids, []).map(String);
