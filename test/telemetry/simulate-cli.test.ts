/** `fleet simulate` refuses to start without a server to drive, before it provisions anything. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli, withSqliteFile } from '../helper.js';
import { createCompany } from '../../src/domain/companies/service.js';

test('fleet simulate: a bad --url exits 2, an unreachable server exits 1; no device is provisioned or revoked', async () => {
  await withSqliteFile(async (db, url) => {
    const company = await createCompany(db, { name: 'Sim Co' });
    const now = new Date().toISOString();
    await db.kysely.insertInto('vehicles').values({ company_id: company.id, number: 'S1', created_at: now, updated_at: now }).execute();
    const run = (args: string[]) =>
      runCli(['simulate', '--company', String(company.id), '--vehicles', '1', '--duration', '10m', '--speedup', '3600', ...args], { DATABASE_URL: url, LOG_LEVEL: 'silent' });
    const bad = await run(['--url', 'notaurl']);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--url must be an http:\/\/ or https:\/\/ address, got "notaurl"/);
    const down = await run(['--url', 'http://127.0.0.1:9']);
    assert.equal(down.code, 1);
    assert.match(down.err, /no fleet server answers at http:\/\/127\.0\.0\.1:9 \(GET \/healthz: .+\); start one with fleet serve, or pass --url/);
    assert.deepEqual(await db.kysely.selectFrom('devices').select('id').execute(), []);
  });
});
