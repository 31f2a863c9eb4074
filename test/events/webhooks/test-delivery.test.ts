/**
 * The test delivery (docs/reference/wire.md §7.8, R42): sent when a webhook is created enabled, enabled again, or
 * its url or secret changes while enabled; only 200 or 201 leaves it enabled; a failed test still
 * answers 201 / 200, with enabled false. The attempt shows in the delivery log as action `test`.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { eachDialect } from '../../helper.js';
import { verifySha1 } from '../../../src/events/webhooks/signature.js';
import { freshPath, useHookApp, useReceiver, type HookApp, type Receiver } from './receiver.js';

eachDialect('webhook test delivery', (dialect) => {
  const getApp = useHookApp(dialect, { WEBHOOK_TIMEOUT_MS: '300' });
  const getReceiver = useReceiver();
  let t: HookApp;
  let r: Receiver;
  const statusFor = new Map<string, number | 'slow'>();
  before(async () => {
    t = await getApp();
    r = await getReceiver();
    r.respond = (req) => {
      const s = statusFor.get(req.path);
      return s === 'slow'
        ? { status: 200, delayMs: 900 }
        : s === 302
          ? { status: 302, headers: { location: `/elsewhere${req.path}` } }
          : { status: s ?? 200 };
    };
  });

  const create = async (path: string, extra: object = {}) => {
    const res = await t.call({
      method: 'POST',
      url: '/v1/company_webhooks',
      payload: { url: r.url + path, actions: ['user_upserted'], ...extra },
    });
    assert.equal(res.status, 201, res.raw);
    return res.body.company_webhook;
  };
  const testLog = async (id: number) =>
    (
      await t.call({ method: 'GET', url: `/v1/company_webhook_requests?company_webhook_id=${id}&action=test` })
    ).body.company_webhook_requests.map((x: any) => x.company_webhook_request);

  it('created enabled: a signed test with the action names; 200 and 201 enable it', async () => {
    for (const status of [200, 201]) {
      const path = freshPath();
      statusFor.set(path, status);
      const w = await create(path);
      assert.equal(w.enabled, true);
      const [req] = r.at(path);
      assert.deepEqual(req.body, ['user_upserted']);
      assert.ok(verifySha1(req.raw, w.secret, String(req.headers['x-kt-webhook-signature'])));
      const [entry] = await testLog(w.id);
      assert.deepEqual(
        { ...entry, id: 0 },
        {
          id: 0,
          company_webhook_id: w.id,
          action: 'test',
          url: r.url + path,
          secret: w.secret,
          format: 'json',
          payload: { action: 'test', actions: ['user_upserted'] },
          response_code: status,
          num_failures: 0,
          posted_at: new Date(t.clock.now).toISOString().replace('.000', ''),
          status: 'delivered',
          next_attempt_at: null,
        },
      );
    }
  });

  it('any other answer (204, 403, 500, a redirect, a timeout, a refused connection) → 201 with enabled false', async () => {
    for (const answer of [204, 403, 500, 302, 'slow'] as const) {
      const path = freshPath();
      statusFor.set(path, answer);
      const started = Date.now();
      const w = await create(path);
      assert.equal(w.enabled, false, String(answer));
      const [entry] = await testLog(w.id);
      assert.equal(entry.response_code, answer === 'slow' ? null : answer);
      assert.equal(entry.num_failures, 1);
      assert.equal(entry.status, answer === 403 ? 'rejected' : 'failed');
      if (answer === 'slow') assert.ok(Date.now() - started < 900, 'the timeout cut the test short');
    }
    assert.equal(r.received.filter((x) => x.path.startsWith('/elsewhere')).length, 0, 'no redirect followed');
    const refused = await t.call({
      method: 'POST',
      url: '/v1/company_webhooks',
      payload: { url: 'http://127.0.0.1:9/closed', actions: ['user_upserted'] },
    });
    assert.equal(refused.status, 201);
    assert.equal(refused.body.company_webhook.enabled, false);
  });

  it('a disabled webhook gets no deliveries; enabling it tests it first, then events flow', async () => {
    const path = freshPath();
    const w = await create(path, { enabled: false });
    assert.equal(r.at(path).length, 0);
    await t.call({
      method: 'POST',
      url: '/v1/users',
      payload: {
        first_name: 'Off',
        last_name: 'Line',
        role: 'driver',
        username: `off.${dialect}`,
        password: 'long-enough-passphrase',
      },
    });
    await t.run();
    assert.equal(r.at(path).length, 0, 'nothing while disabled');

    statusFor.set(path, 500);
    const failed = await t.call({ method: 'PUT', url: `/v1/company_webhooks/${w.id}`, payload: { enabled: true } });
    assert.equal(failed.status, 200);
    assert.equal(failed.body.company_webhook.enabled, false);
    statusFor.set(path, 200);
    const on = await t.call({ method: 'PUT', url: `/v1/company_webhooks/${w.id}?enabled=true` });
    assert.equal(on.body.company_webhook.enabled, true);
    assert.equal(r.at(path).length, 2, 'one test per attempt to enable');

    await t.call({
      method: 'PUT',
      url: `/v1/company_webhooks/${w.id}`,
      payload: { enabled: true, actions: ['user_upserted', 'vehicle_upserted'] },
    });
    assert.equal(r.at(path).length, 2, 'already enabled, same url and secret: no test');
    await t.call({ method: 'POST', url: '/v1/vehicles', payload: { number: `ON-${dialect}` } });
    await t.run();
    assert.deepEqual(
      r.deliveries(path).map((x) => x.body.action),
      ['vehicle_upserted'],
    );
  });

  it('a new url or secret is tested (signed with the new secret); failing it disables the webhook', async () => {
    const first = freshPath();
    const w = await create(first);
    const second = freshPath();
    const moved = await t.call({
      method: 'PUT',
      url: `/v1/company_webhooks/${w.id}`,
      payload: { url: r.url + second },
    });
    assert.equal(moved.body.company_webhook.enabled, true);
    assert.equal(r.at(second).length, 1);

    const rotated = await t.call({
      method: 'PUT',
      url: `/v1/company_webhooks/${w.id}`,
      payload: { secret: 'a-brand-new-secret' },
    });
    assert.equal(rotated.body.company_webhook.secret, 'a-brand-new-secret');
    const [, test2] = r.at(second);
    assert.ok(verifySha1(test2.raw, 'a-brand-new-secret', String(test2.headers['x-kt-webhook-signature'])));

    const blank = await t.call({ method: 'PUT', url: `/v1/company_webhooks/${w.id}`, payload: { secret: '' } });
    assert.match(blank.body.company_webhook.secret, /^[0-9a-f]{20}$/, 'a blank secret is replaced by a generated one');
    assert.equal(r.at(second).length, 3);

    const broken = freshPath();
    statusFor.set(broken, 500);
    const bad = await t.call({ method: 'PUT', url: `/v1/company_webhooks/${w.id}`, payload: { url: r.url + broken } });
    assert.equal(bad.status, 200);
    assert.equal(bad.body.company_webhook.enabled, false);
    assert.equal(bad.body.company_webhook.url, r.url + broken);
  });

  it('queued deliveries of a webhook disabled by a failed test wait for it; events while it is off are not queued', async () => {
    const path = freshPath();
    const w = await create(path);
    statusFor.set(path, 500);
    const user = await t.call({
      method: 'POST',
      url: '/v1/users',
      payload: {
        first_name: 'Wait',
        last_name: 'Ing',
        role: 'driver',
        username: `wait.${dialect}`,
        password: 'long-enough-passphrase',
      },
    });
    await t.run();
    assert.equal(r.deliveries(path).length, 1, 'first attempt failed: a retry is queued');
    await t.call({ method: 'PUT', url: `/v1/company_webhooks/${w.id}`, payload: { secret: 'rotated-secret' } });
    assert.equal(
      (await t.call({ method: 'GET', url: `/v1/company_webhooks/${w.id}` })).body.company_webhook.enabled,
      false,
    );
    await t.call({ method: 'PUT', url: `/v1/users/${user.body.user.id}`, payload: { last_name: 'Ed' } });
    t.clock.advance(60_000);
    await t.run();
    assert.equal(r.deliveries(path).length, 1, 'disabled: nothing goes out');
    statusFor.set(path, 200);
    await t.call({ method: 'PUT', url: `/v1/company_webhooks/${w.id}`, payload: { enabled: true } });
    await t.run();
    const got = r.deliveries(path);
    assert.equal(got.length, 2, 'the queued retry went out; the update made while disabled was not queued');
    assert.equal(got[1].body.last_name, 'Ing');
    assert.ok(
      verifySha1(got[1].raw, 'rotated-secret', String(got[1].headers['x-kt-webhook-signature'])),
      'signed with the current secret',
    );
  });
});
