/** `fleet simulate` refuses to start without a server to drive, before it provisions anything. */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test } from 'node:test';
import { runCli, withSqliteFile } from '../helper.js';
import { createCompany } from '../../src/domain/companies/service.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import { TEST_ENV } from '../test-env.js';

test('fleet simulate: a bad --url exits 2, an unreachable server exits 1; no device is provisioned or revoked', async () => {
  await withSqliteFile(async (db, url) => {
    const company = await createCompany(db, { name: 'Sim Co' });
    const now = new Date().toISOString();
    await db.kysely
      .insertInto('vehicles')
      .values({ company_id: company.id, number: 'S1', created_at: now, updated_at: now })
      .execute();
    const run = (args: string[]) =>
      runCli(
        [
          'simulate',
          '--company',
          String(company.id),
          '--vehicles',
          '1',
          '--duration',
          '10m',
          '--speedup',
          '3600',
          ...args,
        ],
        { DATABASE_URL: url, LOG_LEVEL: 'silent' },
      );
    const bad = await run(['--url', 'notaurl']);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--url must be an http:\/\/ or https:\/\/ address, got "notaurl"/);
    const down = await run(['--url', 'http://127.0.0.1:9']);
    assert.equal(down.code, 1);
    assert.match(
      down.err,
      /no fleet server answers at http:\/\/127\.0\.0\.1:9 \(GET \/healthz: .+\); start one with fleet serve, or pass --url/,
    );
    assert.deepEqual(await db.kysely.selectFrom('devices').select('id').execute(), []);
  });
});

test('fleet simulate: asked for more vehicles than the company has, it says so and drives the ones it has', async () => {
  await withSqliteFile(async (db, url) => {
    const company = await createCompany(db, { name: 'Small Co' });
    const now = new Date().toISOString();
    await db.kysely
      .insertInto('vehicles')
      .values({ company_id: company.id, number: 'S1', created_at: now, updated_at: now })
      .execute();
    const app = await buildApp(
      loadConfig({ ...TEST_ENV, DATABASE_URL: url, LOG_LEVEL: 'silent', WEBHOOK_WORKER: '0' }),
    );
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const port = (app.server.address() as { port: number }).port;
      const out: string[] = [];
      const write = process.stdout.write.bind(process.stdout);
      (process.stdout as { write: unknown }).write = (s: string) => (out.push(s), true);
      let res: Awaited<ReturnType<typeof runCli>>;
      try {
        res = await runCli(
          [
            'simulate',
            '--company',
            String(company.id),
            '--vehicles',
            '3',
            '--duration',
            '1h',
            '--speedup',
            '3600',
            '--seed',
            '1',
            '--url',
            `http://127.0.0.1:${port}`,
            '--json',
          ],
          { DATABASE_URL: url, LOG_LEVEL: 'silent' },
        );
      } finally {
        (process.stdout as { write: unknown }).write = write;
      }
      assert.equal(res.code, 0, res.err + out.join(''));
      assert.match(res.err, new RegExp(`company ${company.id} has 1 vehicle to simulate, not 3: simulating 1`));
      assert.equal(JSON.parse(out.join('')).vehicles, 1);
      // Two simulated minutes from a cold start: the truck is still parked, engine off, and sends nothing.
      const other = await createCompany(db, { name: 'Parked Co' });
      await db.kysely
        .insertInto('vehicles')
        .values({ company_id: other.id, number: 'P1', created_at: now, updated_at: now })
        .execute();
      const parked = await runCli(
        [
          'simulate',
          '--company',
          String(other.id),
          '--vehicles',
          '1',
          '--duration',
          '2m',
          '--speedup',
          '3600',
          '--url',
          `http://127.0.0.1:${port}`,
        ],
        { DATABASE_URL: url, LOG_LEVEL: 'silent' },
      );
      assert.equal(parked.code, 1, parked.err);
      assert.match(
        parked.err,
        /fleet: nothing was sent: the trucks were parked with their engines off for all 120 simulated seconds; simulate longer \(--duration\)/,
      );
      // The run ended cleanly: its device is revoked, so the next run may take the vehicle at once.
      const live = await db.kysely.selectFrom('devices').select('id').where('revoked_at', 'is', null).execute();
      assert.deepEqual(live, []);
    } finally {
      await app.close();
    }
  });
});

test('fleet simulate: a server on another database refuses the devices; the run ends at once, exit 1, saying why', async () => {
  await withSqliteFile(async (serverDb, serverUrl) => {
    const app = await buildApp(
      loadConfig({ ...TEST_ENV, DATABASE_URL: serverUrl, LOG_LEVEL: 'silent', WEBHOOK_WORKER: '0' }),
    );
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const port = (app.server.address() as { port: number }).port;
      await withSqliteFile(async (db, url) => {
        const company = await createCompany(db, { name: 'Elsewhere Co' });
        const now = new Date().toISOString();
        await db.kysely
          .insertInto('vehicles')
          .values({ company_id: company.id, number: 'E1', created_at: now, updated_at: now })
          .execute();
        const started = Date.now();
        const res = await runCli(
          [
            'simulate',
            '--company',
            String(company.id),
            '--vehicles',
            '1',
            '--duration',
            '1h',
            '--speedup',
            '3600',
            '--url',
            `http://127.0.0.1:${port}`,
          ],
          { DATABASE_URL: url, LOG_LEVEL: 'silent' },
        );
        assert.ok(Date.now() - started < 10_000);
        assert.equal(res.code, 1, res.err);
        assert.match(
          res.err,
          /the server refused every vehicle: vehicle \d+: HTTP 401 \{"error_message":"invalid device credential"\} \(the server does not know this device: does this command use the server's DATABASE_URL\?\)/,
        );
        assert.doesNotMatch(res.err, /retrying/);
      });
      assert.deepEqual(await serverDb.kysely.selectFrom('telemetry_records').select('id').execute(), []);
    } finally {
      await app.close();
    }
  });
});

test('fleet simulate: a run that sent nothing (every batch answered 503 until it was stopped) exits 1 saying so', async () => {
  const server = createServer((req, res) => {
    if (req.url === '/healthz') return void res.end('{"status":"ok"}');
    req.resume();
    res.writeHead(503, { 'retry-after': '1' }).end('{"error_message":"busy"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  try {
    await withSqliteFile(async (db, url) => {
      const company = await createCompany(db, { name: 'Quiet Co' });
      const now = new Date().toISOString();
      await db.kysely
        .insertInto('vehicles')
        .values({ company_id: company.id, number: 'Q1', created_at: now, updated_at: now })
        .execute();
      const stop = setTimeout(() => process.emit('SIGINT'), 2500);
      const res = await runCli(
        [
          'simulate',
          '--company',
          String(company.id),
          '--vehicles',
          '1',
          '--speedup',
          '3600',
          '--url',
          `http://127.0.0.1:${port}`,
        ],
        { DATABASE_URL: url, LOG_LEVEL: 'silent' },
      );
      clearTimeout(stop);
      assert.equal(res.code, 1, res.err);
      assert.match(
        res.err,
        new RegExp(
          `fleet: nothing was sent in \\d+ simulated seconds \\(\\d+ failed attempts\\): is the server at http://127\\.0\\.0\\.1:${port} answering\\?`,
        ),
      );
    });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
