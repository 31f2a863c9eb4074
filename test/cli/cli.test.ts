/**
 * The `fleet` CLI, run for real as a child process on a real database (a SQLite file; PostgreSQL too when
 * TEST_POSTGRES_URL is set), and `fleet serve` started, called and stopped with SIGTERM mid-request: all
 * from this tree compiled (test/cli-process.ts), as production runs. Help and usage errors:
 * test/cli/help.test.ts; list and show: test/cli/records.test.ts; changes: test/cli/changes.test.ts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import { TEST_ENV } from '../test-env.js';
import { MIGRATIONS } from '../../src/storage/migrate.js';
import { dialects } from '../helper.js';
import { BUILD, databaseFor, fleet, jsonOf, ok, ROOT, TMP } from '../cli-process.js';

/** A long-running `fleet` process (serve) from this tree's compiled build (test/cli-process.ts). */
function start(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [join(BUILD, 'cli/main.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent', PORT: '', HOST: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function withApp<T>(url: string, fn: (app: Awaited<ReturnType<typeof buildApp>>) => Promise<T>): Promise<T> {
  const app = await buildApp(loadConfig({ ...TEST_ENV, DATABASE_URL: url, LOG_LEVEL: 'silent' }));
  try {
    return await fn(app);
  } finally {
    await app.close();
  }
}

for (const dialect of dialects()) {
  describe(`fleet CLI [${dialect}]`, () => {
    it('migrates, creates a company, users and an API key that works, and revokes it', async () => {
      const database = await databaseFor(dialect, 'records');
      const env = { DATABASE_URL: database.url };
      try {
        assert.deepEqual(await ok(['migrate'], env), { applied: MIGRATIONS.map(([name]) => name) });
        assert.deepEqual(await ok(['migrate'], env), { applied: [] });

        assert.deepEqual(await ok(['company', 'create', '--name', 'Acme Freight'], env), {
          id: 1,
          company_id: 'FP0000001',
          name: 'Acme Freight',
        });

        const admin = [
          'user',
          'create',
          '--company',
          '1',
          '--role',
          'admin',
          '--email',
          'Jane.Doe@acme.test',
          '--password',
          's3cret-pass-phrase',
        ];
        assert.deepEqual(await ok(admin, env), {
          id: 1,
          company_id: 1,
          role: 'admin',
          email: 'jane.doe@acme.test',
          username: null,
          first_name: 'Jane',
          last_name: 'Doe',
        });
        const dup = await fleet([...admin, '--json'], env);
        assert.equal(dup.code, 1);
        assert.deepEqual(jsonOf(dup), { error_message: 'email "jane.doe@acme.test" is already taken' });
        const dupHuman = await fleet(admin, env);
        assert.equal(dupHuman.code, 1);
        assert.equal(dupHuman.stdout, '');
        assert.match(dupHuman.stderr, /email "jane\.doe@acme\.test" is already taken/);

        // The company by its code; a driver by username, with names given.
        assert.deepEqual(
          await ok(
            [
              'user',
              'create',
              '--company',
              'FP0000001',
              '--role',
              'driver',
              '--username',
              'bwalker',
              '--password',
              'pw-12345-truck-route',
              '--first-name',
              'Bo',
              '--last-name',
              'Walker',
            ],
            env,
          ),
          {
            id: 2,
            company_id: 1,
            role: 'driver',
            email: null,
            username: 'bwalker',
            first_name: 'Bo',
            last_name: 'Walker',
          },
        );
        const noCompany = await fleet(
          ['user', 'create', '--company', '99', '--role', 'admin', '--email', 'x@y.z', '--password', 'p', '--json'],
          env,
        );
        assert.equal(noCompany.code, 1);
        assert.deepEqual(jsonOf(noCompany), { error_message: 'company 99 not found' });

        const key = (await ok(['api-key', 'create', '--company', '1', '--name', 'ci'], env)) as Record<string, unknown>;
        assert.match(String(key.api_key), /^fk_[A-Za-z0-9_-]{43}$/);
        assert.deepEqual(key, { id: 1, company_id: 1, name: 'ci', api_key: key.api_key });

        // The CLI writes while an app holds the same database open.
        await withApp(database.url, async (app) => {
          const headers = { 'x-api-key': String(key.api_key) };
          const res = await app.inject({ method: 'GET', url: '/v1/users', headers });
          assert.equal(res.statusCode, 200);
          assert.equal(res.json().users.length, 2);

          assert.deepEqual(await ok(['api-key', 'revoke', '--id', '1'], env), { id: 1, revoked: true });
          const revoked = await app.inject({ method: 'GET', url: '/v1/users', headers });
          assert.equal(revoked.statusCode, 401);
          assert.deepEqual(revoked.json(), { error_message: 'invalid API key' });
        });
        // Revoking again is not an error; an unknown key is.
        assert.deepEqual(await ok(['api-key', 'revoke', '--id', '1'], env), { id: 1, revoked: true });
        const unknown = await fleet(['api-key', 'revoke', '--id', '42', '--json'], env);
        assert.equal(unknown.code, 1);
        assert.deepEqual(jsonOf(unknown), { error_message: 'API key 42 not found' });
      } finally {
        await database.drop();
      }
    });

    it('prints a short human line without --json', async () => {
      const database = await databaseFor(dialect, 'human');
      const env = { DATABASE_URL: database.url };
      try {
        const r = await fleet(['company', 'create', '--name', 'Beta Haulage'], env);
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout, 'Created company 1 (FP0000001) "Beta Haulage"\n');
        const k = await fleet(['api-key', 'create', '--company', '1'], env);
        assert.equal(k.code, 0, k.stderr);
        assert.match(
          k.stdout,
          /^Created API key 1 "default" for company 1\. It is shown only this once:\nfk_[A-Za-z0-9_-]{43}\n$/,
        );
      } finally {
        await database.drop();
      }
    });
  });
}

describe('fleet CLI configuration and binary', () => {
  const env = { DATABASE_URL: `sqlite:${join(TMP, 'usage.db')}` };

  it('invalid configuration exits 1 with the message on stderr', async () => {
    const [r, p] = await Promise.all([
      fleet(['serve'], { DATABASE_URL: 'mysql://nope' }),
      fleet(['serve'], { ...env, PORT: 'eighty' }),
    ]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /DATABASE_URL must start with sqlite:, postgres:\/\/ or postgresql:\/\//);
    assert.equal(p.code, 1);
    assert.match(p.stderr, /PORT must be a whole number, got "eighty"/);
  });

  it('bin/fleet.js runs the same CLI', async () => {
    const child = spawn(process.execPath, ['bin/fleet.js', 'migrate', '--json'], {
      cwd: ROOT,
      env: { ...process.env, ...env, DATABASE_URL: `sqlite:${join(TMP, 'bin.db')}` },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const code = await new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error('bin/fleet.js timed out'))), 30_000);
      child.on('close', (c) => (clearTimeout(timer), resolve(c)));
    });
    assert.equal(code, 0);
    assert.deepEqual(JSON.parse(out), { applied: MIGRATIONS.map(([name]) => name) });
  });
});

async function waitFor(what: string, cond: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Resolves true when a TCP connection to the port is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(false)));
    s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

describe('fleet serve', () => {
  it('serves the demo on a random port and exits 0 on SIGTERM after finishing an in-flight request', async () => {
    const child = start(['serve', '--demo'], {
      ...TEST_ENV,
      DATABASE_URL: `sqlite:${join(TMP, 'serve.db')}`,
      PORT: '0',
      HOST: '127.0.0.1',
      // trace: the level at which a request is logged as it is routed (below), not only once answered.
      LOG_LEVEL: 'trace',
      SHUTDOWN_GRACE_MS: '10000',
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    try {
      await waitFor('the demo banner', () => /curl -H "X-Api-Key: fk_\S+" \S+\/v1\/vehicles/.test(out), 30_000);
      const url = /fleet: listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(out);
      assert.ok(url, out);
      const port = Number(url[2]);
      assert.ok(port > 0);
      const key = /X-Api-Key: (fk_[A-Za-z0-9_-]+)/.exec(out)![1];
      assert.match(out, /Admin: +admin@demo\.fleet/);

      const health = await fetch(`${url[1]}/healthz`, { signal: AbortSignal.timeout(5000) });
      assert.equal(health.status, 200);
      assert.deepEqual(await health.json(), { status: 'ok' });
      // Files the compiled server reads next to its code (copied into the build) and the API document.
      const css = await fetch(`${url[1]}/console/assets/console.css`, { signal: AbortSignal.timeout(5000) });
      assert.equal(css.status, 200);
      assert.equal(await css.text(), readFileSync(join(ROOT, 'src/http/console/assets/console.css'), 'utf8'));
      const openapi = await fetch(`${url[1]}/openapi.json`, { signal: AbortSignal.timeout(5000) });
      assert.equal(openapi.status, 200);
      assert.equal((await openapi.json()).openapi, '3.1.0');

      // A request whose body is still arriving when SIGTERM comes in.
      const body = JSON.stringify({ notes: 'updated during shutdown' });
      const sock = connect(port, '127.0.0.1');
      let response = '';
      sock.setEncoding('utf8');
      sock.on('data', (d) => (response += d));
      const ended = new Promise<void>((resolve, reject) => {
        sock.once('end', resolve);
        sock.once('error', reject);
      });
      await new Promise<void>((resolve, reject) => (sock.once('connect', resolve), sock.once('error', reject)));
      sock.write(
        `PUT /v1/vehicles/1 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Api-Key: ${key}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n` +
          body.slice(0, 10),
      );
      // At trace level "incoming request" is logged once the request is routed: from then on it is in flight.
      await waitFor('the PUT to be routed', () => /"method":"PUT".*"incoming request"/.test(out), 10_000);
      child.kill('SIGTERM');
      await waitFor('the shutdown line', () => out.includes('SIGTERM received; shutting down'), 10_000);

      // No new connections while it drains.
      const until = Date.now() + 5000;
      while (!(await refused(port))) {
        assert.ok(Date.now() < until, 'the server kept accepting connections after SIGTERM');
        await new Promise((r) => setTimeout(r, 50));
      }

      sock.write(body.slice(10));
      await Promise.race([
        ended,
        new Promise((_, reject) => setTimeout(() => reject(new Error('no response')), 10_000)),
      ]);
      assert.match(response, /^HTTP\/1\.1 200 /);
      const json = JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));
      assert.equal(json.vehicle.number, 'T-101');
      assert.equal(json.vehicle.notes, 'updated during shutdown');

      const exit = await Promise.race([
        exited,
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no exit after SIGTERM\n${out}`)), 15_000)),
      ]);
      assert.deepEqual(exit, { code: 0, signal: null }, out);
      assert.match(out, /fleet: stopped/);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
