/** Installed apps: a company admin sees the active grants with their scopes and revokes them (web page). */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect } from '../../helper.js';
import { installedApps, revokeGrant } from '../../../src/auth/oauth/grants.js';
import { runtimeFor } from '../../../src/auth/oauth/runtime.js';
import {
  Browser,
  PASSWORD,
  api,
  inputValue,
  refresh,
  tokensFor,
  useOAuthApp,
  assertOAuthError,
  type OAuthTestApp,
} from './flows.js';

eachDialect('oauth installed apps', (dialect) => {
  const getApp = useOAuthApp(dialect);
  let t: OAuthTestApp;
  before(async () => {
    t = await getApp();
  });

  async function signedIn(email: string): Promise<Browser> {
    const b = new Browser(t.app);
    const page = await b.get('/fleet/apps');
    assert.equal(page.status, 303);
    assert.equal(page.headers.location, '/sign-in?return_to=%2Ffleet%2Fapps');
    const form = await b.get(page.headers.location);
    const res = await b.post('/sign-in', {
      csrf_token: inputValue(form.body, 'csrf_token'),
      return_to: inputValue(form.body, 'return_to'),
      email,
      password: PASSWORD,
    });
    assert.equal(res.status, 303);
    assert.equal(res.headers.location, '/fleet/apps');
    return b;
  }

  test('the page lists each installed app with its scopes in plain words; Remove revokes its tokens at once', async () => {
    const fleet = await t.newFleet('Installed Co');
    const other = await t.newClient({ name: 'Payroll Sync', scopes: ['users.read'] });
    const tok = await tokensFor(t, 'vehicles.read companies.read', { email: fleet.admin.email });
    const tok2 = await tokensFor(t, 'users.read', { email: fleet.admin.email, client: other });
    const b = await signedIn(fleet.admin.email);
    const page = await b.get('/fleet/apps');
    assert.equal(page.status, 200);
    assert.match(page.body, /Apps installed for Installed Co/);
    assert.match(page.body, /Route Planner/);
    assert.match(page.body, /Payroll Sync/);
    assert.match(page.body, /Read your vehicles/);
    assert.match(page.body, /Read your company&#39;s details/);
    assert.match(page.body, /<button type="submit" class="danger">Remove Route Planner<\/button>/);

    const grant = (await installedApps(t.db, fleet.companyId)).find((a) => a.name === 'Route Planner')!;
    assert.equal((await api(t, tok.access_token, { url: '/v1/vehicles' })).status, 200, 'cached before the revocation');
    const res = await b.post(`/fleet/apps/${grant.grant_id}/revoke`, {
      csrf_token: inputValue(page.body, 'csrf_token'),
    });
    assert.equal(res.status, 303);
    assert.equal((await api(t, tok.access_token, { url: '/v1/vehicles' })).status, 401, 'revoked at once on this node');
    assertOAuthError(await refresh(t, tok.refresh_token), 400, 'invalid_grant');
    assert.equal((await api(t, tok2.access_token, { url: '/v1/users' })).status, 200, 'the other app is untouched');
    const after = await b.get(res.headers.location);
    assert.match(after.body, /Removed Route Planner/);
    assert.doesNotMatch(
      (await b.get('/fleet/apps?removed=Evil%20Corp')).body,
      /Removed/,
      'the notice never echoes the URL',
    );
    assert.doesNotMatch(after.body, /Remove Route Planner/);
    assert.deepEqual(
      (await installedApps(t.db, fleet.companyId)).map((a) => a.name),
      ['Payroll Sync'],
    );
  });

  test('revoke CSRF: missing → 400, wrong → 403, and the app stays installed', async () => {
    const fleet = await t.newFleet('Csrf Installed Co');
    const tok = await tokensFor(t, 'vehicles.read', { email: fleet.admin.email });
    const b = await signedIn(fleet.admin.email);
    const [grant] = await installedApps(t.db, fleet.companyId);
    assert.equal((await b.post(`/fleet/apps/${grant.grant_id}/revoke`, {})).status, 400);
    assert.equal((await b.post(`/fleet/apps/${grant.grant_id}/revoke`, { csrf_token: 'nope' })).status, 403);
    assert.equal((await installedApps(t.db, fleet.companyId)).length, 1);
    assert.equal((await api(t, tok.access_token, { url: '/v1/vehicles' })).status, 200);
  });

  test("another company's installed app is not found (404), and stays installed", async () => {
    const a = await t.newFleet('A Co');
    const bco = await t.newFleet('B Co');
    await tokensFor(t, 'vehicles.read', { email: bco.admin.email });
    const [theirs] = await installedApps(t.db, bco.companyId);
    const browser = await signedIn(a.admin.email);
    const page = await browser.get('/fleet/apps');
    assert.doesNotMatch(page.body, /Route Planner/);
    const res = await browser.post(`/fleet/apps/${theirs.grant_id}/revoke`, {
      csrf_token: inputValue(page.body, 'csrf_token'),
    });
    assert.equal(res.status, 404);
    assert.equal((await installedApps(t.db, bco.companyId)).length, 1);
  });

  test('a fleet manager (fleet_user) may not manage installed apps (403)', async () => {
    const fleet = await t.newFleet('Manager Installed Co');
    const b = await signedIn(fleet.manager.email);
    const res = await b.get('/fleet/apps');
    assert.equal(res.status, 403);
    assert.match(res.body, /Only company admins/);
  });

  test('revokeGrant (used by the CLI) revokes the grant and its tokens; a second call reports nothing to revoke', async () => {
    const fleet = await t.newFleet('Cli Co');
    const tok = await tokensFor(t, 'vehicles.read', { email: fleet.admin.email });
    const [grant] = await installedApps(t.db, fleet.companyId);
    assert.equal(
      await revokeGrant(t.db, runtimeFor(t.db), grant.grant_id, fleet.companyId + 1000),
      false,
      'scoped to the company',
    );
    assert.equal(await revokeGrant(t.db, runtimeFor(t.db), grant.grant_id, fleet.companyId), true);
    assert.equal(await revokeGrant(t.db, runtimeFor(t.db), grant.grant_id, fleet.companyId), false);
    assert.equal((await api(t, tok.access_token, { url: '/v1/vehicles' })).status, 401);
  });

  test('sign-out ends the session (CSRF-protected)', async () => {
    const b = await signedIn(t.fleet.admin.email);
    const page = await b.get('/fleet/apps');
    assert.equal((await b.post('/sign-out', { csrf_token: 'wrong' })).status, 403);
    const out = await b.post('/sign-out', { csrf_token: inputValue(page.body, 'csrf_token') });
    assert.equal(out.status, 303);
    assert.equal(b.jar.has('fleet_session'), false);
    assert.equal((await b.get('/fleet/apps')).status, 303);
  });
});
