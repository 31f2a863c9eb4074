import { sql } from 'kysely';
import { withId, type Migration } from './helpers.js';

/** OAuth 2.0: developers, registered apps, grants (installed apps), codes, tokens and web sessions. */
export const oauth: Migration = {
  async up(db, kind) {
    await withId(db.schema.createTable('developers'), kind)
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('oauth_apps'), kind)
      .addColumn('client_id', 'text', (c) => c.notNull().unique())
      .addColumn('client_secret_hash', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('redirect_uris', 'text', (c) => c.notNull())
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('grant_types', 'text', (c) => c.notNull())
      .addColumn('developer_id', 'integer', (c) => c.references('developers.id'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('oauth_apps_developer_idx').on('oauth_apps').columns(['developer_id', 'id']).execute();

    await withId(db.schema.createTable('oauth_grants'), kind)
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
      .addColumn('app_id', 'integer', (c) => c.notNull().references('oauth_apps.id'))
      .addColumn('user_id', 'integer', (c) => c.references('users.id'))
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .execute();
    // At most one active grant per company and app: the app is installed once.
    await db.schema
      .createIndex('oauth_grants_active_uq')
      .unique()
      .on('oauth_grants')
      .columns(['company_id', 'app_id'])
      .where(sql.ref('revoked_at'), 'is', null)
      .execute();

    await withId(db.schema.createTable('oauth_codes'), kind)
      .addColumn('code_hash', 'text', (c) => c.notNull().unique())
      .addColumn('grant_id', 'integer', (c) => c.notNull().references('oauth_grants.id'))
      .addColumn('app_id', 'integer', (c) => c.notNull().references('oauth_apps.id'))
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
      .addColumn('user_id', 'integer', (c) => c.references('users.id'))
      .addColumn('redirect_uri', 'text', (c) => c.notNull())
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('consumed_at', 'text')
      .execute();

    await withId(db.schema.createTable('oauth_tokens'), kind)
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('grant_id', 'integer', (c) => c.notNull().references('oauth_grants.id'))
      .addColumn('app_id', 'integer', (c) => c.notNull().references('oauth_apps.id'))
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
      .addColumn('code_id', 'integer', (c) => c.references('oauth_codes.id'))
      .addColumn('parent_id', 'integer')
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .addColumn('consumed_at', 'text')
      .execute();
    await db.schema.createIndex('oauth_tokens_grant_idx').on('oauth_tokens').column('grant_id').execute();
    await db.schema.createIndex('oauth_tokens_code_idx').on('oauth_tokens').column('code_id').execute();

    await withId(db.schema.createTable('web_sessions'), kind)
      .addColumn('session_hash', 'text', (c) => c.notNull().unique())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('subject_id', 'integer', (c) => c.notNull())
      .addColumn('csrf_secret', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
  },
};
