/** /readyz answers 200 only while the database answers; /healthz only says the process is up. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachDialect, freshDatabase } from '../../helper.js';
import { buildApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config/index.js';
import { TEST_ENV } from '../../test-env.js';
import { openDb } from '../../../src/storage/db.js';

eachDialect('readiness', (dialect) => {
  test('with the database gone, /readyz is 503 and /healthz still 200', async () => {
    const database = await freshDatabase(dialect);
    const db = openDb(database.url, { poolSize: 2 });
    const app = await buildApp(loadConfig({ ...TEST_ENV, DATABASE_URL: database.url, LOG_LEVEL: 'silent' }), { db });
    try {
      assert.deepEqual((await app.inject({ url: '/readyz' })).json(), { status: 'ready' });
      await db.close();
      const ready = await app.inject({ url: '/readyz' });
      assert.equal(ready.statusCode, 503);
      assert.deepEqual(ready.json(), { status: 'database unavailable' });
      assert.equal((await app.inject({ url: '/healthz' })).statusCode, 200);
    } finally {
      await app.close();
      await database.drop();
    }
  });
});
