/** Query helpers shared by every repository, identical in both dialects. */
import { sql, type Expression, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';

/** Case-insensitive substring match, with LIKE wildcards in the term taken literally. */
export function containsCi(expr: Expression<unknown> | RawBuilder<unknown>, term: string): RawBuilder<SqlBool> {
  const escaped = term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql<SqlBool>`lower(${expr}) like ${`%${escaped}%`} escape '\\'`;
}

/** Total row count of a filtered query (ignoring its order, limit and offset). */
export async function countOf<DB, TB extends keyof DB, O>(q: SelectQueryBuilder<DB, TB, O>): Promise<number> {
  const row = await q
    .clearSelect()
    .clearOrderBy()
    .clearLimit()
    .clearOffset()
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  return Number((row as { n: number }).n);
}

/** True when a write failed on a UNIQUE constraint, in either dialect. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string };
  return e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || e?.code === '23505';
}
