/** The authorization-code flow end to end over HTTP (docs/reference/wire.md §8, rules R30–R36). */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect } from '../../helper.js';
import {
  Browser,
  REDIRECT,
  api,
  authorize,
  authorizeUrl,
  decide,
  exchange,
  inputValue,
  refresh,
  signInAt,
  tokensFor,
  useOAuthApp,
  vehicle,
  assertOAuthError,
  type OAuthTestApp,
} from './flows.js';

eachDialect('oauth flow', (dialect) => {
  const getApp = useOAuthApp(dialect);
  let t: OAuthTestApp;
  let vehicleId: number;
  before(async () => {
    t = await getApp();
    vehicleId = await vehicle(t);
  });

  test('authorize → sign-in page → sign in with CSRF → consent → Allow → code and state → token → API → refresh → reuse detection', async () => {
    const b = new Browser(t.app);
    const url = authorizeUrl({
      client_id: t.client.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'vehicles.read companies.read',
      state: 'st-1 &x=y',
    });
    const signInPage = await b.get(url);
    assert.equal(signInPage.status, 200);
    assert.match(signInPage.headers['content-type'], /^text\/html/);
    assert.match(signInPage.body, /<label for="email">Email<\/label>/);
    const csrf = inputValue(signInPage.body, 'csrf_token');
    assert.ok(csrf && csrf.length >= 40, 'the sign-in form carries a CSRF token');
    assert.equal(inputValue(signInPage.body, 'return_to'), url);

    const signedIn = await b.post('/sign-in', {
      csrf_token: csrf,
      return_to: url,
      email: t.fleet.admin.email,
      password: 'correct horse battery',
    });
    assert.equal(signedIn.status, 303);
    assert.equal(signedIn.headers.location, url);

    const consent = await b.get(url);
    assert.equal(consent.status, 200);
    assert.match(consent.body, /Install Route Planner\?/);
    assert.match(consent.body, /Acme Freight/);
    assert.match(consent.body, /Read your vehicles<\/li>|Read your vehicles /);
    assert.match(consent.body, /Read your company&#39;s details/);
    assert.match(consent.body, /value="allow"/);
    assert.match(consent.body, /value="deny"/);

    const to = await decide(b, consent, 'allow');
    assert.equal(`${to.origin}${to.pathname}`, REDIRECT);
    assert.equal(to.searchParams.get('state'), 'st-1 &x=y', 'state is echoed verbatim');
    const code = to.searchParams.get('code')!;
    assert.match(code, /^fc_[A-Za-z0-9_-]{43}$/);

    const tok = await exchange(t, code);
    assert.equal(tok.status, 200, tok.body);
    assert.deepEqual(Object.keys(tok.json), [
      'access_token',
      'token_type',
      'expires_in',
      'refresh_token',
      'scope',
      'created_at',
    ]);
    assert.equal(tok.json.token_type, 'Bearer');
    assert.equal(tok.json.expires_in, 7200);
    assert.equal(tok.json.scope, 'vehicles.read companies.read');
    assert.equal(tok.json.created_at, Math.floor(t.clock.now / 1000));
    assert.ok(Number.isInteger(tok.json.created_at));
    assert.equal(tok.headers['cache-control'], 'no-store');
    assert.match(tok.headers['content-type'], /^application\/json/);

    const list = await api(t, tok.json.access_token, { url: '/v1/vehicles' });
    assert.equal(list.status, 200, list.body);
    assert.deepEqual(
      list.json.vehicles.map((w: any) => w.vehicle.id),
      [vehicleId],
    );
    const company = await api(t, tok.json.access_token, { url: '/v1/companies' });
    assert.equal(company.status, 200, company.body);
    assert.equal(company.json.companies[0].company.id, t.fleet.companyId);

    const r1 = await refresh(t, tok.json.refresh_token);
    assert.equal(r1.status, 200, r1.body);
    assert.deepEqual(Object.keys(r1.json), [
      'access_token',
      'token_type',
      'expires_in',
      'refresh_token',
      'scope',
      'created_at',
    ]);
    assert.notEqual(r1.json.refresh_token, tok.json.refresh_token, 'every refresh issues a new refresh token');
    assert.notEqual(r1.json.access_token, tok.json.access_token);
    assert.equal(r1.json.expires_in, 7200);
    assert.equal((await api(t, r1.json.access_token, { url: '/v1/vehicles' })).status, 200);

    t.clock.advance(30_000); // past OAUTH_REFRESH_REUSE_GRACE_S (refresh-grace.test.ts covers the reuse within it)
    const again = await refresh(t, tok.json.refresh_token);
    assertOAuthError(again, 400, 'invalid_grant', /already been used/);
    for (const access of [tok.json.access_token, r1.json.access_token]) {
      const res = await api(t, access, { url: '/v1/vehicles' });
      assert.equal(res.status, 401, 'reusing a refresh token revokes every access token of the grant');
      assert.match(res.headers['www-authenticate'], /error="invalid_token"/);
    }
    assertOAuthError(await refresh(t, r1.json.refresh_token), 400, 'invalid_grant');
    const grants = await t.db.kysely
      .selectFrom('oauth_grants')
      .select('revoked_at')
      .where('company_id', '=', t.fleet.companyId)
      .execute();
    assert.ok(
      grants.every((g) => g.revoked_at !== null),
      'the grant itself is revoked',
    );
  });

  test('Deny redirects with error=access_denied and the state, and grants nothing', async () => {
    const fleet = await t.newFleet('Deny Co');
    const b = new Browser(t.app);
    const url = authorizeUrl({
      client_id: t.client.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'vehicles.read',
      state: 'keep-me',
    });
    const to = await decide(b, await signInAt(b, url, fleet.admin.email), 'deny');
    assert.equal(`${to.origin}${to.pathname}`, REDIRECT);
    assert.equal(to.searchParams.get('error'), 'access_denied');
    assert.equal(to.searchParams.get('state'), 'keep-me');
    assert.ok(to.searchParams.get('error_description'));
    assert.equal(to.searchParams.get('code'), null);
    const grants = await t.db.kysely
      .selectFrom('oauth_grants')
      .selectAll()
      .where('company_id', '=', fleet.companyId)
      .execute();
    assert.equal(grants.length, 0);
  });

  test('a repeat authorization with no new scopes skips the consent page; a new scope asks again', async () => {
    const fleet = await t.newFleet('Repeat Co');
    const b = new Browser(t.app);
    await authorize(t, { email: fleet.admin.email, browser: b, scope: 'vehicles.read' });
    const url = authorizeUrl({
      client_id: t.client.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'vehicles.read',
      state: 's2',
    });
    const direct = await b.get(url);
    assert.equal(direct.status, 302, 'no consent page the second time');
    const to = new URL(direct.headers.location);
    assert.equal(to.searchParams.get('state'), 's2');
    const tok = await exchange(t, to.searchParams.get('code')!);
    assert.equal(tok.status, 200, tok.body);
    assert.equal(tok.json.scope, 'vehicles.read');

    const wider = await b.get(
      authorizeUrl({
        client_id: t.client.client_id,
        redirect_uri: REDIRECT,
        response_type: 'code',
        scope: 'vehicles.read users.read',
      }),
    );
    assert.equal(wider.status, 200);
    assert.match(wider.body, /Read your drivers and fleet managers/);
    const code = (await decide(b, wider, 'allow')).searchParams.get('code')!;
    const tok2 = await exchange(t, code);
    assert.equal(tok2.json.scope, 'vehicles.read users.read');
    const grant = await t.db.kysely
      .selectFrom('oauth_grants')
      .selectAll()
      .where('company_id', '=', fleet.companyId)
      .execute();
    assert.equal(grant.length, 1, 'one grant per company and app, widened');
    assert.deepEqual(JSON.parse(grant[0].scopes).sort(), ['users.read', 'vehicles.read']);
  });

  test('a fleet manager (fleet_user) may authorize too; a driver may not sign in', async () => {
    const fleet = await t.newFleet('Manager Co');
    const tok = await tokensFor(t, 'vehicles.read', { email: fleet.manager.email });
    assert.equal((await api(t, tok.access_token, { url: '/v1/vehicles' })).status, 200);
    const b = new Browser(t.app);
    const url = authorizeUrl({
      client_id: t.client.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'vehicles.read',
    });
    const page = await b.get(url);
    const res = await b.post('/sign-in', {
      csrf_token: inputValue(page.body, 'csrf_token'),
      return_to: url,
      email: fleet.driver.email,
      password: 'correct horse battery',
    });
    assert.equal(res.status, 401);
    assert.match(res.body, /Only company admins and fleet managers/);
    assert.equal(b.jar.has('fleet_session'), false);
  });

  test('Authorization: Bearer wins over X-Api-Key, and the scheme word is matched in any case', async () => {
    const tok = await tokensFor(t, 'vehicles.read', { email: (await t.newFleet('Both Co')).admin.email });
    const both = await api(t, tok.access_token, {
      url: '/v1/vehicles',
      headers: { authorization: `Bearer ${tok.access_token}`, 'x-api-key': t.fleet.apiKey },
    });
    assert.equal(both.status, 200);
    assert.deepEqual(both.json.vehicles, [], 'the token company (no vehicles), not the API key company');
    const lower = await api(t, tok.access_token, {
      url: '/v1/vehicles',
      headers: { authorization: `bearer ${tok.access_token}` },
    });
    assert.equal(lower.status, 200);
    const bad = await api(t, 'fa_nope', { url: '/v1/vehicles', headers: { 'x-api-key': t.fleet.apiKey } });
    assert.equal(bad.status, 401, 'a bad bearer token is not rescued by a good API key');
  });

  test('POST /oauth/authorize without a session is refused and issues nothing', async () => {
    const b = new Browser(t.app);
    const before = await t.db.kysely.selectFrom('oauth_codes').select('id').execute();
    const res = await b.post('/oauth/authorize', {
      client_id: t.client.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'vehicles.read',
      decision: 'allow',
      csrf_token: 'x',
    });
    assert.equal(res.status, 401);
    assert.match(res.headers['content-type'], /^text\/html/);
    assert.equal((await t.db.kysely.selectFrom('oauth_codes').select('id').execute()).length, before.length);
  });
});
