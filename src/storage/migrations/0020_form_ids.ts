import { sql } from 'kysely';
import type { Migration } from './helpers.js';

/**
 * Forms get the integer id of the documented form object (docs/dispatch-forms.md): `seq`, unique,
 * next to the UUID that stays the primary key (the wire's `form_id`, what stops and entries refer to).
 * Existing forms are numbered in creation order. Also `title` and `available_for_driver`.
 */
export const formIds: Migration = {
  async up(db, kind) {
    if (kind === 'postgres') {
      await db.schema.alterTable('forms').addColumn('seq', 'serial').execute();
    } else {
      await db.schema.alterTable('forms').addColumn('seq', 'integer').execute();
      await sql`update forms set seq = (select count(*) from forms f2
        where f2.created_at < forms.created_at or (f2.created_at = forms.created_at and f2.id <= forms.id))`.execute(
        db,
      );
    }
    await db.schema.createIndex('forms_seq_idx').on('forms').column('seq').unique().execute();
    await db.schema.alterTable('forms').addColumn('title', 'text').execute();
    await db.schema
      .alterTable('forms')
      .addColumn('available_for_driver', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
