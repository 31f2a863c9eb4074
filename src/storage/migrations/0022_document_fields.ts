import { sql } from 'kysely';
import type { Migration } from './helpers.js';

/**
 * The documented members of a document the table lacked (docs/records.md): its category, reference
 * number, day, fields (JSON text), document form and the user who uploaded it. Documents stored before
 * get the UTC day of their doc_time as doc_date and no uploader.
 */
export const documentFields: Migration = {
  async up(db) {
    for (const col of ['category', 'ref_no', 'doc_date', 'doc_fields']) {
      await db.schema.alterTable('documents').addColumn(col, 'text').execute();
    }
    await db.schema.alterTable('documents').addColumn('document_form_id', 'integer').execute();
    await db.schema
      .alterTable('documents')
      .addColumn('uploader_id', 'integer', (c) => c.references('users.id'))
      .execute();
    await db
      .updateTable('documents')
      .set({ doc_date: sql`substr(doc_time, 1, 10)` })
      .execute();
  },
};
