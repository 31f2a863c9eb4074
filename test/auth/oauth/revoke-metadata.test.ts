/** Token revocation (RFC 7009) at /oauth/revoke and server metadata (RFC 8414). */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect } from '../../helper.js';
import { SCOPES } from '../../../src/auth/scopes.js';
import {
  Browser,
  api,
  assertOAuthError,
  formBody,
  refresh,
  tokensFor,
  useOAuthApp,
  type OAuthTestApp,
} from './flows.js';

eachDialect('oauth revocation and metadata', (dialect) => {
  const getApp = useOAuthApp(dialect, { PUBLIC_URL: 'https://fleet.example' });
  let t: OAuthTestApp;
  before(async () => {
    t = await getApp();
  });
  const revoke = (params: Record<string, string | undefined>, headers: Record<string, string> = {}) =>
    new Browser(t.app).request({
      method: 'POST',
      url: '/oauth/revoke',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: formBody(params),
    });
  const creds = () => ({ client_id: t.client.client_id, client_secret: t.client.client_secret });

  test('revoking an access token: 200, and the token stops working; the refresh token still works', async () => {
    const tok = await tokensFor(t);
    const res = await revoke({ token: tok.access_token, token_type_hint: 'access_token', ...creds() });
    assert.equal(res.status, 200);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal((await api(t, tok.access_token, { url: '/v1/vehicles' })).status, 401);
    assert.equal((await refresh(t, tok.refresh_token)).status, 200);
  });

  test('revoking a refresh token revokes the access tokens of the same authorization (RFC 7009 §2.1)', async () => {
    const tok = await tokensFor(t);
    const res = await revoke({ token: tok.refresh_token, ...creds() }, {});
    assert.equal(res.status, 200);
    assertOAuthError(await refresh(t, tok.refresh_token), 400, 'invalid_grant', /revoked/);
    assert.equal((await api(t, tok.access_token, { url: '/v1/vehicles' })).status, 401);
  });

  test('the hint is only a hint: a refresh token with token_type_hint=access_token is still revoked', async () => {
    const tok = await tokensFor(t);
    assert.equal((await revoke({ token: tok.refresh_token, token_type_hint: 'access_token', ...creds() })).status, 200);
    assertOAuthError(await refresh(t, tok.refresh_token), 400, 'invalid_grant');
  });

  test('an unknown token, or another client token, is answered 200 and nothing is revoked', async () => {
    const tok = await tokensFor(t);
    assert.equal((await revoke({ token: 'fa_' + 'q'.repeat(43), ...creds() })).status, 200);
    assert.equal((await revoke({ token: 'garbage', ...creds() })).status, 200);
    const other = await t.newClient();
    assert.equal(
      (await revoke({ token: tok.access_token, client_id: other.client_id, client_secret: other.client_secret }))
        .status,
      200,
    );
    assert.equal(
      (await api(t, tok.access_token, { url: '/v1/vehicles' })).status,
      200,
      "another client cannot revoke this client's token",
    );
  });

  test('revocation needs client authentication (401 invalid_client) and a token (400 invalid_request)', async () => {
    const tok = await tokensFor(t);
    assertOAuthError(await revoke({ token: tok.access_token }), 401, 'invalid_client');
    assertOAuthError(
      await revoke({ token: tok.access_token, client_id: t.client.client_id, client_secret: 'wrong' }),
      401,
      'invalid_client',
    );
    assertOAuthError(await revoke({ ...creds() }), 400, 'invalid_request', /token/);
    const basic = `Basic ${Buffer.from(`${t.client.client_id}:${t.client.client_secret}`).toString('base64')}`;
    assert.equal((await revoke({ token: tok.access_token }, { authorization: basic })).status, 200);
    assert.equal((await api(t, tok.access_token, { url: '/v1/vehicles' })).status, 401);
  });

  test('/.well-known/oauth-authorization-server describes the endpoints (RFC 8414)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    const m = res.json();
    assert.equal(m.issuer, 'https://fleet.example');
    assert.equal(m.authorization_endpoint, 'https://fleet.example/oauth/authorize');
    assert.equal(m.token_endpoint, 'https://fleet.example/oauth/token');
    assert.equal(m.revocation_endpoint, 'https://fleet.example/oauth/revoke');
    assert.deepEqual(m.response_types_supported, ['code']);
    assert.deepEqual(m.grant_types_supported, ['authorization_code', 'refresh_token']);
    assert.deepEqual(m.token_endpoint_auth_methods_supported, ['client_secret_basic', 'client_secret_post']);
    assert.deepEqual(m.scopes_supported, Object.keys(SCOPES));
  });
});
