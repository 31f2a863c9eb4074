/** Lifetimes under a controllable clock: codes 10 minutes, access tokens 7200 s, refresh tokens, sessions. */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect } from '../../helper.js';
import {
  Browser,
  REDIRECT,
  api,
  assertOAuthError,
  authorize,
  authorizeUrl,
  exchange,
  refresh,
  signInAt,
  tokensFor,
  useOAuthApp,
  type OAuthTestApp,
} from './flows.js';

const S = 1000;

eachDialect('oauth expiry', (dialect) => {
  const getApp = useOAuthApp(dialect, { OAUTH_REFRESH_TOKEN_TTL_S: '86400', WEB_SESSION_TTL_S: '3600' });
  let t: OAuthTestApp;
  before(async () => {
    t = await getApp();
  });

  test('an authorization code still works at 9:59 and fails from 10:00 on', async () => {
    const early = await authorize(t);
    t.clock.advance(599 * S);
    assert.equal((await exchange(t, early)).status, 200, 'at 9:59');
    const onTime = await authorize(t);
    t.clock.advance(600 * S);
    assertOAuthError(await exchange(t, onTime), 400, 'invalid_grant', /expired/);
    const late = await authorize(t);
    t.clock.advance(3600 * S);
    assertOAuthError(await exchange(t, late), 400, 'invalid_grant', /expired/);
  });

  test('an access token works until 7199 s and is refused from 7200 s on with invalid_token "expired"', async () => {
    const tok = await tokensFor(t);
    t.clock.advance(7199 * S);
    assert.equal((await api(t, tok.access_token, { url: '/v1/vehicles' })).status, 200);
    t.clock.advance(1 * S);
    const res = await api(t, tok.access_token, { url: '/v1/vehicles' });
    assert.equal(res.status, 401);
    assert.match(res.json.error_message, /expired/);
    assert.match(res.headers['www-authenticate'], /error="invalid_token"/);
  });

  test('an expired access token is refused even while it sits in the cache', async () => {
    const tok = await tokensFor(t);
    t.clock.advance(7199 * S + 500);
    assert.equal((await api(t, tok.access_token, { url: '/v1/vehicles' })).status, 200);
    t.clock.advance(500);
    assert.equal((await api(t, tok.access_token, { url: '/v1/vehicles' })).status, 401);
  });

  test('after the access token expires the refresh token still gets a new one', async () => {
    const tok = await tokensFor(t);
    t.clock.advance(7300 * S);
    const r = await refresh(t, tok.refresh_token);
    assert.equal(r.status, 200, r.body);
    assert.equal((await api(t, r.json.access_token, { url: '/v1/vehicles' })).status, 200);
  });

  test('an unused refresh token expires after OAUTH_REFRESH_TOKEN_TTL_S', async () => {
    const tok = await tokensFor(t);
    t.clock.advance(86_399 * S);
    const r = await refresh(t, tok.refresh_token);
    assert.equal(r.status, 200, 'one second before the end');
    t.clock.advance(86_400 * S);
    assertOAuthError(await refresh(t, r.json.refresh_token), 400, 'invalid_grant', /expired/);
  });

  test('a web session ends after WEB_SESSION_TTL_S: the sign-in page comes back', async () => {
    const b = new Browser(t.app);
    const url = authorizeUrl({
      client_id: t.client.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'vehicles.read',
    });
    const consent = await signInAt(b, url, (await t.newFleet('Session Co')).admin.email);
    assert.match(consent.body, /Install Route Planner/);
    t.clock.advance(3599 * S);
    assert.match((await b.get(url)).body, /Install Route Planner/);
    t.clock.advance(1 * S);
    const again = await b.get(url);
    assert.equal(again.status, 200);
    assert.match(again.body, /<h1>Sign in<\/h1>/);
  });

  test('the session cookie carries Max-Age = WEB_SESSION_TTL_S', async () => {
    const b = new Browser(t.app);
    const page = await b.get('/sign-in');
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.body)![1];
    const res = await b.post('/sign-in', {
      csrf_token: csrf,
      email: t.fleet.admin.email,
      password: 'correct horse battery',
    });
    const c = res.cookies.find((x) => x.name === 'fleet_session')!;
    assert.equal(c.maxAge, 3600);
  });
});
