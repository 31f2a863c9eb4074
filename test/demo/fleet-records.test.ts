/** The demo assets and inspection reports: made through the services, visible through the API. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachDialect, freshDatabase } from '../helper.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import { TEST_ENV } from '../test-env.js';
import { openDb } from '../../src/storage/db.js';
import { seedDemo } from '../../src/demo/seed.js';

eachDialect('assets and inspection reports demo data', (dialect) => {
  test('trailers with external ids and a week of pre-trip reports in every status', async () => {
    const database = await freshDatabase(dialect);
    const db = openDb(database.url, { poolSize: 2 });
    const app = await buildApp(loadConfig({ ...TEST_ENV, DATABASE_URL: database.url, LOG_LEVEL: 'silent' }), { db });
    try {
      const demo = await seedDemo(db, { password: 'demo-password-1' });
      assert.ok(demo.created);
      // seedDemo runs this area's seeder (src/demo/areas.ts); check what it made.
      const get = async (url: string) =>
        (await app.inject({ url, headers: { 'x-api-key': demo.apiKey.api_key } })).json();
      assert.deepEqual(
        (await get('/v1/assets')).assets.map((w: any) => w.asset.name),
        ['TRL-5301', 'TRL-5302', 'TRL-4801'],
      );
      assert.equal(
        (await get('/v1/assets/lookup_by_external_id?external_id=TRL-4801&integration_name=demo_tms')).asset.type,
        'flatbed',
      );
      const reports = (await get('/v1/inspection_reports')).inspection_reports.map((w: any) => w.inspection_report);
      assert.ok(reports.length >= 4, `${reports.length} reports within the default week`);
      for (const s of ['satisfactory', 'unknown', 'corrected', 'harmless'])
        assert.ok(
          reports.some((r: any) => r.status === s),
          s,
        );
      assert.ok(
        reports
          .filter((r: any) => r.status === 'corrected')
          .every((r: any) => r.mechanic !== null && r.mechanic.role === 'admin'),
      );
      assert.equal(
        (await get('/v1/inspection_reports/lookup_by_external_id?external_id=DVIR-1002&integration_name=demo_tms'))
          .inspection_report.defects.length,
        1,
      );
    } finally {
      await app.close();
      await db.close();
      await database.drop();
    }
  });
});
