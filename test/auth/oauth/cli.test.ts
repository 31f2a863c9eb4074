/**
 * `fleet app …` run for real as child processes on a real database (a SQLite file; a PostgreSQL schema
 * when TEST_POSTGRES_URL is set), checked through the running app.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { buildApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config/index.js';
import { TEST_ENV } from '../../test-env.js';
import { fleet as run, TMP } from '../../cli-process.js';
import { openDb } from '../../../src/storage/db.js';
import { eachDialect, freshDatabase } from '../../helper.js';
import { Browser, REDIRECT, TestClock, api, authorize, exchange, type OAuthTestApp } from './flows.js';
import { createCompany } from '../../../src/domain/companies/service.js';
import { createUser } from '../../../src/domain/users/service.js';

const fleet = (args: string[], databaseUrl: string) => run(args, { DATABASE_URL: databaseUrl }, { timeoutMs: 60_000 });

async function json(args: string[], url: string): Promise<any> {
  const r = await fleet([...args, '--json'], url);
  assert.equal(r.code, 0, `fleet ${args.join(' ')}: ${r.stdout} ${r.stderr}`);
  const lines = r.stdout.trim().split('\n');
  assert.equal(lines.length, 1, r.stdout);
  return JSON.parse(lines[0]);
}

eachDialect('oauth CLI', (dialect) => {
  let url: string;
  let drop: () => Promise<void>;
  let t: OAuthTestApp;
  before(async () => {
    const database = await freshDatabase(dialect);
    url = dialect === 'sqlite' ? `sqlite:${join(TMP, 'fleet.db')}` : database.url;
    drop = database.drop;
    const config = loadConfig({ ...TEST_ENV, DATABASE_URL: url, LOG_LEVEL: 'silent' });
    const db = openDb(url, { poolSize: 2 });
    const clock = new TestClock();
    clock.now = Date.now();
    const app = await buildApp(config, { db, clock: clock.fn });
    const company = await createCompany(db, { name: 'Cli Freight' });
    const email = `cli.admin.${process.pid}@fleet.test`;
    const admin = await createUser(
      db,
      { companyId: company.id },
      { role: 'admin', email, password: 'correct horse battery', first_name: 'Cli', last_name: 'Admin' },
    );
    const fleetRec = {
      companyId: company.id,
      apiKey: '',
      admin: { id: admin.id, email },
      manager: { id: 0, email: '' },
      driver: { id: 0, email: '' },
    };
    t = {
      app,
      db,
      dialect,
      databaseUrl: url,
      clock,
      fleet: fleetRec,
      client: null as never,
      company: { id: company.id, apiKey: '', headers: {} },
      newCompany: () => Promise.reject(new Error('not used')),
      call: () => Promise.reject(new Error('not used')),
      newFleet: () => {
        throw new Error('not used');
      },
      newClient: () => {
        throw new Error('not used');
      },
      async close() {
        await app.close();
        await db.close();
        await drop();
      },
    };
  });
  after(async () => t?.close());

  test('fleet app create --json prints id, client_id, client_secret, name, redirect_uris, scopes; installed, revoke-install (seen by the server within 1000 ms), rotate-secret', async () => {
    const out = await json(
      [
        'app',
        'create',
        '--name',
        'Cli App',
        '--redirect-uri',
        REDIRECT,
        '--redirect-uri',
        'https://client.example/two',
        '--scopes',
        'vehicles.read users.read',
      ],
      url,
    );
    assert.deepEqual(Object.keys(out), ['id', 'client_id', 'client_secret', 'name', 'redirect_uris', 'scopes']);
    assert.equal(out.name, 'Cli App');
    assert.deepEqual(out.redirect_uris, [REDIRECT, 'https://client.example/two']);
    assert.deepEqual(out.scopes, ['vehicles.read', 'users.read']);
    assert.match(out.client_secret, /^fs_[A-Za-z0-9_-]{43}$/);
    const client = { ...out, grant_types: ['authorization_code', 'refresh_token'] };
    const tok = await exchange(t, await authorize(t, { client, scope: 'vehicles.read' }), client);
    assert.equal(tok.status, 200, tok.body);

    const listed = await json(['app', 'installed', '--company', String(t.fleet.companyId)], url);
    assert.deepEqual(
      listed.installed_apps.map((a: any) => [a.client_id, a.name, a.scopes]),
      [[out.client_id, 'Cli App', ['vehicles.read']]],
    );
    assert.equal((await api(t, tok.json.access_token, { url: '/v1/vehicles' })).status, 200);
    const revoked = await json(
      ['app', 'revoke-install', '--company', String(t.fleet.companyId), '--client-id', out.client_id],
      url,
    );
    assert.deepEqual(revoked, { company_id: t.fleet.companyId, client_id: out.client_id, revoked: true });
    // The CLI is another process, like another node: the server sees the revocation within 1000 ms.
    assert.equal((await api(t, tok.json.access_token, { url: '/v1/vehicles' })).status, 200, 'still cached');
    t.clock.advance(1000);
    assert.equal(
      (await api(t, tok.json.access_token, { url: '/v1/vehicles' })).status,
      401,
      'the server refuses the token',
    );
    assert.deepEqual(
      (await json(['app', 'installed', '--company', String(t.fleet.companyId)], url)).installed_apps,
      [],
    );
    const again = await fleet(
      ['app', 'revoke-install', '--company', String(t.fleet.companyId), '--client-id', out.client_id, '--json'],
      url,
    );
    assert.equal(again.code, 1);
    assert.match(JSON.parse(again.stdout).error_message, /not found/);

    const rotated = await json(['app', 'rotate-secret', '--client-id', out.client_id], url);
    assert.notEqual(rotated.client_secret, out.client_secret);
    const code = await authorize(t, { client, scope: 'vehicles.read', browser: new Browser(t.app) });
    assert.equal((await exchange(t, code, client)).status, 401, 'the old secret stopped working');
    assert.equal((await exchange(t, code, { ...client, client_secret: rotated.client_secret })).status, 200);
  });

  test('fleet app create refuses bad input: missing flags (exit 2), an unknown scope or a bad redirect URI (exit 1)', async () => {
    const usage = await fleet(['app', 'create', '--name', 'X', '--scopes', 'vehicles.read'], url);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--redirect-uri is required/);
    const scope = await fleet(
      ['app', 'create', '--name', 'X', '--redirect-uri', REDIRECT, '--scopes', 'trucks.fly', '--json'],
      url,
    );
    assert.equal(scope.code, 1);
    assert.match(JSON.parse(scope.stdout).error_message, /unknown scope/);
    const uri = await fleet(
      ['app', 'create', '--name', 'X', '--redirect-uri', 'https://a.example/#x', '--scopes', 'vehicles.read', '--json'],
      url,
    );
    assert.equal(uri.code, 1);
    assert.match(JSON.parse(uri.stdout).error_message, /fragment/);
  });
});
