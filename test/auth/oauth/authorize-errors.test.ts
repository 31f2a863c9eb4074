/**
 * GET /oauth/authorize errors (RFC 6749 §4.1.2.1, docs/reference/wire.md §8.2–8.3): an unknown client or an
 * unregistered redirect URI is an error page and never a redirect; the rest redirect with error,
 * error_description and state.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect } from '../../helper.js';
import { INVALID_SCOPE_DESCRIPTION } from '../../../src/auth/oauth/errors.js';
import { Browser, REDIRECT, authorizeUrl, exchange, signInAt, useOAuthApp, type OAuthTestApp } from './flows.js';

eachDialect('oauth authorize errors', (dialect) => {
  const getApp = useOAuthApp(dialect);
  let t: OAuthTestApp;
  before(async () => {
    t = await getApp();
  });
  const base = () => ({
    client_id: t.client.client_id,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: 'vehicles.read',
    state: 'abc',
  });
  const get = (params: Record<string, string | undefined>) => new Browser(t.app).get(authorizeUrl(params));

  function assertErrorPage(res: { status: number; headers: Record<string, any>; body: string }, text: RegExp) {
    assert.equal(res.status, 400, res.body);
    assert.equal(res.headers.location, undefined, 'never a redirect');
    assert.match(res.headers['content-type'], /^text\/html/);
    assert.match(res.body, text);
  }

  function assertRedirectError(
    res: { status: number; headers: Record<string, any> },
    error: string,
    description?: string,
    state: string | null = 'abc',
  ) {
    assert.equal(res.status, 302);
    const to = new URL(res.headers.location);
    assert.equal(`${to.origin}${to.pathname}`, REDIRECT);
    assert.equal(to.searchParams.get('error'), error);
    if (description) assert.equal(to.searchParams.get('error_description'), description);
    else assert.ok(to.searchParams.get('error_description'));
    assert.equal(to.searchParams.get('state'), state);
    assert.equal(to.searchParams.get('code'), null);
  }

  test('unknown client_id → error page, status 400, no redirect', async () => {
    assertErrorPage(await get({ ...base(), client_id: 'no-such-client' }), /not registered/);
    assertErrorPage(await get({ ...base(), client_id: undefined }), /no client_id/);
  });

  test('redirect_uri not registered (exact match only: prefix, suffix, case, query, trailing slash) → error page, no redirect', async () => {
    for (const uri of [
      'https://evil.example/callback',
      'https://client.example/callback/evil',
      'https://client.example/callbac',
      'https://CLIENT.example/callback',
      'https://client.example/callback?next=https://evil.example',
      'https://client.example/callback/',
      'http://client.example/callback',
    ]) {
      assertErrorPage(await get({ ...base(), redirect_uri: uri }), /not one that Route Planner registered/);
    }
    assertErrorPage(await get({ ...base(), redirect_uri: undefined }), /has no redirect_uri/);
  });

  test('an error page comes before any other check: unknown client with a bad scope is still a page', async () => {
    assertErrorPage(
      await get({ ...base(), client_id: 'nope', scope: 'bogus', response_type: 'token' }),
      /not registered/,
    );
  });

  test('unknown scope → redirect with invalid_scope and the exact description, state echoed', async () => {
    assertRedirectError(
      await get({ ...base(), scope: 'vehicles.read trucks.fly' }),
      'invalid_scope',
      INVALID_SCOPE_DESCRIPTION,
    );
    assert.equal(INVALID_SCOPE_DESCRIPTION, 'The requested scope is invalid, unknown, or malformed.');
  });

  test('a scope the app may not ask for → invalid_scope (a subset of the app scopes is required)', async () => {
    assertRedirectError(
      await get({ ...base(), scope: 'vehicles.read hos_logs.logs' }),
      'invalid_scope',
      INVALID_SCOPE_DESCRIPTION,
    );
  });

  test('comma-joined scopes are one unknown scope → invalid_scope; missing or empty scope → invalid_scope', async () => {
    assertRedirectError(
      await get({ ...base(), scope: 'vehicles.read,users.read' }),
      'invalid_scope',
      INVALID_SCOPE_DESCRIPTION,
    );
    assertRedirectError(await get({ ...base(), scope: undefined }), 'invalid_scope', INVALID_SCOPE_DESCRIPTION);
    assertRedirectError(await get({ ...base(), scope: '' }), 'invalid_scope', INVALID_SCOPE_DESCRIPTION);
  });

  test('scopes separated by %20 or + are both accepted', async () => {
    const url = `/oauth/authorize?client_id=${t.client.client_id}&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code`;
    for (const sep of ['%20', '+']) {
      const b = new Browser(t.app);
      const page = await signInAt(b, `${url}&scope=vehicles.read${sep}users.read`, t.fleet.admin.email);
      assert.equal(page.status, 200);
      assert.match(page.body, /Read your vehicles/);
      assert.match(page.body, /Read your drivers and fleet managers/);
    }
  });

  test('response_type other than code → unsupported_response_type; missing → invalid_request', async () => {
    assertRedirectError(await get({ ...base(), response_type: 'token' }), 'unsupported_response_type');
    assertRedirectError(await get({ ...base(), response_type: 'code id_token' }), 'unsupported_response_type');
    assertRedirectError(await get({ ...base(), response_type: undefined }), 'invalid_request');
  });

  test('an error without state carries no state', async () => {
    assertRedirectError(
      await get({ ...base(), state: undefined, scope: 'nope' }),
      'invalid_scope',
      INVALID_SCOPE_DESCRIPTION,
      null,
    );
  });

  test('an app without the authorization_code grant → unauthorized_client', async () => {
    const client = await t.newClient({ grantTypes: ['refresh_token'] });
    assertRedirectError(await get({ ...base(), client_id: client.client_id }), 'unauthorized_client');
  });

  test('errors are checked before sign-in: a signed-out browser gets the redirect, not the sign-in page', async () => {
    const res = await get({ ...base(), scope: 'nope' });
    assert.equal(res.status, 302);
  });

  test('the redirect keeps a query string the app registered, and adds code and state to it', async () => {
    const uri = 'https://client.example/cb?tenant=7&x=a%20b';
    const client = await t.newClient({ redirectUris: [REDIRECT, uri] });
    const b = new Browser(t.app);
    const url = authorizeUrl({ ...base(), client_id: client.client_id, redirect_uri: uri });
    const page = await signInAt(b, url, t.fleet.admin.email);
    const form: Record<string, string> = {};
    for (const m of page.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
      form[m[1]] = m[2].replace(/&amp;/g, '&');
    const res = await b.post('/oauth/authorize', { ...form, decision: 'allow' });
    const to = new URL(res.headers.location);
    assert.equal(to.searchParams.get('tenant'), '7');
    assert.equal(to.searchParams.get('x'), 'a b');
    assert.equal(to.searchParams.get('state'), 'abc');
    const tok = await exchange(t, to.searchParams.get('code')!, client, { redirect_uri: uri });
    assert.equal(tok.status, 200, tok.body);
  });

  test('the consent form re-checks everything: a tampered redirect_uri is an error page, not a redirect', async () => {
    const b = new Browser(t.app);
    const page = await signInAt(b, authorizeUrl(base()), t.fleet.admin.email);
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.body)![1];
    const res = await b.post('/oauth/authorize', {
      ...base(),
      redirect_uri: 'https://evil.example/cb',
      csrf_token: csrf,
      decision: 'allow',
    });
    assertErrorPage(res, /not one that Route Planner registered/);
    const scoped = await b.post('/oauth/authorize', {
      ...base(),
      scope: 'vehicles.read hos_logs.logs',
      csrf_token: csrf,
      decision: 'allow',
    });
    assertRedirectError(scoped, 'invalid_scope', INVALID_SCOPE_DESCRIPTION);
  });

  test('PKCE parameters are ignored (not documented for the real API)', async () => {
    const b = new Browser(t.app);
    const page = await signInAt(
      b,
      authorizeUrl({ ...base(), code_challenge: 'abc', code_challenge_method: 'S256' }),
      t.fleet.admin.email,
    );
    assert.equal(page.status, 200);
    assert.match(page.body, /Install Route Planner/);
  });
});
