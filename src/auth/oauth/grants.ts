/**
 * Grants: a company's consent to an app. While a grant is active the app is installed for the company;
 * revoking it revokes every token issued under it. One active grant per company and app; a later
 * consent adds its scopes to it.
 */
import type { Kysely } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { Database } from '../../storage/schema.js';
import { fromJson, json } from '../../storage/values.js';
import { isUniqueViolation } from '../../storage/query.js';
import { userContacts } from '../../domain/users/sign-in.js';
import type { OAuthRuntime } from './runtime.js';
import { invalidGrant } from './errors.js';

export interface Grant {
  id: number;
  company_id: number;
  app_id: number;
  user_id: number | null;
  scopes: string[];
  created_at: string;
  updated_at: string;
}

export async function activeGrant(k: Kysely<Database>, companyId: number, appId: number): Promise<Grant | null> {
  const row = await k
    .selectFrom('oauth_grants')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('app_id', '=', appId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row ? { ...row, scopes: fromJson<string[]>(row.scopes, []) } : null;
}

/** Records consent to `scopes` and returns the active grant, creating it or widening its scopes. */
export async function recordConsent(
  db: Db,
  rt: OAuthRuntime,
  c: { companyId: number; appId: number; userId: number; scopes: string[] },
): Promise<Grant> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.kysely.transaction().execute(async (trx) => {
        const now = rt.nowIso();
        const current = await activeGrant(trx, c.companyId, c.appId);
        if (current) {
          const scopes = [...new Set([...current.scopes, ...c.scopes])];
          await trx
            .updateTable('oauth_grants')
            .set({ scopes: json(scopes), user_id: c.userId, updated_at: now })
            .where('id', '=', current.id)
            .execute();
          return { ...current, scopes, user_id: c.userId, updated_at: now };
        }
        const row = await trx
          .insertInto('oauth_grants')
          .values({
            company_id: c.companyId,
            app_id: c.appId,
            user_id: c.userId,
            scopes: json(c.scopes),
            created_at: now,
            updated_at: now,
            revoked_at: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return {
          id: row.id,
          company_id: c.companyId,
          app_id: c.appId,
          user_id: c.userId,
          scopes: c.scopes,
          created_at: now,
          updated_at: now,
        };
      });
    } catch (err) {
      // Two consents raced to create the grant: the other one won; widen it instead.
      if (isUniqueViolation(err) && attempt < 2) continue;
      throw err;
    }
  }
}

export interface InstalledApp {
  grant_id: number;
  app_id: number;
  client_id: string;
  name: string;
  scopes: string[];
  consented_by: string | null;
  installed_at: string;
  updated_at: string;
}

/** The apps installed for a company: its active grants, oldest first. */
export async function installedApps(db: Db, companyId: number): Promise<InstalledApp[]> {
  const rows = await db.kysely
    .selectFrom('oauth_grants as g')
    .innerJoin('oauth_apps as a', 'a.id', 'g.app_id')
    .leftJoin(userContacts(db.kysely).as('u'), 'u.id', 'g.user_id')
    .select([
      'g.id as grant_id',
      'a.id as app_id',
      'a.client_id',
      'a.name',
      'g.scopes',
      'g.created_at',
      'g.updated_at',
      'u.email',
      'u.first_name',
      'u.last_name',
    ])
    .where('g.company_id', '=', companyId)
    .where('g.revoked_at', 'is', null)
    .orderBy('g.id')
    .execute();
  return rows.map((r) => ({
    grant_id: r.grant_id,
    app_id: r.app_id,
    client_id: r.client_id,
    name: r.name,
    scopes: fromJson<string[]>(r.scopes, []),
    consented_by: r.email ?? (r.first_name ? `${r.first_name} ${r.last_name ?? ''}`.trim() : null),
    installed_at: r.created_at,
    updated_at: r.updated_at,
  }));
}

/**
 * Revokes a grant and every token issued under it. With `companyId`, only a grant of that company
 * (another company's grant is "not found"). Resolves to false when there was no such active grant.
 */
export async function revokeGrant(db: Db, rt: OAuthRuntime, grantId: number, companyId?: number): Promise<boolean> {
  const now = rt.nowIso();
  const done = await db.kysely.transaction().execute(async (trx) => {
    let q = trx
      .updateTable('oauth_grants')
      .set({ revoked_at: now, updated_at: now })
      .where('id', '=', grantId)
      .where('revoked_at', 'is', null);
    if (companyId !== undefined) q = q.where('company_id', '=', companyId);
    const res = await q.executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) return false;
    await trx
      .updateTable('oauth_tokens')
      .set({ revoked_at: now })
      .where('grant_id', '=', grantId)
      .where('revoked_at', 'is', null)
      .execute();
    return true;
  });
  rt.tokenCache.forgetGrant(grantId);
  return done;
}

/** A code or refresh token is honoured only while its grant (the app's installation) is not revoked. */
export async function assertGrantActive(db: Db, grantId: number): Promise<void> {
  const grant = await db.kysely
    .selectFrom('oauth_grants')
    .select('id')
    .where('id', '=', grantId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (!grant) throw invalidGrant('The authorization has been revoked.');
}

/** The name of the app of this company's revoked grant `grantId`, or undefined (the notice after a removal). */
export async function revokedAppName(db: Db, companyId: number, grantId: number): Promise<string | undefined> {
  const row = await db.kysely
    .selectFrom('oauth_grants as g')
    .innerJoin('oauth_apps as a', 'a.id', 'g.app_id')
    .select('a.name')
    .where('g.id', '=', grantId)
    .where('g.company_id', '=', companyId)
    .where('g.revoked_at', 'is not', null)
    .executeTakeFirst();
  return row?.name;
}
