import type { Migration } from './helpers.js';
import { withId } from './helpers.js';

/**
 * One-time links with which a user chooses their own password: an invite, or a reset by an admin or
 * fleet manager (src/domain/users/password-links.ts). The link's token is stored only as its SHA-256
 * digest, like every other high-entropy secret (docs/reference/design.md §5).
 */
export const passwordLinks: Migration = {
  async up(db, kind) {
    await withId(db.schema.createTable('password_links'), kind)
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('token_digest', 'text', (c) => c.notNull().unique())
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('created_by', 'integer')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('password_links_user').on('password_links').column('user_id').execute();
  },
};
