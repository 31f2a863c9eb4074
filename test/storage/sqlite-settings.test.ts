/** SQLITE_SYNCHRONOUS: full by default (every commit synced), normal on request, anything else refused. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { TEST_ENV } from '../test-env.js';
import { buildApp } from '../../src/app.js';

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
