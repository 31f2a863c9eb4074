/**
 * Concurrent refreshes (RFC 9700 §4.14 reuse detection with a grace period, docs/oauth.md): a refresh
 * token exchanged again within OAUTH_REFRESH_REUSE_GRACE_S of its first use gets a pair of its own and
 * revokes nothing; after it, the reuse revokes the grant. Truly concurrent requests, on both databases
 * and on two nodes (two apps) of one PostgreSQL database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../../../src/app.js';
import { ConfigError, loadConfig } from '../../../src/config/index.js';
import { openDb } from '../../../src/storage/db.js';
import { eachDialect, POSTGRES_URL } from '../../helper.js';
import { TEST_ENV } from '../../test-env.js';
import {
  Browser,
  api,
  assertOAuthError,
  formBody,
  refresh,
  tokensFor,
  useOAuthApp,
  type OAuthTestApp,
  type Res,
} from './flows.js';

const REUSED = 'The refresh token has already been used; the authorization is revoked. Authorize again.';

/** The exact token response of a refresh at the clock's time. */
function assertPair(
  t: OAuthTestApp,
  res: Res,
  scope = 'vehicles.read',
): { access_token: string; refresh_token: string } {
  assert.equal(res.status, 200, res.body);
  assert.equal(res.headers['cache-control'], 'no-store');
  assert.match(res.json.access_token, /^fa_[A-Za-z0-9_-]{43}$/);
  assert.match(res.json.refresh_token, /^fr_[A-Za-z0-9_-]{43}$/);
  assert.deepEqual(
    Object.entries(res.json),
    Object.entries({
      access_token: res.json.access_token,
      token_type: 'Bearer',
      expires_in: 7200,
      refresh_token: res.json.refresh_token,
      scope,
      created_at: Math.floor(t.clock.now / 1000),
    }),
  );
  return res.json;
}

const vehicles = async (t: OAuthTestApp, access: string) => (await api(t, access, { url: '/v1/vehicles' })).status;

/** Whether the latest grant of the test client (the one the test authorized) is revoked. */
async function grantRevoked(t: OAuthTestApp): Promise<boolean> {
  const g = await t.db.kysely
    .selectFrom('oauth_grants')
    .select('revoked_at')
    .where('company_id', '=', t.fleet.companyId)
    .where('app_id', '=', t.client.id)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return g.revoked_at !== null;
}

eachDialect('oauth concurrent refreshes', (dialect) => {
  const getApp = useOAuthApp(dialect);
  let t: OAuthTestApp;
  before(async () => {
    t = await getApp();
  });

  test('four concurrent refreshes of one token: each gets a working pair of its own, and nothing is revoked', async () => {
    const tok = await tokensFor(t);
    const results = await Promise.all([1, 2, 3, 4].map(() => refresh(t, tok.refresh_token)));
    const pairs = results.map((r) => assertPair(t, r));
    assert.equal(new Set(pairs.flatMap((p) => [p.access_token, p.refresh_token])).size, 8, 'every pair is new');
    assert.equal(await grantRevoked(t), false);
    for (const access of [tok.access_token, ...pairs.map((p) => p.access_token)])
      assert.equal(await vehicles(t, access), 200);
    for (const p of pairs) assertPair(t, await refresh(t, p.refresh_token));
  });

  test('a reuse within the grace period gets a pair; one at 30 s revokes the grant and every token of both pairs', async () => {
    const tok = await tokensFor(t);
    const first = assertPair(t, await refresh(t, tok.refresh_token));
    t.clock.advance(29_999);
    const second = assertPair(t, await refresh(t, tok.refresh_token));
    assert.equal(await vehicles(t, first.access_token), 200, 'the first pair keeps working');
    assert.equal(await grantRevoked(t), false);
    t.clock.advance(1);
    assertOAuthError(await refresh(t, tok.refresh_token), 400, 'invalid_grant', REUSED);
    assert.equal(await grantRevoked(t), true);
    for (const access of [tok.access_token, first.access_token, second.access_token])
      assert.equal(await vehicles(t, access), 401);
    for (const p of [first, second])
      assertOAuthError(await refresh(t, p.refresh_token), 400, 'invalid_grant', 'The refresh token has been revoked.');
  });

  test('the grace period does not outlive a revocation: a revoked chain is refused and the grant stays', async () => {
    const tok = await tokensFor(t);
    const first = assertPair(t, await refresh(t, tok.refresh_token));
    const revoked = await new Browser(t.app).request({
      method: 'POST',
      url: '/oauth/revoke',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: formBody({
        token: first.refresh_token,
        client_id: t.client.client_id,
        client_secret: t.client.client_secret,
      }),
    });
    assert.equal(revoked.status, 200);
    assertOAuthError(await refresh(t, tok.refresh_token), 400, 'invalid_grant', 'The refresh token has been revoked.');
    assert.equal(await grantRevoked(t), false, 'a revoked token is not a leaked one');
  });
});

eachDialect('oauth refresh reuse without a grace period', (dialect) => {
  const getApp = useOAuthApp(dialect, { OAUTH_REFRESH_REUSE_GRACE_S: '0' });

  test('OAUTH_REFRESH_REUSE_GRACE_S=0: of three concurrent refreshes at most one succeeds, and the grant is revoked', async () => {
    const t = await getApp();
    const tok = await tokensFor(t);
    const results = await Promise.all([1, 2, 3].map(() => refresh(t, tok.refresh_token)));
    const ok = results.filter((r) => r.status === 200);
    assert.ok(ok.length <= 1, `${ok.length} refreshes succeeded`);
    for (const r of results.filter((x) => x.status !== 200))
      assertOAuthError(r, 400, 'invalid_grant', /already been used|revoked/);
    assert.equal(await grantRevoked(t), true);
    for (const r of ok) assert.equal(await vehicles(t, r.json.access_token), 401);
  });
});

if (POSTGRES_URL) {
  describe('oauth concurrent refreshes on two nodes of one PostgreSQL database', () => {
    const getApp = useOAuthApp('postgres');
    let t: OAuthTestApp;
    let other: OAuthTestApp;
    let closeOther = async () => {};
    before(async () => {
      t = await getApp();
      const config = loadConfig({ DATABASE_URL: t.databaseUrl, LOG_LEVEL: 'silent', ...TEST_ENV });
      const db = openDb(config.databaseUrl, { poolSize: 4 });
      const app = await buildApp(config, { db, clock: t.clock.fn });
      other = { ...t, app, db };
      closeOther = async () => {
        await app.close();
        await db.close();
      };
    });
    after(() => closeOther());

    test('refreshes of one token on both nodes at once all succeed; a reuse after the grace on either revokes the grant on both', async () => {
      const tok = await tokensFor(t);
      const results = await Promise.all([t, other, t, other].map((node) => refresh(node, tok.refresh_token)));
      const pairs = results.map((r) => assertPair(t, r));
      assert.equal(new Set(pairs.map((p) => p.access_token)).size, 4);
      assert.equal(await grantRevoked(t), false);
      for (const node of [t, other]) for (const p of pairs) assert.equal(await vehicles(node, p.access_token), 200);
      t.clock.advance(30_000);
      assertOAuthError(await refresh(other, tok.refresh_token), 400, 'invalid_grant', REUSED);
      assert.equal(await grantRevoked(t), true);
      for (const node of [t, other])
        for (const p of pairs)
          assert.equal(await vehicles(node, p.access_token), 401, 'cache entries outlived by the clock');
    });
  });
}

test('OAUTH_REFRESH_REUSE_GRACE_S: 30 s by default, 0 to 300, a bad value names the variable', () => {
  assert.equal(loadConfig({}).oauthRefreshReuseGraceS, 30);
  assert.equal(loadConfig({ OAUTH_REFRESH_REUSE_GRACE_S: '0' }).oauthRefreshReuseGraceS, 0);
  assert.equal(loadConfig({ OAUTH_REFRESH_REUSE_GRACE_S: '300' }).oauthRefreshReuseGraceS, 300);
  const refused = (value: string, message: string) =>
    assert.throws(
      () => loadConfig({ OAUTH_REFRESH_REUSE_GRACE_S: value }),
      (e: unknown) => e instanceof ConfigError && e.message === message,
    );
  refused('301', 'OAUTH_REFRESH_REUSE_GRACE_S must be between 0 and 300, got 301');
  refused('30s', 'OAUTH_REFRESH_REUSE_GRACE_S must be a whole number, got "30s"');
});
