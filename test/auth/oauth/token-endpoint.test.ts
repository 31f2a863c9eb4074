/**
 * POST /oauth/token (RFC 6749 §3.2, §4.1.3, §5, §6; docs/reference/wire.md §5.5, §8.4): parameters from the body or
 * the query string, client authentication by parameters or HTTP Basic, every error with its status.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect } from '../../helper.js';
import { INVALID_SCOPE_DESCRIPTION } from '../../../src/auth/oauth/errors.js';
import {
  Browser,
  REDIRECT,
  api,
  assertOAuthError,
  authorize,
  exchange,
  formBody,
  refresh,
  token,
  tokensFor,
  useOAuthApp,
  type OAuthTestApp,
} from './flows.js';

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

eachDialect('oauth token endpoint', (dialect) => {
  const getApp = useOAuthApp(dialect);
  let t: OAuthTestApp;
  before(async () => {
    t = await getApp();
  });
  const creds = () => ({ client_id: t.client.client_id, client_secret: t.client.client_secret });

  test('parameters in the query string of the POST (MotiveProvider style) work for both grants', async () => {
    const code = await authorize(t);
    const res = await token(
      t,
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, ...creds() },
      { query: true },
    );
    assert.equal(res.status, 200, res.body);
    assert.equal(res.json.token_type, 'Bearer');
    const r = await token(
      t,
      { grant_type: 'refresh_token', refresh_token: res.json.refresh_token, redirect_uri: REDIRECT, ...creds() },
      { query: true },
    );
    assert.equal(r.status, 200, r.body);
    assert.ok(r.json.refresh_token);
  });

  test('query and body merge, the body winning on conflict', async () => {
    const code = await authorize(t);
    const res = await new Browser(t.app).request({
      method: 'POST',
      url: `/oauth/token?grant_type=password&redirect_uri=${encodeURIComponent(REDIRECT)}&client_id=${t.client.client_id}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: formBody({ grant_type: 'authorization_code', code, client_secret: t.client.client_secret }),
    });
    assert.equal(res.status, 200, res.body);
  });

  test('client authentication by HTTP Basic (RFC 6749 §2.3.1)', async () => {
    const code = await authorize(t);
    const res = await token(
      t,
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT },
      { headers: { authorization: basic(t.client.client_id, t.client.client_secret) } },
    );
    assert.equal(res.status, 200, res.body);
    const again = await token(
      t,
      { grant_type: 'refresh_token', refresh_token: res.json.refresh_token, client_id: t.client.client_id },
      { headers: { authorization: basic(t.client.client_id, t.client.client_secret) } },
    );
    assert.equal(again.status, 200, 'client_id repeated in the body is fine when it is the same');
  });

  test('a JSON body is accepted as well', async () => {
    const code = await authorize(t);
    const res = await new Browser(t.app).request({
      method: 'POST',
      url: '/oauth/token',
      payload: { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, ...creds() },
    });
    assert.equal(res.status, 200, res.body);
  });

  test('invalid_request (400): grant_type missing, code missing, redirect_uri missing, refresh_token missing', async () => {
    assertOAuthError(await token(t, { ...creds() }), 400, 'invalid_request', /grant_type/);
    assertOAuthError(
      await token(t, { grant_type: 'authorization_code', redirect_uri: REDIRECT, ...creds() }),
      400,
      'invalid_request',
      /code/,
    );
    assertOAuthError(
      await token(t, { grant_type: 'authorization_code', code: await authorize(t), ...creds() }),
      400,
      'invalid_request',
      /redirect_uri/,
    );
    assertOAuthError(
      await token(t, { grant_type: 'refresh_token', ...creds() }),
      400,
      'invalid_request',
      /refresh_token/,
    );
  });

  test('invalid_request: a parameter given twice, or Basic and body credentials that differ', async () => {
    const res = await new Browser(t.app).request({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `grant_type=authorization_code&code=a&code=b&redirect_uri=${encodeURIComponent(REDIRECT)}`,
    });
    assertOAuthError(res, 400, 'invalid_request', /code must be given once/);
    const other = await t.newClient();
    const mixed = await token(
      t,
      { grant_type: 'authorization_code', code: 'x', redirect_uri: REDIRECT, client_id: other.client_id },
      { headers: { authorization: basic(t.client.client_id, t.client.client_secret) } },
    );
    assertOAuthError(mixed, 400, 'invalid_request', /once/);
  });

  test('an empty body labelled as JSON or form, with the parameters in the query string, works', async () => {
    for (const type of ['application/json', 'application/x-www-form-urlencoded; charset=UTF-8']) {
      const code = await authorize(t);
      const res = await new Browser(t.app).request({
        method: 'POST',
        url: `/oauth/token?${formBody({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, ...creds() })}`,
        headers: { 'content-type': type },
      });
      assert.equal(res.status, 200, `${type}: ${res.body}`);
    }
    const bad = await new Browser(t.app).request({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/json' },
      payload: '{nope',
    });
    assertOAuthError(bad, 400, 'invalid_request', /JSON/);
  });

  test('invalid_request: a body that is neither form nor JSON', async () => {
    const res = await new Browser(t.app).request({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'text/plain' },
      payload: 'grant_type=x',
    });
    assertOAuthError(res, 400, 'invalid_request', /x-www-form-urlencoded/);
  });

  test('unsupported_grant_type (400) for password, client_credentials, implicit or made-up grants', async () => {
    for (const g of [
      'password',
      'client_credentials',
      'implicit',
      'toString',
      'urn:ietf:params:oauth:grant-type:device_code',
    ]) {
      assertOAuthError(await token(t, { grant_type: g, ...creds() }), 400, 'unsupported_grant_type');
    }
  });

  test('invalid_client (401, WWW-Authenticate: Basic): unknown client, wrong secret, no credentials, bad Basic header', async () => {
    const code = await authorize(t);
    const cases = [
      await exchange(t, code, { ...t.client, client_secret: 'fs_wrong' }),
      await exchange(t, code, { ...t.client, client_id: 'unknown-client' }),
      await token(t, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT }),
      await token(t, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: t.client.client_id }),
      await token(
        t,
        { grant_type: 'authorization_code', code, redirect_uri: REDIRECT },
        { headers: { authorization: basic(t.client.client_id, 'nope') } },
      ),
      await token(
        t,
        { grant_type: 'authorization_code', code, redirect_uri: REDIRECT },
        { headers: { authorization: `Basic ${Buffer.from('no-colon').toString('base64')}` } },
      ),
    ];
    for (const res of cases) {
      assertOAuthError(res, 401, 'invalid_client');
      assert.match(res.headers['www-authenticate'], /^Basic realm="oauth"/);
    }
    const ok = await exchange(t, code);
    assert.equal(ok.status, 200, 'failed client authentication does not use up the code');
  });

  test('unauthorized_client (400): an app that may not use the refresh_token grant', async () => {
    const client = await t.newClient({ grantTypes: ['authorization_code'] });
    const tok = await exchange(t, await authorize(t, { client }), client);
    assert.equal(tok.status, 200, tok.body);
    assert.equal(tok.json.refresh_token, undefined, 'no refresh token for an app without the refresh grant');
    assertOAuthError(await refresh(t, 'fr_' + 'a'.repeat(43), client), 400, 'unauthorized_client');
  });

  test('invalid_grant (400): unknown code, malformed code, code of another client, redirect_uri that differs', async () => {
    assertOAuthError(await exchange(t, 'fc_' + 'x'.repeat(43)), 400, 'invalid_grant');
    assertOAuthError(await exchange(t, 'not-a-code'), 400, 'invalid_grant');
    const other = await t.newClient();
    const code = await authorize(t);
    assertOAuthError(await exchange(t, code, other), 400, 'invalid_grant', /another client/);
    assertOAuthError(
      await exchange(t, code, t.client, { redirect_uri: 'https://client.example/callback/' }),
      400,
      'invalid_grant',
      /redirect_uri/,
    );
    assert.equal((await exchange(t, code)).status, 200, 'the right client with the right redirect_uri still succeeds');
  });

  test('code reuse → invalid_grant, and every token issued from that code is revoked (refreshed ones too)', async () => {
    const code = await authorize(t);
    const first = await exchange(t, code);
    assert.equal(first.status, 200);
    const refreshed = await refresh(t, first.json.refresh_token);
    assert.equal(refreshed.status, 200);
    assert.equal((await api(t, refreshed.json.access_token, { url: '/v1/vehicles' })).status, 200);
    assertOAuthError(await exchange(t, code), 400, 'invalid_grant', /already been used/);
    for (const access of [first.json.access_token, refreshed.json.access_token]) {
      assert.equal((await api(t, access, { url: '/v1/vehicles' })).status, 401);
    }
    assertOAuthError(await refresh(t, refreshed.json.refresh_token), 400, 'invalid_grant');
  });

  test('two concurrent exchanges of one code: at most one succeeds', async () => {
    const code = await authorize(t);
    const results = await Promise.all([exchange(t, code), exchange(t, code), exchange(t, code)]);
    const ok = results.filter((r) => r.status === 200);
    assert.ok(ok.length <= 1, `${ok.length} exchanges succeeded`);
    for (const r of results.filter((x) => x.status !== 200)) assertOAuthError(r, 400, 'invalid_grant');
    for (const r of ok)
      assert.equal(
        (await api(t, r.json.access_token, { url: '/v1/vehicles' })).status,
        401,
        'the winner is revoked by the reuse',
      );
  });

  test('invalid_grant for refresh: unknown, another client, an access token presented as refresh token', async () => {
    const tok = await tokensFor(t);
    assertOAuthError(await refresh(t, 'fr_' + 'y'.repeat(43)), 400, 'invalid_grant');
    assertOAuthError(await refresh(t, tok.access_token), 400, 'invalid_grant');
    assertOAuthError(await refresh(t, tok.refresh_token, await t.newClient()), 400, 'invalid_grant');
    assert.equal((await refresh(t, tok.refresh_token)).status, 200, 'those failures did not consume the token');
  });

  test('refresh: redirect_uri is accepted and not checked; scope may narrow, never widen (invalid_scope)', async () => {
    const tok = await tokensFor(t, 'vehicles.read users.read');
    const widened = await refresh(t, tok.refresh_token, t.client, { scope: 'vehicles.read companies.read' });
    assertOAuthError(widened, 400, 'invalid_scope', INVALID_SCOPE_DESCRIPTION);
    const narrowed = await refresh(t, tok.refresh_token, t.client, {
      scope: 'users.read',
      redirect_uri: 'https://anything.example/',
    });
    assert.equal(narrowed.status, 200, narrowed.body);
    assert.equal(narrowed.json.scope, 'users.read');
    assert.equal((await api(t, narrowed.json.access_token, { url: '/v1/vehicles' })).status, 403);
    const full = await refresh(t, narrowed.json.refresh_token);
    assert.equal(full.json.scope, 'vehicles.read users.read', 'the refresh token keeps the original scopes');
  });

  test('GET /oauth/token is not allowed (405 with Allow: POST)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/oauth/token' });
    assert.equal(res.statusCode, 405);
    assert.equal(res.headers.allow, 'POST');
  });
});
