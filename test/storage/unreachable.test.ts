/** A database that cannot be used is named by DATABASE_URL's host, port and database, never its password. */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { loadConfig } from '../../src/config/index.js';
import { serve } from '../../src/server.js';
import { runCli, POSTGRES_URL } from '../helper.js';
import { TEST_ENV } from '../test-env.js';

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as { port: number };
  await new Promise((resolve) => s.close(resolve));
  return port;
}

test('nothing listens at DATABASE_URL: the CLI and the server name the host, port and database', async () => {
  const port = await closedPort();
  const url = `postgres://fleet:s3cret-pw@127.0.0.1:${port}/fleetdb`;
  const expected = `cannot use the database of DATABASE_URL (PostgreSQL at 127.0.0.1 port ${port}, database fleetdb): connect ECONNREFUSED 127.0.0.1:${port}`;
  const cli = await runCli(['migrate'], { ...TEST_ENV, DATABASE_URL: url });
  assert.deepEqual(cli, { code: 1, err: `fleet: ${expected}\n` });
  await assert.rejects(
    serve(loadConfig({ ...TEST_ENV, DATABASE_URL: url, LOG_LEVEL: 'silent', PORT: '0' }), {
      handleSignals: false,
      out: () => {},
    }),
    {
      message: expected,
    },
  );
});

// With PostgreSQL only, like every PostgreSQL test (test/helper.ts, dialects()).
if (POSTGRES_URL)
  test('a database that does not exist on a reachable server is named the same way', async () => {
    const u = new URL(POSTGRES_URL);
    u.pathname = '/no_such_fleet_db';
    const cli = await runCli(['migrate'], { ...TEST_ENV, DATABASE_URL: u.toString() });
    assert.equal(cli.code, 1);
    assert.equal(
      cli.err,
      `fleet: cannot use the database of DATABASE_URL (PostgreSQL at ${u.hostname} port ${u.port || 5432}, database no_such_fleet_db): database "no_such_fleet_db" does not exist\n`,
    );
  });
