/**
 * What other areas join of a company: its id, code and name, as a derived table (`.as('c')`) that a
 * query of another area's table joins on a company id. The companies area owns the table; this is the
 * fragment it lends, as users and vehicles lend theirs (docs/architecture.md).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';

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
