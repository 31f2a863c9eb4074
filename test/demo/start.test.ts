/**
 * Starting the demo cannot lock anyone out: nothing is seeded until the port is bound, every start names
 * the console and the admin, `fleet demo credentials` gives a new way in, and `/` leads a browser to
 * the console.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config/index.js';
import { serve } from '../../src/server.js';
import { openDb } from '../../src/storage/db.js';
import { verifyFleetUser } from '../../src/auth/oauth/accounts.js';
import { resetDemoCredentials } from '../../src/demo/credentials.js';
import { TEST_ENV } from '../test-env.js';
import { eachDialect, freshDatabase, runCliStdout, type Dialect } from '../helper.js';

async function database(dialect: Dialect): Promise<{ url: string; drop(): Promise<void> }> {
  if (dialect === 'postgres') return freshDatabase(dialect);
  const dir = mkdtempSync(join(tmpdir(), 'fleet-demo-'));
  return { url: `sqlite:${join(dir, 'fleet.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

const configFor = (url: string, port: number) =>
  loadConfig({
    ...TEST_ENV,
    DATABASE_URL: url,
    LOG_LEVEL: 'silent',
    PORT: String(port),
    HOST: '127.0.0.1',
    WEBHOOK_WORKER: '0',
    TELEMETRY_SWEEP_MS: '0',
  });

/** Runs the CLI in this process; its one JSON line, parsed. */
async function cliJson(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: Record<string, unknown> }> {
  const { code, out } = await runCliStdout(args, env);
  return { code, out: JSON.parse(out) };
}

async function count(url: string, table: 'companies' | 'users'): Promise<number> {
  const db = openDb(url, { poolSize: 1 });
  try {
    const row = await db.kysely
      .selectFrom(table)
      .select((e) => e.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  } finally {
    await db.close();
  }
}

eachDialect('demo start', (dialect) => {
  it('a start on a busy port seeds nothing; the next one creates the demo and names the console, the admin, the password and the key', async () => {
    const db = await database(dialect);
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const busy = (blocker.address() as { port: number }).port;
    try {
      await assert.rejects(
        serve(configFor(db.url, busy), { demo: true, handleSignals: false, out: () => {} }),
        /EADDRINUSE/,
      );
      assert.equal(await count(db.url, 'companies'), 0, 'the failed start seeded the database');

      let out = '';
      const first = await serve(configFor(db.url, 0), {
        demo: true,
        handleSignals: false,
        out: (t) => void (out += t),
      });
      let password: string;
      let key: string;
      try {
        const url = first.url;
        assert.match(out, new RegExp(`Console: +${url}/console +\\(admins and fleet managers sign in here\\)`));
        assert.match(out, /Admin: +admin@demo\.fleet\n/);
        password = /Password: +(\S+) +\(every demo user has it\)/.exec(out)![1];
        key = /API key: +(fk_\S+)/.exec(out)![1];
        assert.match(out, /Lost the password or the key\? +npm run -s fleet -- demo credentials/);
        assert.doesNotMatch(out, /username/, 'drivers are not told to sign in where they cannot');
        assert.ok([...password].length >= 15, password);

        const root = await fetch(`${url}/`, { redirect: 'manual', headers: { accept: 'text/html' } });
        assert.deepEqual([root.status, root.headers.get('location')], [302, '/console']);
        assert.equal((await fetch(`${url}/v1/vehicles?per_page=1`, { headers: { 'x-api-key': key } })).status, 200);
      } finally {
        await first.close();
      }

      out = '';
      const second = await serve(configFor(db.url, 0), {
        demo: true,
        handleSignals: false,
        out: (t) => void (out += t),
      });
      await second.close();
      assert.match(out, /already has the demo company/);
      assert.match(out, new RegExp(`Console: +${second.url}/console`));
      assert.match(out, /Admin: +admin@demo\.fleet\n/);
      assert.match(out, /npm run -s fleet -- demo credentials/);

      const cli = await cliJson(['demo', 'credentials', '--json'], { ...TEST_ENV, DATABASE_URL: db.url });
      assert.equal(cli.code, 0);
      assert.equal(cli.out.admin_email, 'admin@demo.fleet');
      const handle = openDb(db.url, { poolSize: 1 });
      try {
        assert.equal((await verifyFleetUser(handle, 'admin@demo.fleet', String(cli.out.password))).ok, true);
        assert.equal(
          (await verifyFleetUser(handle, 'admin@demo.fleet', password)).ok,
          false,
          'the earlier password still works',
        );
      } finally {
        await handle.close();
      }
      const third = await serve(configFor(db.url, 0), { handleSignals: false, out: () => {} });
      try {
        for (const k of [key, String(cli.out.api_key)]) {
          assert.equal(
            (await fetch(`${third.url}/v1/vehicles?per_page=1`, { headers: { 'x-api-key': k } })).status,
            200,
          );
        }
      } finally {
        await third.close();
      }
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
      await db.drop();
    }
  });

  it('`demo credentials` on a database without the demo: exit 1 naming why, nothing changed', async () => {
    const db = await database(dialect);
    try {
      const cli = await cliJson(['demo', 'credentials', '--json'], { ...TEST_ENV, DATABASE_URL: db.url });
      assert.deepEqual(cli, {
        code: 1,
        out: {
          error_message:
            'this database has no demo company: start the server with `serve --demo` on an empty database first',
        },
      });
      const handle = openDb(db.url, { poolSize: 1 });
      try {
        assert.equal(await resetDemoCredentials(handle), null);
      } finally {
        await handle.close();
      }
      assert.equal(await count(db.url, 'users'), 0);
    } finally {
      await db.drop();
    }
  });
});
