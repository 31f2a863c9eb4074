/**
 * An OAuth access token of a registered app holding exactly `scopes` for the test company, for the
 * scope checks of telemetry endpoints (the consent flow itself is tested in test/auth/oauth).
 */
import type { TestApp } from '../helper.js';
import { registerApp } from '../../src/auth/oauth/apps.js';
import { recordConsent } from '../../src/auth/oauth/grants.js';
import { issueTokens } from '../../src/auth/oauth/tokens.js';
import { runtimeFor } from '../../src/auth/oauth/runtime.js';
import { createUser } from '../http/fixtures.js';

export async function oauthToken(t: TestApp, scopes: string[]): Promise<Record<string, string>> {
  const rt = runtimeFor(t.db);
  const admin = await createUser(t, { role: 'admin' });
  const app = await registerApp(
    t.db,
    { name: `Safety ${scopes.join(' ')}`, redirectUris: ['https://safety.example/cb'], scopes },
    rt.nowIso(),
  );
  const grant = await recordConsent(t.db, rt, { companyId: t.company.id, appId: app.id, userId: admin.id, scopes });
  const tok = await issueTokens(t.db.kysely, rt, {
    grantId: grant.id,
    appId: app.id,
    companyId: t.company.id,
    codeId: null,
    parentId: null,
    accessScopes: scopes,
    refreshScopes: null,
  });
  return { authorization: `Bearer ${tok.access_token}` };
}
