/** SQLite settings: SQLITE_SYNCHRONOUS (full by default, normal on request, anything else refused) and the log's checkpoint interval. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { TEST_ENV } from '../test-env.js';
import { buildApp } from '../../src/app.js';
import { openDb, WAL_AUTOCHECKPOINT_PAGES } from '../../src/storage/db.js';

test('SQLITE_SYNCHRONOUS: full by default, normal when asked, a clear error otherwise; the server opens SQLite with it', async () => {
  assert.equal(loadConfig({}).sqliteSynchronous, 'full');
  assert.equal(loadConfig({ SQLITE_SYNCHRONOUS: 'normal' }).sqliteSynchronous, 'normal');
  assert.throws(
    () => loadConfig({ SQLITE_SYNCHRONOUS: 'off' }),
    (err: Error) =>
      err instanceof ConfigError && err.message === 'SQLITE_SYNCHRONOUS must be one of full, normal, got "off"',
  );
  const dir = mkdtempSync(join(tmpdir(), 'fleet-sync-'));
  try {
    // PRAGMA synchronous answers 2 for FULL and 1 for NORMAL.
    for (const [setting, level] of [
      [undefined, 2],
      ['normal', 1],
    ] as const) {
      const app = await buildApp(
        loadConfig({
          ...TEST_ENV,
          DATABASE_URL: `sqlite:${join(dir, `${setting ?? 'default'}.db`)}`,
          LOG_LEVEL: 'silent',
          ...(setting ? { SQLITE_SYNCHRONOUS: setting } : {}),
        }),
      );
      try {
        const conn = app.db.sqliteStatement!('PRAGMA synchronous');
        assert.deepEqual(conn.get(), { synchronous: level });
      } finally {
        await app.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('SQLite copies its write-ahead log into the database file every 4,000 pages, not every 1,000', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-wal-'));
  const db = openDb(`sqlite:${join(dir, 'wal.db')}`);
  try {
    const stmt = db.sqliteStatement!;
    assert.deepEqual(stmt('PRAGMA wal_autocheckpoint').get(), { wal_autocheckpoint: WAL_AUTOCHECKPOINT_PAGES });
    stmt('create table filler (x blob)').run();
    // 700 commits of a 3 kB row each: a few pages of log per commit, past SQLite's default of 1,000.
    const insert = stmt('insert into filler (x) values (?)');
    for (let i = 0; i < 700; i++) insert.run(Buffer.alloc(3000, i % 251));
    const { log } = stmt('PRAGMA wal_checkpoint(PASSIVE)').get() as { log: number };
    assert.ok(log > 1000 && log <= WAL_AUTOCHECKPOINT_PAGES, `the log held ${log} pages when checkpointed by hand`);
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
