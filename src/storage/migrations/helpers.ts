import type { CreateTableBuilder, Kysely } from 'kysely';
import type { DbKind } from '../db.js';

/** A migration sees the dialect so that the few type differences live here and nowhere else. */
export interface Migration {
  up(db: Kysely<any>, kind: DbKind): Promise<void>;
}

/** Adds an auto-incrementing integer primary key named `id`. */
export function withId<T extends string>(t: CreateTableBuilder<T, never>, kind: DbKind): CreateTableBuilder<T, 'id'> {
  return kind === 'sqlite'
    ? t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    : t.addColumn('id', 'serial', (c) => c.primaryKey());
}

/** created_at / updated_at as ISO-8601 text (see storage/values.ts). */
export function withTimestamps<T extends string, C extends string>(t: CreateTableBuilder<T, C>) {
  return t.addColumn('created_at', 'text', (c) => c.notNull()).addColumn('updated_at', 'text', (c) => c.notNull());
}
