/**
 * Receiver answers, timeouts and retries (docs/reference/wire.md §7.7, R43, R44): 200/201 delivered; 403 rejected
 * and never retried; anything else retried at 10 s, 1 min, 5 min, 10 min, 1 h, 1 h, 1 h, 1 day, then
 * failed; identical bytes every attempt; a manual retry; the schedule followed on a controllable clock.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eachDialect } from '../../helper.js';
import { loadConfig } from '../../../src/config/index.js';
import { DEFAULT_RETRY_SCHEDULE_S } from '../../../src/events/webhooks/settings.js';
import { registerHook, useHookApp, useReceiver, type HookApp, type Receiver } from './receiver.js';

describe('webhook delivery settings', () => {
  it('by default the receiver has 3 s and the 2017 schedule applies; both are configurable', () => {
    const d = loadConfig({}).webhooks;
    assert.equal(d.timeoutMs, 3000);
    assert.deepEqual(d.retryScheduleS, [10, 60, 300, 600, 3600, 3600, 3600, 86_400]);
    assert.deepEqual(DEFAULT_RETRY_SCHEDULE_S, d.retryScheduleS);
    assert.equal(d.allowPrivate, false);
    assert.equal(d.worker, true);
    assert.equal(d.testBody, 'actions');
    const c = loadConfig({
      WEBHOOK_TIMEOUT_MS: '200',
      WEBHOOK_RETRY_SCHEDULE_S: '1, 2',
      WEBHOOK_TEST_BODY: 'legacy',
      WEBHOOK_WORKER: '0',
    }).webhooks;
    assert.deepEqual([c.timeoutMs, c.retryScheduleS, c.testBody, c.worker], [200, [1, 2], 'legacy', false]);
    assert.throws(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE_S: '10,soon' }), /WEBHOOK_RETRY_SCHEDULE_S/);
    assert.throws(() => loadConfig({ WEBHOOK_TIMEOUT_MS: '5000', WEBHOOK_LEASE_MS: '6000' }), /WEBHOOK_LEASE_MS/);
  });
});

eachDialect('webhook retries', (dialect) => {
  const getApp = useHookApp(dialect, { WEBHOOK_TIMEOUT_MS: '200' });
  const getReceiver = useReceiver();
  let t: HookApp;
  let r: Receiver;
  const plan = new Map<string, Array<number | 'slow'>>();
  before(async () => {
    t = await getApp();
    r = await getReceiver();
    r.respond = (req, n) => {
      if (Array.isArray(req.body)) return { status: 200 }; // test deliveries
      const answers = plan.get(req.path) ?? [];
      const a = answers[Math.min(n - 1, answers.length - 1)] ?? 200;
      return a === 'slow' ? { status: 200, delayMs: 600 } : { status: a };
    };
  });

  const vehicleEvent = (n: string) =>
    t.call({ method: 'POST', url: '/v1/vehicles', payload: { number: `${n}-${dialect}` } });
  const logOf = async (hookId: number) =>
    (
      await t.call({
        method: 'GET',
        url: `/v1/company_webhook_requests?company_webhook_id=${hookId}&action=vehicle_upserted`,
      })
    ).body.company_webhook_requests.map((x: any) => x.company_webhook_request);

  it('a failing receiver is retried on the schedule, with the same bytes, and the delivery ends failed', async () => {
    const hook = await registerHook(t, r, ['vehicle_upserted']);
    plan.set(hook.path, [500]);
    await vehicleEvent('RETRY');
    const start = t.clock.now;
    await t.run();
    let [entry] = await logOf(hook.id);
    assert.deepEqual([entry.status, entry.num_failures, entry.response_code], ['pending', 1, 500]);
    let due = start;
    for (const [i, delayS] of DEFAULT_RETRY_SCHEDULE_S.entries()) {
      due += delayS * 1000;
      assert.equal(entry.next_attempt_at, new Date(due).toISOString().replace('.000', ''), `retry ${i + 1}`);
      t.clock.now = due - 1000;
      assert.equal((await t.run()).attempts, 0, `not before retry ${i + 1} is due`);
      t.clock.now = due;
      assert.equal((await t.run()).attempts, 1, `retry ${i + 1} at +${delayS} s`);
      [entry] = await logOf(hook.id);
      assert.equal(entry.num_failures, i + 2);
    }
    assert.deepEqual([entry.status, entry.num_failures, entry.next_attempt_at], ['failed', 9, null]);
    t.clock.advance(30 * 86_400_000);
    assert.equal((await t.run()).attempts, 0, 'failed is final');
    const sent = r.deliveries(hook.path);
    assert.equal(sent.length, 9, '8 retries, 9 attempts in all');
    assert.ok(
      sent.every((s) => s.raw.equals(sent[0].raw)),
      'every attempt sends the same bytes',
    );
    assert.ok(sent.every((s) => s.headers['x-kt-webhook-signature'] === sent[0].headers['x-kt-webhook-signature']));
  });

  it('403 is rejected and never retried; 201 is delivered; a retry that succeeds ends delivered', async () => {
    const rejected = await registerHook(t, r, ['vehicle_upserted']);
    const created = await registerHook(t, r, ['vehicle_upserted']);
    const flaky = await registerHook(t, r, ['vehicle_upserted']);
    plan.set(rejected.path, [403]);
    plan.set(created.path, [201]);
    plan.set(flaky.path, [503, 200]);
    await vehicleEvent('ANSWERS');
    await t.run();
    t.clock.advance(86_400_000 * 2);
    await t.run();
    t.clock.advance(86_400_000 * 2);
    await t.run();
    const one = async (id: number) => (await logOf(id)).at(-1);
    const rej = await one(rejected.id);
    assert.deepEqual(
      [rej.status, rej.response_code, rej.num_failures, rej.next_attempt_at],
      ['rejected', 403, 1, null],
    );
    assert.equal(r.deliveries(rejected.path).length, 1);
    assert.deepEqual([(await one(created.id)).status, (await one(created.id)).response_code], ['delivered', 201]);
    const f = await one(flaky.id);
    assert.deepEqual([f.status, f.response_code, f.num_failures], ['delivered', 200, 1]);
    assert.equal(r.deliveries(flaky.path).length, 2);
  });

  it('a receiver slower than the timeout (200 ms here) is a failed attempt, retried', async () => {
    const hook = await registerHook(t, r, ['vehicle_upserted']);
    plan.set(hook.path, ['slow', 200]);
    await vehicleEvent('SLOW');
    const began = Date.now();
    await t.run();
    assert.ok(Date.now() - began < 550, 'the attempt was cut at the timeout');
    const [entry] = await logOf(hook.id);
    assert.deepEqual([entry.status, entry.response_code, entry.num_failures], ['pending', null, 1]);
    t.clock.advance(10_000);
    await t.run();
    assert.equal((await logOf(hook.id))[0].status, 'delivered');
  });

  it('a refused connection is retried like any failure', async () => {
    const hook = await registerHook(t, r, ['vehicle_upserted']);
    await t.call({ method: 'PUT', url: `/v1/company_webhooks/${hook.id}`, payload: { actions: ['vehicle_upserted'] } });
    await t.db.kysely
      .updateTable('company_webhooks')
      .set({ url: 'http://127.0.0.1:9/closed' })
      .where('id', '=', hook.id)
      .execute();
    await vehicleEvent('REFUSED');
    await t.run();
    const [entry] = await logOf(hook.id);
    assert.deepEqual(
      [entry.status, entry.response_code, entry.num_failures, entry.url],
      ['pending', null, 1, 'http://127.0.0.1:9/closed'],
    );
  });

  it('POST /v1/company_webhook_requests/retry queues deliveries again → {"success": true}; unknown ids are 404', async () => {
    const hook = await registerHook(t, r, ['vehicle_upserted']);
    plan.set(hook.path, [403, 200]);
    await vehicleEvent('MANUAL');
    await t.run();
    const [entry] = await logOf(hook.id);
    assert.equal(entry.status, 'rejected');
    const res = await t.call({
      method: 'POST',
      url: '/v1/company_webhook_requests/retry',
      payload: { ids: [entry.id] },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { success: true });
    await t.run();
    const [after] = await logOf(hook.id);
    assert.deepEqual([after.status, after.response_code, after.num_failures], ['delivered', 200, 1]);
    const viaQuery = await t.call({ method: 'POST', url: `/v1/company_webhook_requests/retry?ids[]=${entry.id}` });
    assert.deepEqual(viaQuery.body, { success: true });
    const other = await t.newCompany('Not Yours');
    const notFound = await t.call({
      as: other,
      method: 'POST',
      url: '/v1/company_webhook_requests/retry',
      payload: { ids: [entry.id] },
    });
    assert.equal(notFound.status, 404);
    const missing = await t.call({ method: 'POST', url: '/v1/company_webhook_requests/retry' });
    assert.equal(missing.status, 400);
  });
});

eachDialect('webhook retries on a configured schedule', (dialect) => {
  const getApp = useHookApp(dialect, { WEBHOOK_RETRY_SCHEDULE_S: '1,2' });
  const getReceiver = useReceiver();

  it('WEBHOOK_RETRY_SCHEDULE_S=1,2: three attempts, one and two seconds apart, then failed', async () => {
    const [t, r] = [await getApp(), await getReceiver()];
    r.respond = (req) => (Array.isArray(req.body) ? { status: 200 } : { status: 500 });
    const hook = await registerHook(t, r, ['vehicle_upserted']);
    await t.call({ method: 'POST', url: '/v1/vehicles', payload: { number: 'SCHED-1' } });
    for (const step of [0, 1000, 2000, 10_000]) {
      t.clock.advance(step);
      await t.run();
    }
    assert.equal(r.deliveries(hook.path).length, 3);
    const log = await t.call({
      method: 'GET',
      url: `/v1/company_webhook_requests?company_webhook_id=${hook.id}&action=vehicle_upserted`,
    });
    assert.deepEqual(
      log.body.company_webhook_requests.map((x: any) => [
        x.company_webhook_request.status,
        x.company_webhook_request.num_failures,
      ]),
      [['failed', 3]],
    );
  });
});
