/**
 * `fleet backup` of a server process that is taking device batches, and `fleet restore` into a new
 * database: the same rows in every table as the backup says, the document file back byte for byte,
 * and an app on the restored database serving both. The refusals: a non-empty target (then --force),
 * an existing backup file, an in-memory database, a backup of the other kind of database.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import pg from 'pg';
import { eachDialect, freshDatabase, POSTGRES_URL, type Dialect } from '../helper.js';
import { startServer, type ServerProcess } from '../server-process.js';
import { multipart, PDF } from '../http/record-fixtures.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import { openDb, type Db } from '../../src/storage/db.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { createCompany } from '../../src/domain/companies/service.js';
import { createApiKey } from '../../src/auth/api-keys.js';
import { createVehicle } from '../../src/domain/vehicles/service.js';
import { provisionDevice } from '../../src/domain/devices/service.js';
import { TEST_ENV } from '../test-env.js';
import { fleet as run } from '../cli-process.js';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'fleet-backup-test-'));
  dirs.push(d);
  return d;
};
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

interface Place {
  env: { DATABASE_URL: string; BLOB_DIR: string };
  drop(): Promise<void>;
}

/** An empty database to back up from (SQLite: a file; PostgreSQL: a schema of the test database). */
async function sourcePlace(dialect: Dialect): Promise<Place> {
  const blobs = join(tempDir(), 'blobs');
  if (dialect === 'sqlite')
    return { env: { DATABASE_URL: `sqlite:${join(tempDir(), 'fleet.db')}`, BLOB_DIR: blobs }, drop: async () => {} };
  const db = await freshDatabase('postgres');
  return { env: { DATABASE_URL: db.url, BLOB_DIR: blobs }, drop: db.drop };
}

const schemaOf = (url: string) =>
  /search_path=(\w+)/.exec(decodeURIComponent(new URL(url).searchParams.get('options') ?? ''))?.[1] ?? 'public';

/**
 * A new, empty database to restore into. PostgreSQL: a database of its own, with the empty schema
 * `schema` that its search_path names (as a new database has an empty `public`).
 */
async function newPlace(dialect: Dialect, schema: string): Promise<Place> {
  const blobs = join(tempDir(), 'restored-blobs');
  if (dialect === 'sqlite')
    return { env: { DATABASE_URL: `sqlite:${join(tempDir(), 'restored.db')}`, BLOB_DIR: blobs }, drop: async () => {} };
  const name = `fleet_restore_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(POSTGRES_URL);
  u.pathname = `/${name}`;
  const inside = new pg.Client({ connectionString: u.toString() });
  await inside.connect();
  await inside.query(`create schema if not exists ${schema}`);
  await inside.end();
  u.searchParams.set('options', `-c search_path=${schema}`);
  return {
    env: { DATABASE_URL: u.toString(), BLOB_DIR: blobs },
    async drop() {
      const c = new pg.Client({ connectionString: POSTGRES_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** Runs `fleet …` as its own process, as an operator would: exit code, stdout, stderr. */
async function fleet(args: string[], env: Record<string, string>) {
  const r = await run(args, { ...TEST_ENV, ...env }, { timeoutMs: 120_000 });
  return { code: r.code, out: r.stdout, err: r.stderr };
}

/** Rows in every table. */
async function counts(url: string): Promise<Record<string, number>> {
  const db = openDb(url);
  try {
    const tables = (await db.kysely.introspection.getTables()).map((t) => t.name).sort();
    const out: Record<string, number> = {};
    for (const t of tables)
      out[t] = Number(
        (
          (await db.kysely
            .selectFrom(t as never)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()) as { n: number }
        ).n,
      );
    for (const t of ['kysely_migration', 'kysely_migration_lock']) {
      const r = await db.kysely
        .selectFrom(t as never)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst()
        .catch(() => null);
      if (r) out[t] = Number((r as { n: number }).n);
    }
    return out;
  } finally {
    await db.close();
  }
}

async function seed(db: Db) {
  await migrateToLatest(db);
  const company = await createCompany(db, { name: 'Backup Freight' });
  const key = await createApiKey(db, company.id, 'test');
  const vehicle = await createVehicle(db, { companyId: company.id }, { number: 'T-1' });
  const device = await provisionDevice(
    db,
    { companyId: company.id },
    { identifier: `SN-${randomBytes(4).toString('hex')}`, vehicleId: vehicle.id },
  );
  return { apiKey: key.api_key, token: device.device_token };
}

/** Sends batches of 20 fixes to the server until stopped; counts the batches it accepted. */
function ingest(server: ServerProcess, token: string) {
  let seq = 0;
  let stop = false;
  const state = { accepted: 0, failures: [] as string[], done: Promise.resolve() };
  state.done = (async () => {
    while (!stop) {
      const t0 = Date.now() - 3_600_000;
      const records = Array.from({ length: 20 }, () => ({
        seq: ++seq,
        type: 'location',
        time: new Date(t0 + seq * 1000).toISOString(),
        lat: 39.8,
        lon: -89.6 + seq * 1e-4,
        speed_kph: 50,
      }));
      const res = await fetch(`${server.url}/device/v1/batches`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ records }),
      });
      if (res.status === 200) state.accepted++;
      else state.failures.push(`${res.status} ${await res.text()}`);
    }
  })();
  return { state, stop: async () => ((stop = true), await state.done) };
}

const waitFor = async (what: string, cond: () => boolean, ms = 20_000) => {
  for (const until = Date.now() + ms; !cond(); await new Promise((r) => setTimeout(r, 20)))
    assert.ok(Date.now() < until, `timed out waiting for ${what}`);
};

eachDialect('fleet backup and restore', (dialect) => {
  test('a backup of a server taking device batches restores into a new database with the same rows and documents', async () => {
    const source = await sourcePlace(dialect);
    const target = await newPlace(dialect, schemaOf(source.env.DATABASE_URL));
    let server: ServerProcess | null = null;
    try {
      const db = openDb(source.env.DATABASE_URL);
      const { apiKey, token } = await seed(db);
      await db.close();
      server = await startServer({ ...source.env, TELEMETRY_REORDER_WINDOW_S: '0', WEBHOOK_WORKER: '0' });
      const form = multipart({ name: 'BOL 1' }, [{ name: 'bol.pdf', type: 'application/pdf', data: PDF }]);
      const upload = await fetch(`${server.url}/v1/documents`, {
        method: 'POST',
        headers: { 'x-api-key': apiKey, ...form.headers },
        body: form.payload,
      });
      assert.equal(upload.status, 201, await upload.clone().text());
      const documentId = (await upload.json()).document.id;

      const load = ingest(server, token);
      await waitFor('batches before the backup', () => load.state.accepted >= 5);
      const before = load.state.accepted;
      const file = join(tempDir(), 'fleet.tar.gz');
      const made = await fleet(['backup', '--to', file, '--json'], source.env);
      const during = load.state.accepted;
      await waitFor('batches after the backup', () => load.state.accepted >= during + 5);
      await load.stop();
      assert.equal(made.code, 0, made.err + made.out);
      assert.deepEqual(load.state.failures, []);
      const report = JSON.parse(made.out);

      // The copy is one instant between the first and the last batch: more records than when the
      // backup started, fewer than in the end, and every record of a batch or none of it.
      const stored = report.tables.telemetry_records;
      assert.ok(
        stored >= before * 20 && stored < load.state.accepted * 20,
        `${before * 20} ≤ ${stored} < ${load.state.accepted * 20}`,
      );
      assert.equal(stored % 20, 0);
      assert.deepEqual(report.documents, { files: 1, bytes: PDF.length, missing: [] });
      assert.equal(report.migrations.at(-1), [...report.migrations].sort().at(-1));
      assert.equal(report.database, dialect);

      const restored = await fleet(['restore', '--from', file, '--json'], target.env);
      assert.equal(restored.code, 0, restored.err + restored.out);
      assert.deepEqual(JSON.parse(restored.out).tables, report.tables);
      const now = await counts(target.env.DATABASE_URL);
      for (const [table, n] of Object.entries(report.tables)) assert.equal(now[table], n, table);
      assert.equal(now.companies, 1);

      // An app on the restored database serves the data and the document's file.
      const app = await buildApp(loadConfig({ ...TEST_ENV, LOG_LEVEL: 'silent', WEBHOOK_WORKER: '0', ...target.env }));
      try {
        const file2 = await app.inject({
          url: `/v1/documents/${documentId}/download`,
          headers: { 'x-api-key': apiKey },
        });
        assert.equal(file2.statusCode, 200);
        assert.deepEqual(file2.rawPayload, PDF);
        const vehicles = await app.inject({ url: '/v1/vehicles', headers: { 'x-api-key': apiKey } });
        assert.equal(vehicles.json().vehicles[0].vehicle.number, 'T-1');
      } finally {
        await app.close();
      }
    } finally {
      await server?.stop();
      await target.drop();
      await source.drop();
    }
  });

  test('restore refuses a target that is not empty, and --force replaces it; backup never overwrites a file', async () => {
    const source = await sourcePlace(dialect);
    const target = await newPlace(dialect, schemaOf(source.env.DATABASE_URL));
    try {
      const db = openDb(source.env.DATABASE_URL);
      await seed(db);
      await db.close();
      const file = join(tempDir(), 'fleet.tar.gz');
      assert.equal((await fleet(['backup', '--to', file], source.env)).code, 0);
      const again = await fleet(['backup', '--to', file], source.env);
      assert.deepEqual(
        [again.code, again.err],
        [1, `fleet: ${file} already exists: choose a new file name (a backup never overwrites one)\n`],
      );

      // The target gets a company of its own, and a document file.
      const other = openDb(target.env.DATABASE_URL);
      await migrateToLatest(other);
      await createCompany(other, { name: 'Someone Else' });
      await other.close();
      const refused = await fleet(['restore', '--from', file], target.env);
      assert.equal(refused.code, 1);
      assert.match(
        refused.err,
        /^fleet: the target is not empty \(\d+ tables(, sequences and functions in schema \w+| in \S+restored\.db)\): restore into an empty database, or pass --force to drop what is there first\n$/,
      );
      assert.equal((await counts(target.env.DATABASE_URL)).companies, 1, 'nothing changed');

      const forced = await fleet(['restore', '--from', file, '--force'], target.env);
      assert.equal(forced.code, 0, forced.err);
      assert.match(forced.out, /replaced: +\d+ tables/);
      const db2 = openDb(target.env.DATABASE_URL);
      const names = (await db2.kysely.selectFrom('companies').select('name').execute()).map((r) => r.name);
      await db2.close();
      assert.deepEqual(names, ['Backup Freight']);
    } finally {
      await target.drop();
      await source.drop();
    }
  });

  test('a backup needs --to, a database outside the process, and restores into the same kind of database only', async () => {
    const usage = await fleet(['backup'], { DATABASE_URL: 'sqlite::memory:' });
    assert.equal(usage.code, 2);
    assert.match(usage.err, /--to is required/);
    const memory = await fleet(['backup', '--to', join(tempDir(), 'x.tar.gz')], { DATABASE_URL: 'sqlite::memory:' });
    assert.deepEqual(
      [memory.code, memory.err],
      [
        1,
        'fleet: DATABASE_URL is sqlite::memory:, a database that lives only inside its process: there is nothing to copy or restore into\n',
      ],
    );
    const notBackup = join(tempDir(), 'notes.tar.gz');
    writeFileSync(notBackup, 'hello');
    const wrong = await fleet(['restore', '--from', notBackup], { DATABASE_URL: `sqlite:${join(tempDir(), 'r.db')}` });
    assert.equal(wrong.code, 1);
    assert.match(wrong.err, /is not a backup made by fleet backup/);
    if (dialect !== 'postgres') return;
    const lite = await sourcePlace('sqlite');
    const db = openDb(lite.env.DATABASE_URL);
    await migrateToLatest(db);
    await db.close();
    const file = join(tempDir(), 'lite.tar.gz');
    assert.equal((await fleet(['backup', '--to', file], lite.env)).code, 0);
    const target = await newPlace('postgres', 'public');
    try {
      const cross = await fleet(['restore', '--from', file], target.env);
      assert.equal(cross.code, 1);
      assert.match(
        cross.err,
        /is a sqlite backup and DATABASE_URL names a postgres database: a backup restores into the same kind of database\n$/,
      );
    } finally {
      await target.drop();
    }
  });
});
