/**
 * What other areas join of a company: its id, code and name, as a derived table (`.as('c')`) that a
 * query of another area's table joins on a company id. The companies area owns the table; this is the
 * fragment it lends, as users and vehicles lend theirs (docs/architecture.md). Below it, the lookups of
 * companies that other code makes (the CLI's `--company`, a freight share's shipper, the demo's seeding).
 */
import type { Kysely, Selectable } from 'kysely';
import type { CompaniesTable, Database } from '../../storage/schema.js';

export function companyNames(db: Kysely<Database>) {
  return db.selectFrom('companies').select(['companies.id', 'companies.company_code', 'companies.name']);
}

/** The company's name, time zone (its Rails name) and HOS cycle, or undefined; on a transaction too. */
export function companyProfile(db: Kysely<Database>, id: number) {
  return db
    .selectFrom('companies')
    .select(['id', 'name', 'time_zone', 'cycle'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A company found by its id or its code (`FP0000005`), or undefined. */
export function companyByRef(db: Kysely<Database>, ref: { id: number } | { code: string }) {
  const q = db.selectFrom('companies').selectAll();
  return ('id' in ref ? q.where('id', '=', ref.id) : q.where('company_code', '=', ref.code)).executeTakeFirst();
}

/** The companies among `ids` (in no particular order; missing ones left out). */
export function companiesByIds(db: Kysely<Database>, ids: number[]): Promise<Selectable<CompaniesTable>[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('companies').selectAll().where('id', 'in', ids).execute();
}

/** The company with the lowest id: its id, code and name; throws when there is none. */
export function firstCompany(db: Kysely<Database>) {
  return db
    .selectFrom('companies')
    .select(['id', 'company_code', 'name'])
    .orderBy('id')
    .limit(1)
    .executeTakeFirstOrThrow();
}

/** Whether the database holds any company; on a transaction too. */
export async function hasCompany(db: Kysely<Database>): Promise<boolean> {
  return !!(await db.selectFrom('companies').select('id').limit(1).executeTakeFirst());
}
