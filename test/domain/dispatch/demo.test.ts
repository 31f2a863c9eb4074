/** The dispatch demo data: made through the services, in every state, deterministic. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachDialect, freshDatabase } from '../../helper.js';
import { buildApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config/index.js';
import { TEST_ENV } from '../../test-env.js';
import { openDb } from '../../../src/storage/db.js';
import { seedDemo } from '../../../src/demo/seed.js';

eachDialect('dispatch demo data', (dialect) => {
  test('forms, locations, dispatches in every state and form entries for the demo company', async () => {
    const database = await freshDatabase(dialect);
    const db = openDb(database.url, { poolSize: 2 });
    const app = await buildApp(loadConfig({ ...TEST_ENV, DATABASE_URL: database.url, LOG_LEVEL: 'silent' }), { db });
    try {
      const demo = await seedDemo(db, { password: 'demo-password-1' });
      assert.ok(demo.created);
      // seedDemo runs the dispatch seeder (src/demo/areas.ts); check what it made.
      const get = async (url: string) =>
        (await app.inject({ url, headers: { 'x-api-key': demo.apiKey.api_key } })).json();
      const list = (await get('/v1/dispatches')).dispatches.map((w: any) => w.dispatch);
      assert.deepEqual(
        list.map((d: any) => d.status),
        ['completed', 'active', 'planned', 'completed', 'active', 'planned'],
      );
      assert.ok((await get('/v1/forms')).forms.every((w: any) => w.form.external_ids.length === 1));
      const locations = (await get('/v1/dispatch_locations')).dispatch_locations.map((w: any) => w.dispatch_location);
      assert.equal(locations.filter((l: any) => l.lat === null).length, 2, 'two address-only locations');
      assert.equal((await get(`/v1/form_entries?dispatch_ids=${list[0].id}`)).pagination.total, 3);
      assert.equal((await get('/v1/forms')).pagination.total, 3);
      assert.equal(locations.length, 7);
      assert.equal((await get('/v1/form_entries?per_page=100')).pagination.total, 11);
    } finally {
      await app.close();
      await db.close();
      await database.drop();
    }
  });
});
