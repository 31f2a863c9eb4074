/**
 * Fuel purchases (docs/reference/wire.md §4.25): what was bought, where (a jurisdiction code, for IFTA fuel tax),
 * for which vehicle and by which driver. Created through the API they carry source `api` unless the
 * body says otherwise, and the acting admin as their uploader.
 */
import type { Kysely, Updateable } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { Database } from '../../storage/schema.js';
import { nowIso } from '../../storage/values.js';
import { isUniqueViolation } from '../../storage/query.js';
import { duplicate, notFound, validation } from '../../core/errors.js';
import { recordEvent } from '../../events/outbox.js';
import { isJurisdiction, normalizeJurisdiction } from '../jurisdictions.js';
import { actingUserId } from '../users/acting.js';
import { assertReferences } from '../documents/references.js';
import type { Tenant } from '../tenant.js';
import type { FuelPurchasesTable } from './tables.js';
import * as repo from './repository.js';
import type { FuelPurchaseInput } from './input.js';

export type { FuelPurchaseRow, FuelFilters } from './repository.js';

const PLAIN = [
  'fuel_type',
  'total_cost',
  'fuel',
  'fuel_unit',
  'odometer',
  'odometer_unit',
  'source',
  'vehicle_id',
  'driver_id',
  'receipt_document_id',
] as const;
const TEXT = ['offline_id', 'ref_no', 'vendor'] as const;

export function jurisdictionOf(field: string, code: string): string {
  if (!isJurisdiction(code)) {
    throw validation(
      field,
      `must be the two-letter code of a US state, DC, a Canadian province or territory, or MX (e.g. TX, ON), got "${code}"`,
    );
  }
  return normalizeJurisdiction(code);
}

function columns(input: FuelPurchaseInput): Updateable<FuelPurchasesTable> {
  if (input.fuel !== undefined && !(input.fuel > 0)) throw validation('fuel', 'must be greater than 0');
  const out: Record<string, unknown> = {};
  for (const f of PLAIN) if (input[f] !== undefined) out[f] = input[f];
  for (const f of TEXT)
    if (input[f] !== undefined) out[f] = input[f] === null || input[f]!.trim() === '' ? null : input[f]!.trim();
  if (input.purchased_at !== undefined) out.purchased_at = input.purchased_at;
  if (input.jurisdiction !== undefined) out.jurisdiction = jurisdictionOf('jurisdiction', input.jurisdiction);
  if (input.currency !== undefined) out.currency = input.currency.toUpperCase();
  return out as Updateable<FuelPurchasesTable>;
}

async function checkInput(db: Db, t: Tenant, input: FuelPurchaseInput, exceptId = 0) {
  const offline = input.offline_id?.trim();
  if (offline && (await repo.offlineIdTaken(db.kysely, t.companyId, offline, exceptId)))
    throw duplicate('offline_id', offline);
  await assertReferences(db.kysely, t.companyId, input);
}

async function announce(trx: Kysely<Database>, t: Tenant, id: number, trigger: 'created' | 'updated') {
  const data = await repo.findFuelPurchase(trx, t.companyId, id);
  await recordEvent(trx, {
    companyId: t.companyId,
    action: 'fuel_purchase_upserted',
    trigger,
    subject: { type: 'fuel_purchase', id },
    data,
  });
}

function translateUnique(err: unknown, input: FuelPurchaseInput): never {
  if (isUniqueViolation(err)) throw duplicate('offline_id', String(input.offline_id));
  throw err;
}

export async function getFuelPurchase(db: Db, t: Tenant, id: number): Promise<repo.FuelPurchaseRow> {
  const row = await repo.findFuelPurchase(db.kysely, t.companyId, id);
  if (!row) throw notFound(`fuel purchase ${id}`);
  return row;
}

export function listFuelPurchases(db: Db, t: Tenant, f: repo.FuelFilters, limit: number, offset: number) {
  return repo.listFuelPurchases(db.kysely, t.companyId, f, limit, offset);
}

export async function createFuelPurchase(
  db: Db,
  t: Tenant & { actingUserId?: number | null },
  input: FuelPurchaseInput,
) {
  for (const f of ['purchased_at', 'jurisdiction', 'fuel'] as const)
    if (input[f] === undefined) throw validation(f, 'is required');
  const values = columns(input);
  await checkInput(db, t, input);
  const now = nowIso();
  const row = {
    currency: 'USD',
    fuel_unit: 'gal',
    source: 'api',
    ...values,
    odometer_unit: input.odometer_unit ?? (input.odometer !== undefined && input.odometer !== null ? 'mi' : null),
    company_id: t.companyId,
    uploader_id: await actingUserId(db, t),
    created_at: now,
    updated_at: now,
  };
  try {
    const id = await db.kysely.transaction().execute(async (trx) => {
      const id = await repo.insertFuelPurchase(trx, row as never);
      await announce(trx, t, id, 'created');
      return id;
    });
    return getFuelPurchase(db, t, id);
  } catch (err) {
    translateUnique(err, input);
  }
}

export async function updateFuelPurchase(db: Db, t: Tenant, id: number, input: FuelPurchaseInput) {
  await getFuelPurchase(db, t, id);
  const values = { ...columns(input), updated_at: nowIso() };
  await checkInput(db, t, input, id);
  try {
    await db.kysely.transaction().execute(async (trx) => {
      await repo.updateFuelPurchase(trx, t.companyId, id, values);
      await announce(trx, t, id, 'updated');
    });
  } catch (err) {
    translateUnique(err, input);
  }
  return getFuelPurchase(db, t, id);
}

export async function deleteFuelPurchase(db: Db, t: Tenant, id: number): Promise<void> {
  const row = await getFuelPurchase(db, t, id);
  await db.kysely.transaction().execute(async (trx) => {
    await repo.deleteFuelPurchase(trx, t.companyId, id);
    await recordEvent(trx, {
      companyId: t.companyId,
      action: 'fuel_purchase_deleted',
      subject: { type: 'fuel_purchase', id },
      data: row,
    });
  });
}
