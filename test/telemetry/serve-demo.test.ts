/**
 * `fleet serve --demo` and its simulator: trucks of the demo company report through the server's own
 * device API; a restart goes on from where each truck was; a database with someone's own company gets
 * no simulated trucks (no device is put on their vehicles).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withSqliteFile } from '../helper.js';
import { loadConfig } from '../../src/config/index.js';
import { TEST_ENV } from '../test-env.js';
import { serve } from '../../src/server.js';
import { createCompany } from '../../src/domain/companies/service.js';
import type { Db } from '../../src/storage/db.js';

const config = (url: string) =>
  loadConfig({ ...TEST_ENV, DATABASE_URL: url, LOG_LEVEL: 'silent', PORT: '0', WEBHOOK_WORKER: '0' });

async function served(url: string): Promise<{ text: string; close(): Promise<void> }> {
  let text = '';
  const s = await serve(config(url), { demo: true, handleSignals: false, out: (x) => void (text += x) });
  return {
    get text() {
      return text;
    },
    close: () => s.close(),
  };
}

/** Per device, the first and last fix time of its records. */
const spans = (db: Db) =>
  db.kysely
    .selectFrom('telemetry_records')
    .select((eb) => ['device_id', 'vehicle_id', eb.fn.min('fix_time').as('first'), eb.fn.max('fix_time').as('last')])
    .groupBy(['device_id', 'vehicle_id'])
    .execute();

async function until(what: string, check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('serve --demo simulates the demo company, and a restart resumes each truck after its last fix', async () => {
  await withSqliteFile(async (db, url) => {
    const first = await served(url);
    try {
      assert.match(first.text, /Demo: created "Demo Freight Lines"/);
      assert.match(
        first.text,
        /Demo: 8 simulated trucks report through http:\/\/127\.0\.0\.1:\d+\/device\/v1\/batches/,
      );
      // Each truck starts its engine within 20 simulated minutes (20 s at 60×): a few are enough here.
      await until('the first records', async () => (await spans(db)).length >= 2);
    } finally {
      await first.close();
    }
    const before = await spans(db);
    const again = await served(url);
    try {
      assert.match(again.text, /Demo: this database already has the demo company \(company 1 /);
      assert.match(again.text, /Demo: 8 simulated trucks report through/);
      // The trucks that had reported report again, from new devices.
      await until("the second run's records", async () => {
        const now = await spans(db);
        return before.every((b) => now.some((s) => s.vehicle_id === b.vehicle_id && s.device_id !== b.device_id));
      });
    } finally {
      await again.close();
    }
    const after = await spans(db);
    for (const prev of before) {
      const s = after.find((x) => x.vehicle_id === prev.vehicle_id && x.device_id !== prev.device_id)!;
      assert.ok(s.first > prev.last, `vehicle ${s.vehicle_id}: resumed at ${s.first}, after ${prev.last}`);
    }
  });
});

test('serve --demo on a database with a company of its own seeds nothing and simulates nothing', async () => {
  await withSqliteFile(async (db, url) => {
    const company = await createCompany(db, { name: 'Acme Freight' });
    const now = new Date().toISOString();
    await db.kysely
      .insertInto('vehicles')
      .values({ company_id: company.id, number: 'T-1', created_at: now, updated_at: now })
      .execute();
    const s = await served(url);
    try {
      assert.match(
        s.text,
        new RegExp(
          `Demo: this database already has data the demo did not create \\(company ${company.id} \\S+ "Acme Freight"\\); nothing was seeded\\nand no truck is simulated on it\\.`,
        ),
      );
      assert.doesNotMatch(s.text, /simulated trucks? reports?/);
      await new Promise((r) => setTimeout(r, 1500));
      assert.deepEqual(await db.kysely.selectFrom('devices').select('id').execute(), []);
      assert.deepEqual(await db.kysely.selectFrom('telemetry_records').select('id').execute(), []);
    } finally {
      await s.close();
    }
  });
});
