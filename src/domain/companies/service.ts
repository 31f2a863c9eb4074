/** Companies are the tenants. A company has an integer id and a string code such as "FP0000001". */
import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { CompaniesTable, Database } from '../../storage/schema.js';
import { bool, json, nowIso } from '../../storage/values.js';
import { badRequest, notFound } from '../../core/errors.js';
import { CYCLES } from '../users/fields.js';
import { TIME_ZONES } from '../../core/time-zone.js';

export type CompanyRow = Selectable<CompaniesTable>;

export interface CompanyInput {
  name: string;
  street?: string | null;
  city?: string | null;
  state?: string | null;
  zip?: string | null;
  dot_ids?: string[];
  cycle?: string;
  time_zone?: string;
  metric_units?: boolean;
}

export function companyCode(id: number): string {
  return `FP${String(id).padStart(7, '0')}`;
}

export async function createCompany(db: Db, input: CompanyInput): Promise<CompanyRow> {
  const name = input.name?.trim();
  if (!name) throw badRequest('name is required');
  if (name.length > 255) throw badRequest('name must be at most 255 characters long');
  if (input.cycle && !(CYCLES as readonly string[]).includes(input.cycle)) {
    throw badRequest(`cycle must be one of: ${CYCLES.join(', ')}`);
  }
  if (input.time_zone && !(input.time_zone in TIME_ZONES)) {
    throw badRequest(`time_zone must be one of: ${Object.keys(TIME_ZONES).join(', ')}`);
  }
  const now = nowIso();
  const id = await db.kysely.transaction().execute((trx) =>
    insertCompanyRow(
      trx,
      {
        name,
        street: input.street ?? null,
        city: input.city ?? null,
        state: input.state ?? null,
        zip: input.zip ?? null,
        dot_ids: input.dot_ids ?? [],
        cycle: input.cycle ?? '70_8',
        time_zone: input.time_zone ?? 'Eastern Time (US & Canada)',
        metric_units: bool(input.metric_units),
      },
      now,
    ),
  );
  return getCompany(db, id);
}

/** A new company's fields as stored: no HOS exception on; `metric_units` 0 or 1. */
export interface CompanyValues {
  name: string;
  street: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  dot_ids: string[];
  cycle: string;
  time_zone: string;
  metric_units: number;
}

/**
 * Inserts a company on the caller's transaction and gives it its code (`FP0000005`, from the id the
 * insert returns; a random pending code until then): the id.
 */
export async function insertCompanyRow(trx: Kysely<Database>, v: CompanyValues, now: string): Promise<number> {
  const row = await trx
    .insertInto('companies')
    .values({
      company_code: `pending-${randomBytes(8).toString('hex')}`,
      name: v.name,
      street: v.street,
      city: v.city,
      state: v.state,
      zip: v.zip,
      dot_ids: json(v.dot_ids),
      cycle: v.cycle,
      time_zone: v.time_zone,
      exception_24_hour_restart: 0,
      exception_8_hour_break: 0,
      exception_wait_time: 0,
      exception_short_haul: 0,
      exception_ca_farm_school_bus: 0,
      exception_adverse_driving: 0,
      metric_units: v.metric_units,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('companies')
    .set({ company_code: companyCode(row.id) })
    .where('id', '=', row.id)
    .execute();
  return row.id;
}

export async function getCompany(db: Db, id: number): Promise<CompanyRow> {
  const row = await db.kysely.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(`company ${id}`);
  return row;
}

/** Every company, in id order, a page at a time (`fleet company list`). */
export async function listCompanies(
  db: Db,
  limit: number,
  offset: number,
): Promise<{ rows: CompanyRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    db.kysely.selectFrom('companies').selectAll().orderBy('id').limit(limit).offset(offset).execute(),
    companyCount(db),
  ]);
  return { rows, total };
}

export async function companyCount(db: Db): Promise<number> {
  const row = await db.kysely
    .selectFrom('companies')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The company's time zone: its Rails name and IANA zone, or null when the company or its zone is unknown. */
export async function companyTimeZone(
  db: Pick<Db, 'kysely'>,
  companyId: number,
): Promise<{ name: string; zone: string } | null> {
  const c = await db.kysely.selectFrom('companies').select('time_zone').where('id', '=', companyId).executeTakeFirst();
  const zone = c ? TIME_ZONES[c.time_zone] : undefined;
  return c && zone ? { name: c.time_zone, zone } : null;
}
