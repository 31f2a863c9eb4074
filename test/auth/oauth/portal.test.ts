/** The developer portal: sign up, sign in, register an app (secret shown once), list, rotate the secret. */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect } from '../../helper.js';
import { digest } from '../../../src/auth/secrets.js';
import {
  Browser,
  REDIRECT,
  assertOAuthError,
  authorize,
  exchange,
  inputValue,
  uniq,
  useOAuthApp,
  type OAuthTestApp,
  type Res,
} from './flows.js';

const DEV_PASSWORD = 'a long developer password';

eachDialect('oauth developer portal', (dialect) => {
  const getApp = useOAuthApp(dialect);
  let t: OAuthTestApp;
  before(async () => {
    t = await getApp();
  });

  async function signUp(b: Browser, email = `dev.${uniq()}@apps.test`): Promise<string> {
    const page = await b.get('/developers/sign-up');
    assert.equal(page.status, 200);
    assert.match(page.body, /<label for="password">/);
    const res = await b.post('/developers/sign-up', {
      csrf_token: inputValue(page.body, 'csrf_token'),
      name: 'Dana Dev',
      email,
      password: DEV_PASSWORD,
    });
    assert.equal(res.status, 303, res.body);
    assert.equal(res.headers.location, '/developers/apps');
    return email;
  }

  async function register(b: Browser, form: Record<string, string | string[]>): Promise<Res> {
    const page = await b.get('/developers/apps/new');
    assert.equal(page.status, 200);
    return b.post('/developers/apps', { csrf_token: inputValue(page.body, 'csrf_token'), ...form });
  }

  const secretOf = (html: string) => /<code class="secret" id="client_secret">([^<]+)<\/code>/.exec(html)?.[1];
  const clientIdOf = (html: string) => /<code class="secret" id="client_id">([^<]+)<\/code>/.exec(html)?.[1];

  test('sign up, register an app: the client secret is shown once and stored only as a digest; the app works', async () => {
    const b = new Browser(t.app);
    await signUp(b);
    const empty = await b.get('/developers/apps');
    assert.match(empty.body, /not registered an application yet/);
    const res = await register(b, {
      name: 'Dispatch Board',
      redirect_uris: `${REDIRECT}\r\nhttps://client.example/other`,
      scopes: ['vehicles.read', 'users.read'],
    });
    assert.equal(res.status, 201, res.body);
    const secret = secretOf(res.body)!;
    const clientId = clientIdOf(res.body)!;
    assert.match(secret, /^fs_[A-Za-z0-9_-]{43}$/);
    assert.match(res.body, /shown only this once/);
    const row = await t.db.kysely
      .selectFrom('oauth_apps')
      .selectAll()
      .where('client_id', '=', clientId)
      .executeTakeFirstOrThrow();
    assert.equal(row.client_secret_hash, digest(secret));
    assert.ok(!JSON.stringify(row).includes(secret));
    assert.deepEqual(JSON.parse(row.redirect_uris), [REDIRECT, 'https://client.example/other']);

    const list = await b.get('/developers/apps');
    assert.match(list.body, /Dispatch Board/);
    const detail = await b.get(`/developers/apps/${row.id}`);
    assert.equal(detail.status, 200);
    assert.equal(secretOf(detail.body), undefined, 'the secret is never shown again');
    assert.ok(!detail.body.includes(secret));

    const client = {
      id: row.id,
      client_id: clientId,
      client_secret: secret,
      name: row.name,
      redirect_uris: [REDIRECT],
      scopes: ['vehicles.read'],
      grant_types: [] as any,
    };
    const tok = await exchange(t, await authorize(t, { client }), client);
    assert.equal(tok.status, 200, tok.body);
  });

  test('rotating the secret: the new one is shown once, the old one stops working', async () => {
    const b = new Browser(t.app);
    await signUp(b);
    const created = await register(b, { name: 'Rotator', redirect_uris: REDIRECT, scopes: 'vehicles.read' });
    const oldSecret = secretOf(created.body)!;
    const clientId = clientIdOf(created.body)!;
    const row = await t.db.kysely
      .selectFrom('oauth_apps')
      .select('id')
      .where('client_id', '=', clientId)
      .executeTakeFirstOrThrow();
    const detail = await b.get(`/developers/apps/${row.id}`);
    assert.equal((await b.post(`/developers/apps/${row.id}/secret`, {})).status, 400, 'CSRF missing');
    const rotated = await b.post(`/developers/apps/${row.id}/secret`, {
      csrf_token: inputValue(detail.body, 'csrf_token'),
    });
    assert.equal(rotated.status, 200);
    const newSecret = secretOf(rotated.body)!;
    assert.ok(newSecret && newSecret !== oldSecret);
    const client = {
      id: row.id,
      client_id: clientId,
      client_secret: oldSecret,
      name: 'Rotator',
      redirect_uris: [REDIRECT],
      scopes: ['vehicles.read'],
      grant_types: [] as any,
    };
    const code = await authorize(t, { client });
    assertOAuthError(await exchange(t, code, client), 401, 'invalid_client');
    assert.equal((await exchange(t, code, { ...client, client_secret: newSecret })).status, 200);
  });

  test('registration checks its input: a redirect URI with a fragment or wildcard, no scope, an unknown scope', async () => {
    const b = new Browser(t.app);
    await signUp(b);
    for (const [form, msg] of [
      [{ name: 'X', redirect_uris: 'https://a.example/cb#frag', scopes: 'vehicles.read' }, /fragment/],
      [{ name: 'X', redirect_uris: 'https://*.example/cb', scopes: 'vehicles.read' }, /wildcard/],
      [{ name: 'X', redirect_uris: 'not a url', scopes: 'vehicles.read' }, /absolute URL/],
      [{ name: 'X', redirect_uris: 'ftp://a.example/cb', scopes: 'vehicles.read' }, /https/],
      [{ name: 'X', redirect_uris: REDIRECT }, /at least one scope/],
      [{ name: 'X', redirect_uris: REDIRECT, scopes: 'trucks.fly' }, /unknown scope/],
      [{ name: '', redirect_uris: REDIRECT, scopes: 'vehicles.read' }, /name is required/],
    ] as const) {
      const res = await register(b, form as Record<string, string>);
      assert.equal(res.status, 400, JSON.stringify(form));
      assert.match(res.body, msg);
      assert.match(res.body, /role="alert"/);
    }
  });

  test("a developer sees only their own apps: another developer's app is 404", async () => {
    const a = new Browser(t.app);
    await signUp(a);
    const created = await register(a, { name: 'Private App', redirect_uris: REDIRECT, scopes: 'vehicles.read' });
    const id = (
      await t.db.kysely
        .selectFrom('oauth_apps')
        .select('id')
        .where('client_id', '=', clientIdOf(created.body)!)
        .executeTakeFirstOrThrow()
    ).id;
    const other = new Browser(t.app);
    await signUp(other);
    assert.equal((await other.get(`/developers/apps/${id}`)).status, 404);
    assert.doesNotMatch((await other.get('/developers/apps')).body, /Private App/);
    const detail = await other.get('/developers/apps');
    assert.equal(
      (await other.post(`/developers/apps/${id}/secret`, { csrf_token: inputValue(detail.body, 'csrf_token') })).status,
      404,
    );
    assert.equal((await other.get('/developers/apps/abc')).status, 404);
  });

  test('sign in and out; wrong password → 401; duplicate email and short password refused; signed-out pages redirect', async () => {
    const b = new Browser(t.app);
    const email = await signUp(b);
    const apps = await b.get('/developers/apps');
    assert.equal(
      (await b.post('/developers/sign-out', { csrf_token: inputValue(apps.body, 'csrf_token') })).status,
      303,
    );
    assert.equal((await b.get('/developers/apps')).status, 303);
    const page = await b.get('/developers/sign-in');
    const csrf = inputValue(page.body, 'csrf_token');
    const wrong = await b.post('/developers/sign-in', { csrf_token: csrf, email, password: 'nope' });
    assert.equal(wrong.status, 401);
    const ok = await b.post('/developers/sign-in', {
      csrf_token: csrf,
      email: email.toUpperCase(),
      password: DEV_PASSWORD,
    });
    assert.equal(ok.status, 303);
    assert.equal((await b.get('/developers/apps')).status, 200);

    const c = new Browser(t.app);
    const form = await c.get('/developers/sign-up');
    const dup = await c.post('/developers/sign-up', {
      csrf_token: inputValue(form.body, 'csrf_token'),
      name: 'Again',
      email,
      password: DEV_PASSWORD,
    });
    assert.equal(dup.status, 400);
    assert.match(dup.body, /already taken/);
    const short = await c.post('/developers/sign-up', {
      csrf_token: inputValue(form.body, 'csrf_token'),
      name: 'S',
      email: `s.${uniq()}@x.test`,
      password: 'short',
    });
    assert.equal(short.status, 400);
    assert.match(short.body, /password must be at least 15 characters long \(it has 5\)/);
    const common = await c.post('/developers/sign-up', {
      csrf_token: inputValue(form.body, 'csrf_token'),
      name: 'S',
      email: `s.${uniq()}@x.test`,
      password: 'passwordpassword',
    });
    assert.equal(common.status, 400);
    assert.match(common.body, /password is too common/);
    const noCsrf = await c.post('/developers/sign-up', {
      name: 'S',
      email: `s.${uniq()}@x.test`,
      password: DEV_PASSWORD,
    });
    assert.equal(noCsrf.status, 400);
  });

  test('a developer session does not open the fleet pages', async () => {
    const b = new Browser(t.app);
    await signUp(b);
    assert.equal((await b.get('/fleet/apps')).status, 303, 'developer cookie does not sign in to the fleet pages');
  });
});
