/**
 * The worker in the server process: off unless started (tests and buildApp), started by serve() when
 * WEBHOOK_WORKER is on, delivering in the background, and stopped by closing the app, which lets the
 * attempt in flight finish and records it. Plus the pure outcome rule, table-driven.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../../src/config/index.js';
import { TEST_ENV } from '../../test-env.js';
import { serve } from '../../../src/server.js';
import { outcomeOf } from '../../../src/events/webhooks/outcome.js';
import { dialects } from '../../helper.js';
import { makeHookApp, registerHook, startReceiver } from './receiver.js';

describe('attempt outcomes', () => {
  const S = [10, 60];
  const cases: Array<[string, number | null, number, object]> = [
    ['200 delivers', 200, 0, { state: 'delivered', numFailures: 0, responseCode: 200, nextAttemptMs: null }],
    ['201 delivers', 201, 0, { state: 'delivered', numFailures: 0, responseCode: 201, nextAttemptMs: null }],
    ['403 rejects at once', 403, 1, { state: 'rejected', numFailures: 1, responseCode: 403, nextAttemptMs: null }],
    [
      '500 retries after the first delay',
      500,
      0,
      { state: 'pending', numFailures: 1, retryStep: 1, nextAttemptMs: 1000 + 10_000 },
    ],
    ['204 retries (only 200/201 count)', 204, 1, { state: 'pending', retryStep: 2, nextAttemptMs: 1000 + 60_000 }],
    ['no answer retries', null, 0, { state: 'pending', responseCode: null }],
    ['after the last delay, failed', 502, 2, { state: 'failed', numFailures: 1, retryStep: 2, nextAttemptMs: null }],
  ];
  for (const [name, status, step, expected] of cases) {
    it(name, () => {
      const o = outcomeOf({ numFailures: 0, retryStep: step }, status, 1000, S);
      for (const [k, v] of Object.entries(expected))
        assert.deepEqual((o as unknown as Record<string, unknown>)[k], v, k);
    });
  }
});

for (const dialect of dialects()) {
  describe(`the background worker [${dialect}]`, () => {
    it('is off until started; started, it delivers; closing the app finishes and records the attempt in flight', async () => {
      const t = await makeHookApp(dialect, { WEBHOOK_POLL_MS: '20' });
      const r = await startReceiver();
      try {
        const hook = await registerHook(t, r, ['vehicle_upserted']);
        await t.call({ method: 'POST', url: '/v1/vehicles', payload: { number: 'BG-1' } });
        await new Promise((res) => setTimeout(res, 150));
        assert.equal(r.deliveries(hook.path).length, 0, 'not started: nothing delivered');
        assert.equal(t.app.webhooks.worker.isRunning, false);
        t.app.webhooks.start();
        for (let i = 0; i < 200 && r.deliveries(hook.path).length === 0; i++)
          await new Promise((res) => setTimeout(res, 20));
        assert.equal(r.deliveries(hook.path).length, 1);
        await assert.rejects(() => t.app.webhooks.worker.runOnce(), /stopped worker/);

        r.respond = () => ({ status: 200, delayMs: 300 });
        await t.call({ method: 'POST', url: '/v1/vehicles', payload: { number: 'BG-2' } });
        for (let i = 0; i < 200 && r.deliveries(hook.path).length < 2; i++)
          await new Promise((res) => setTimeout(res, 10));
        await t.app.close();
        assert.equal(t.app.webhooks.worker.isRunning, false);
        const rows = await t.db.kysely
          .selectFrom('company_webhook_requests')
          .select(['state', 'action'])
          .where('company_webhook_id', '=', hook.id)
          .execute();
        assert.deepEqual(
          rows.filter((x) => x.action === 'vehicle_upserted').map((x) => x.state),
          ['delivered', 'delivered'],
        );
      } finally {
        await t.close();
        await r.close();
      }
    });
  });
}

describe('serve() and WEBHOOK_WORKER', () => {
  it('the server starts the worker when WEBHOOK_WORKER is on (the default) and not when it is 0', async () => {
    for (const [flag, running] of [
      ['1', true],
      ['0', false],
    ] as const) {
      const config = loadConfig({
        ...TEST_ENV,
        DATABASE_URL: 'sqlite::memory:',
        LOG_LEVEL: 'silent',
        PORT: '0',
        WEBHOOK_WORKER: flag,
      });
      const s = await serve(config, { handleSignals: false, out: () => {} });
      try {
        assert.equal(s.app.webhooks.worker.isRunning, running);
      } finally {
        await s.close();
      }
      assert.equal(s.app.webhooks.worker.isRunning, false);
    }
  });
});
