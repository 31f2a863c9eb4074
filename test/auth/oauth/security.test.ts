/**
 * The security baseline of the web pages and the token endpoint (RFC 6819; docs/reference/design.md §5): cookie flags,
 * CSRF on every form, page headers, escaping, local return paths, and secrets stored only as digests
 * (the failed-attempt limits: lockout.test.ts).
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { eachDialect } from '../../helper.js';
import { digest } from '../../../src/auth/secrets.js';
import {
  Browser,
  PASSWORD,
  REDIRECT,
  authorizeUrl,
  inputValue,
  makeOAuthApp,
  signInAt,
  tokensFor,
  useOAuthApp,
  type OAuthTestApp,
} from './flows.js';

eachDialect('oauth web security', (dialect) => {
  const getApp = useOAuthApp(dialect);
  let t: OAuthTestApp;
  before(async () => {
    t = await getApp();
  });
  const url = () =>
    authorizeUrl({
      client_id: t.client.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'vehicles.read',
      state: 's',
    });

  test('session and CSRF cookies: HttpOnly, SameSite=Lax, Path=/, not Secure on an http PUBLIC_URL', async () => {
    const b = new Browser(t.app);
    const page = await b.get(url());
    const csrf = page.cookies.find((c) => c.name === 'fleet_csrf')!;
    assert.ok(csrf.httpOnly);
    assert.equal(csrf.sameSite, 'Lax');
    assert.equal(csrf.path, '/');
    assert.ok(!csrf.secure);
    assert.match(csrf.value, /\./, 'the CSRF cookie is signed');
    const res = await b.post('/sign-in', {
      csrf_token: inputValue(page.body, 'csrf_token'),
      return_to: url(),
      email: t.fleet.admin.email,
      password: PASSWORD,
    });
    const session = res.cookies.find((c) => c.name === 'fleet_session')!;
    assert.ok(session.httpOnly);
    assert.equal(session.sameSite, 'Lax');
    assert.ok(!session.secure);
    assert.match(session.value, /^fw_[A-Za-z0-9_-]{43}$/);
    const stored = await t.db.kysely.selectFrom('web_sessions').select('session_hash').execute();
    assert.ok(
      stored.some((s) => s.session_hash === digest(session.value)),
      'the session id is stored as its digest',
    );
    assert.ok(stored.every((s) => s.session_hash !== session.value));
  });

  test('codes, access tokens and refresh tokens are stored only as SHA-256 digests', async () => {
    const tok = await tokensFor(t);
    const rows = await t.db.kysely.selectFrom('oauth_tokens').select(['token_hash', 'kind']).execute();
    const hashes = new Set(rows.map((r) => r.token_hash));
    assert.ok(hashes.has(digest(tok.access_token)) && hashes.has(digest(tok.refresh_token)));
    const dump = JSON.stringify([
      rows,
      await t.db.kysely.selectFrom('oauth_codes').selectAll().execute(),
      await t.db.kysely.selectFrom('oauth_apps').selectAll().execute(),
    ]);
    for (const secret of [tok.access_token, tok.refresh_token, t.client.client_secret])
      assert.ok(!dump.includes(secret));
    assert.ok(!dump.includes('fc_'), 'no authorization code in clear');
  });

  test('sign-in CSRF: missing → 400, wrong → 403, and no session is created', async () => {
    const b = new Browser(t.app);
    await b.get(url());
    const before = (await t.db.kysely.selectFrom('web_sessions').select('id').execute()).length;
    const missing = await b.post('/sign-in', { email: t.fleet.admin.email, password: PASSWORD });
    assert.equal(missing.status, 400);
    const wrong = await b.post('/sign-in', { csrf_token: 'forged', email: t.fleet.admin.email, password: PASSWORD });
    assert.equal(wrong.status, 403);
    const noCookie = await new Browser(t.app).post('/sign-in', {
      csrf_token: 'forged',
      email: t.fleet.admin.email,
      password: PASSWORD,
    });
    assert.equal(noCookie.status, 403);
    assert.equal((await t.db.kysely.selectFrom('web_sessions').select('id').execute()).length, before);
    assert.equal(b.jar.has('fleet_session'), false);
  });

  test('consent CSRF: missing → 400, wrong → 403, and no grant or code is created', async () => {
    const fleet = await t.newFleet('Csrf Co');
    const b = new Browser(t.app);
    const consent = await signInAt(b, url(), fleet.admin.email);
    const form: Record<string, string | undefined> = { decision: 'allow' };
    for (const n of ['client_id', 'redirect_uri', 'response_type', 'scope', 'state'])
      form[n] = inputValue(consent.body, n);
    const missing = await b.post('/oauth/authorize', form);
    assert.equal(missing.status, 400);
    assert.equal(missing.headers.location, undefined);
    const wrong = await b.post('/oauth/authorize', { ...form, csrf_token: 'x'.repeat(43) });
    assert.equal(wrong.status, 403);
    const grants = await t.db.kysely
      .selectFrom('oauth_grants')
      .select('id')
      .where('company_id', '=', fleet.companyId)
      .execute();
    const codes = await t.db.kysely
      .selectFrom('oauth_codes')
      .select('id')
      .where('company_id', '=', fleet.companyId)
      .execute();
    assert.equal(grants.length + codes.length, 0);
    // The CSRF token of another session does not work either.
    const other = new Browser(t.app);
    const otherConsent = await signInAt(other, url(), (await t.newFleet('Other Csrf Co')).admin.email);
    assert.equal(otherConsent.status, 200);
    const foreign = await b.post('/oauth/authorize', {
      ...form,
      csrf_token: inputValue(otherConsent.body, 'csrf_token'),
    });
    assert.equal(foreign.status, 403);
  });

  test('pages: no-store, no framing, no referrer, a strict content security policy, HTML escaping', async () => {
    const evil = await t.newClient({ name: '<script>alert(1)</script> & "Co"' });
    const b = new Browser(t.app);
    const consent = await signInAt(
      b,
      authorizeUrl({
        client_id: evil.client_id,
        redirect_uri: REDIRECT,
        response_type: 'code',
        scope: 'vehicles.read',
        state: '"><img src=x>',
      }),
      t.fleet.admin.email,
    );
    assert.equal(consent.status, 200);
    assert.ok(!consent.body.includes('<script>alert(1)</script>'));
    assert.ok(consent.body.includes('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;'));
    assert.ok(!consent.body.includes('"><img src=x>'));
    assert.equal(consent.headers['cache-control'], 'no-store');
    assert.equal(consent.headers['x-frame-options'], 'DENY');
    assert.equal(consent.headers['referrer-policy'], 'no-referrer');
    assert.match(
      consent.headers['content-security-policy'],
      /default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; frame-ancestors 'none'/,
    );
    assert.ok(!/<script/i.test(consent.body), 'no scripts on the page');
  });

  test('return_to after sign-in stays on this site (no open redirect)', async () => {
    for (const evil of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) {
      const b = new Browser(t.app);
      const page = await b.get('/sign-in');
      const res = await b.post('/sign-in', {
        csrf_token: inputValue(page.body, 'csrf_token'),
        return_to: evil,
        email: t.fleet.manager.email,
        password: PASSWORD,
      });
      assert.equal(res.status, 303);
      assert.equal(res.headers.location, '/console', `return_to ${evil}`);
    }
  });
  // Failed sign-ins and failed client authentications: test/auth/oauth/lockout.test.ts.
});

describe('oauth web security: https', () => {
  test('cookies are Secure when PUBLIC_URL is https', async () => {
    const t = await makeOAuthApp('sqlite', { PUBLIC_URL: 'https://fleet.example' });
    try {
      const b = new Browser(t.app);
      const page = await b.get('/sign-in');
      assert.ok(page.cookies.find((c) => c.name === 'fleet_csrf')!.secure);
      const res = await b.post('/sign-in', {
        csrf_token: inputValue(page.body, 'csrf_token'),
        email: t.fleet.admin.email,
        password: PASSWORD,
      });
      const session = res.cookies.find((c) => c.name === 'fleet_session')!;
      assert.ok(session.secure && session.httpOnly);
      assert.equal(session.sameSite, 'Lax');
    } finally {
      await t.close();
    }
  });
});
