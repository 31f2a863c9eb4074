/**
 * Calling the API with `Authorization: Bearer` (RFC 6750; docs/reference/wire.md §2.2, §5.3–5.4): 401 with the
 * RFC 6750 challenge for a missing, malformed, unknown, expired or revoked token; 403 naming the scope;
 * the token bound to its company and scopes; the token cache and revocation within one second.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect } from '../../helper.js';
import { api, tokensFor, useOAuthApp, vehicle, type OAuthTestApp, type Res } from './flows.js';

function assertInvalidToken(res: Res, description: RegExp) {
  assert.equal(res.status, 401, res.body);
  assert.deepEqual(Object.keys(res.json), ['error_message'], res.body);
  assert.match(res.json.error_message, description);
  const challenge = res.headers['www-authenticate'];
  assert.match(challenge, /^Bearer realm="api", error="invalid_token", error_description="[^"]+"$/);
  assert.match(challenge, description);
}

eachDialect('oauth bearer tokens', (dialect) => {
  const getApp = useOAuthApp(dialect);
  let t: OAuthTestApp;
  let mine: number;
  let theirs: number;
  before(async () => {
    t = await getApp();
    mine = await vehicle(t);
    theirs = await vehicle(t, await t.newFleet('Other Co'));
  });

  test('missing, malformed and unknown tokens → 401 error_message + WWW-Authenticate: Bearer error="invalid_token"', async () => {
    assertInvalidToken(await api(t, '', { url: '/v1/vehicles', headers: { authorization: 'Bearer' } }), /missing/);
    assertInvalidToken(await api(t, '', { url: '/v1/vehicles', headers: { authorization: 'Bearer    ' } }), /missing/);
    assertInvalidToken(await api(t, 'abc def', { url: '/v1/vehicles' }), /malformed/);
    assertInvalidToken(await api(t, 'fr_' + 'a'.repeat(43), { url: '/v1/vehicles' }), /malformed/);
    assertInvalidToken(await api(t, 'fa_' + 'a'.repeat(43), { url: '/v1/vehicles' }), /unknown/);
  });

  test('no credential at all → 401 with a Bearer challenge without an error code (RFC 6750 §3.1)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/vehicles' });
    assert.equal(res.statusCode, 401);
    assert.equal(res.headers['www-authenticate'], 'Bearer realm="api"');
    assert.deepEqual(Object.keys(res.json()), ['error_message']);
  });

  test('a revoked token → 401 invalid_token "revoked"', async () => {
    const tok = await tokensFor(t);
    await t.db.kysely
      .updateTable('oauth_tokens')
      .set({ revoked_at: new Date(t.clock.now).toISOString() })
      .execute();
    assertInvalidToken(await api(t, tok.access_token, { url: '/v1/vehicles' }), /revoked/);
  });

  test('the token is bound to its company: its vehicles only; another company vehicle is 404', async () => {
    const tok = await tokensFor(t);
    const list = await api(t, tok.access_token, { url: '/v1/vehicles' });
    assert.equal(list.status, 200);
    assert.ok(list.json.vehicles.every((w: any) => w.vehicle.company_id === t.fleet.companyId));
    assert.equal((await api(t, tok.access_token, { url: `/v1/vehicles/${mine}` })).status, 200);
    const other = await api(t, tok.access_token, { url: `/v1/vehicles/${theirs}` });
    assert.equal(other.status, 404);
    assert.deepEqual(Object.keys(other.json), ['error_message']);
  });

  test('the token is bound to its scopes: a missing scope → 403 naming it, with the insufficient_scope challenge', async () => {
    const tok = await tokensFor(t, 'vehicles.read');
    const res = await api(t, tok.access_token, { url: '/v1/users' });
    assert.equal(res.status, 403);
    assert.deepEqual(Object.keys(res.json), ['error_message']);
    assert.match(res.json.error_message, /users\.read/);
    assert.equal(
      res.headers['www-authenticate'],
      `Bearer realm="api", error="insufficient_scope", error_description="${res.json.error_message}", scope="users.read"`,
    );
    const write = await api(t, tok.access_token, { method: 'POST', url: '/v1/vehicles', payload: { number: 'X-1' } });
    assert.equal(write.status, 403, 'a read scope does not allow a POST');
    assert.match(write.json.error_message, /vehicles\.manage/);
  });

  test('vehicles.manage grants vehicles.read; a write with it succeeds', async () => {
    const tok = await tokensFor(t, 'vehicles.manage');
    assert.equal((await api(t, tok.access_token, { url: `/v1/vehicles/${mine}` })).status, 200);
    const created = await api(t, tok.access_token, {
      method: 'POST',
      url: '/v1/vehicles',
      payload: { number: 'OAUTH-1' },
    });
    assert.equal(created.status, 201, created.body);
    assert.equal(created.json.vehicle.company_id, t.fleet.companyId);
  });

  test('the API key path is unchanged: no WWW-Authenticate on a bad key', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/vehicles', headers: { 'x-api-key': 'nope' } });
    assert.equal(res.statusCode, 401);
    assert.deepEqual(res.json(), { error_message: 'invalid API key' });
  });

  test('repeated calls are answered from the cache: a revocation written by another node shows within 1000 ms', async () => {
    const tok = await tokensFor(t);
    assert.equal((await api(t, tok.access_token, { url: '/v1/vehicles' })).status, 200);
    // Another node revokes: only the database changes, this node's cache does not hear of it.
    await t.db.kysely
      .updateTable('oauth_grants')
      .set({ revoked_at: new Date(t.clock.now).toISOString() })
      .where('company_id', '=', t.fleet.companyId)
      .execute();
    t.clock.advance(999);
    assert.equal(
      (await api(t, tok.access_token, { url: '/v1/vehicles' })).status,
      200,
      'served from the cache, no database read',
    );
    t.clock.advance(1);
    assertInvalidToken(await api(t, tok.access_token, { url: '/v1/vehicles' }), /revoked/);
  });

  test('a revocation on this node takes effect at once (RFC 7009 revoke drops the cache entry)', async () => {
    const tok = await tokensFor(t);
    assert.equal((await api(t, tok.access_token, { url: '/v1/vehicles' })).status, 200);
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth/revoke',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        token: tok.access_token,
        client_id: t.client.client_id,
        client_secret: t.client.client_secret,
      }).toString(),
    });
    assert.equal(res.statusCode, 200);
    assertInvalidToken(await api(t, tok.access_token, { url: '/v1/vehicles' }), /revoked/);
  });

  test('X-User-Id works with a bearer token as with an API key', async () => {
    const tok = await tokensFor(t);
    assert.equal(
      (await api(t, tok.access_token, { url: '/v1/vehicles', headers: { 'x-user-id': String(t.fleet.admin.id) } }))
        .status,
      200,
    );
    const other = await api(t, tok.access_token, {
      url: '/v1/vehicles',
      headers: { 'x-user-id': String(t.fleet.driver.id) },
    });
    assert.equal(other.status, 403);
  });
});
