/**
 * The secret is never logged (issue 9 §7): a webhook created with its secret in the query string (as
 * Exspeedite does) leaves only `[redacted]` in the access log of a real server process.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { TEST_ENV } from '../../test-env.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redactUrl } from '../../../src/events/webhooks/log-redaction.js';
import { openDb } from '../../../src/storage/db.js';
import { migrateToLatest } from '../../../src/storage/migrate.js';
import { createCompany } from '../../../src/domain/companies/service.js';
import { createApiKey } from '../../../src/auth/api-keys.js';
import { startReceiver } from './receiver.js';
import { nodeScript } from '../../repo.js';

const SERVER = nodeScript(new URL('../../../src/server', import.meta.url).pathname);

describe('secrets in the access log', () => {
  it('redacts secret, password, *_secret and *_token query values, in any array or encoded form', () => {
    assert.equal(
      redactUrl('/v1/company_webhooks?url=x&secret=abc&enabled=true'),
      '/v1/company_webhooks?url=x&secret=[redacted]&enabled=true',
    );
    assert.equal(
      redactUrl('/oauth/token?client_secret=s&refresh_token=r&code=c'),
      '/oauth/token?client_secret=[redacted]&refresh_token=[redacted]&code=c',
    );
    assert.equal(
      redactUrl('/x?%73ecret=abc&password=p&secret[0]=q'),
      '/x?%73ecret=[redacted]&password=[redacted]&secret[0]=[redacted]',
    );
    assert.equal(redactUrl('/v1/users?per_page=5'), '/v1/users?per_page=5');
  });

  it('a real server logs the request without the webhook secret', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fleet-log-'));
    const url = `sqlite:${join(dir, 'fleet.db')}`;
    const receiver = await startReceiver();
    const db = openDb(url);
    await migrateToLatest(db);
    const company = await createCompany(db, { name: 'Log Co' });
    const key = await createApiKey(db, company.id, 'test');
    await db.close();
    const child = spawn(process.execPath, SERVER, {
      env: {
        ...process.env,
        ...TEST_ENV,
        DATABASE_URL: url,
        PORT: '0',
        LOG_LEVEL: 'info',
        WEBHOOK_ALLOW_PRIVATE: '1',
        WEBHOOK_WORKER: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    try {
      const deadline = Date.now() + 60_000;
      while (!/listening on (http:\S+)/.test(out) && Date.now() < deadline && child.exitCode === null)
        await new Promise((r) => setTimeout(r, 50));
      const base = /listening on (http:\S+)/.exec(out)?.[1];
      assert.ok(base, `the server did not start:\n${out}`);
      const secret = 'super-secret-value-4242';
      const res = await fetch(
        `${base}/v1/company_webhooks?url=${encodeURIComponent(`${receiver.url}/hook`)}&secret=${secret}&enabled=true&actions%5B0%5D=user_upserted`,
        {
          method: 'POST',
          headers: { 'x-api-key': key.api_key },
        },
      );
      assert.equal(res.status, 201);
      assert.equal((await res.json()).company_webhook.secret, secret);
      await new Promise((r) => setTimeout(r, 300));
      assert.match(out, /secret=\[redacted\]/, 'the request was logged');
      assert.equal(out.includes(secret), false, 'the secret is not in the log');
    } finally {
      child.kill('SIGTERM');
      await exited;
      await receiver.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
