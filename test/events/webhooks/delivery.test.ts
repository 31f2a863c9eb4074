/**
 * Live deliveries (docs/reference/wire.md §7.4, §7.6, R41): a change made through the API reaches the receiver as
 * the flat wire object, rendered from the event's snapshot (the object as it was at the event), only
 * for subscribed actions, only to the company's own webhooks.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { eachDialect } from '../../helper.js';
import { DISPATCH_V2_KEYS, dispatchBody, world } from '../../domain/dispatch/fixtures.js';
import { registerHook, useHookApp, useReceiver, type HookApp, type Receiver } from './receiver.js';

eachDialect('webhook deliveries', (dialect) => {
  const getApp = useHookApp(dialect);
  const getReceiver = useReceiver();
  let t: HookApp;
  let r: Receiver;
  before(async () => {
    t = await getApp();
    r = await getReceiver();
  });

  it('user_upserted: {action, trigger, …the user object}, as it was at each event, in order', async () => {
    const hook = await registerHook(t, r, ['user_upserted']);
    const created = await t.call({
      method: 'POST',
      url: '/v1/users',
      payload: {
        first_name: 'Ann',
        last_name: 'Lee',
        role: 'driver',
        username: `ann.${dialect}`,
        password: 'long-enough-passphrase',
      },
    });
    const atCreation = (await t.call({ method: 'GET', url: `/v1/users/${created.body.user.id}` })).body.user;
    await t.call({ method: 'PUT', url: `/v1/users/${created.body.user.id}`, payload: { last_name: 'Li' } });
    const summary = await t.run();
    assert.equal(summary.queued, 2);
    const got = r.deliveries(hook.path);
    assert.equal(got.length, 2);
    assert.deepEqual(got[0].body, { action: 'user_upserted', trigger: 'created', ...atCreation });
    assert.deepEqual(Object.keys(got[0].body).slice(0, 3), ['action', 'trigger', 'id']);
    assert.equal(got[1].body.trigger, 'updated');
    assert.equal(got[1].body.last_name, 'Li');
    assert.equal('password_hash' in got[1].body, false);
  });

  it('vehicle_upserted carries the vehicle object with its embedded summaries', async () => {
    const hook = await registerHook(t, r, ['vehicle_upserted']);
    const driver = await t.call({
      method: 'POST',
      url: '/v1/users',
      payload: {
        first_name: 'Dee',
        last_name: 'Driver',
        role: 'driver',
        username: `dee.${dialect}`,
        password: 'long-enough-passphrase',
      },
    });
    const v = await t.call({
      method: 'POST',
      url: '/v1/vehicles',
      payload: { number: 'TRK-7', vin: '1FUJGLDR0CLBP8834', permanent_driver_id: driver.body.user.id },
    });
    const wire = (await t.call({ method: 'GET', url: `/v1/vehicles/${v.body.vehicle.id}` })).body.vehicle;
    await t.run();
    const [d] = r.deliveries(hook.path);
    assert.deepEqual(d.body, { action: 'vehicle_upserted', trigger: 'created', ...wire });
    assert.equal(d.body.permanent_driver.id, driver.body.user.id);
  });

  it('dispatch_upserted carries the dispatch object (v2 shape, with trips)', async () => {
    const hook = await registerHook(t, r, ['dispatch_upserted']);
    const w = await world(t as never);
    const res = await t.call({ method: 'POST', url: '/v1/dispatches', payload: dispatchBody(w) });
    assert.equal(res.status, 201, res.raw);
    await t.run();
    const [d] = r.deliveries(hook.path);
    assert.deepEqual(Object.keys(d.body), ['action', 'trigger', ...DISPATCH_V2_KEYS]);
    assert.equal(d.body.trigger, 'created');
    assert.equal(d.body.id, res.body.dispatch.id);
    assert.equal(d.body.vendor_id, res.body.dispatch.vendor_id);
  });

  it('only subscribed actions, every subscribed webhook once, never another company', async () => {
    const users = await registerHook(t, r, ['user_upserted']);
    const both = await registerHook(t, r, ['vehicle_upserted', 'user_upserted']);
    const other = await t.newCompany('Other Fleet');
    await t.call({
      as: other,
      method: 'POST',
      url: '/v1/users',
      payload: {
        first_name: 'Not',
        last_name: 'Mine',
        role: 'driver',
        username: `notmine.${dialect}`,
        password: 'long-enough-passphrase',
      },
    });
    await t.call({ method: 'POST', url: '/v1/vehicles', payload: { number: 'ONLY-1' } });
    await t.run();
    assert.deepEqual(r.deliveries(users.path), []);
    assert.deepEqual(
      r.deliveries(both.path).map((x) => x.body.action),
      ['vehicle_upserted'],
    );
    const log = await t.call({
      method: 'GET',
      url: `/v1/company_webhook_requests?company_webhook_id=${both.id}&action=vehicle_upserted`,
    });
    assert.equal(log.body.pagination.total, 1);
    const entry = log.body.company_webhook_requests[0].company_webhook_request;
    assert.deepEqual(entry.payload, r.deliveries(both.path)[0].body);
    assert.equal(entry.response_code, 200);
    assert.equal(entry.num_failures, 0);
    assert.equal(entry.status, 'delivered');
    assert.equal(entry.posted_at, new Date(t.clock.now).toISOString().replace('.000', ''));
    assert.equal((await t.run()).attempts, 0, 'nothing is sent twice');
  });

  it('the delivery log filters by webhook, action, response code and time, and pages', async () => {
    const c = await t.newCompany('Log Filters');
    const hook = await registerHook({ ...t, company: c, call: (o) => t.call({ as: c, ...o }) }, r, [
      'vehicle_upserted',
    ]);
    for (let i = 0; i < 3; i++) {
      await t.call({ as: c, method: 'POST', url: '/v1/vehicles', payload: { number: `LOG-${i}` } });
      await t.run();
      t.clock.advance(3600_000);
    }
    const q = async (query: string) =>
      (await t.call({ as: c, method: 'GET', url: `/v1/company_webhook_requests?${query}` })).body;
    assert.equal((await q('')).pagination.total, 4, 'three deliveries and the test');
    assert.equal((await q(`company_webhook_id=${hook.id}&action=vehicle_upserted`)).pagination.total, 3);
    assert.equal((await q('response_code=200')).pagination.total, 4);
    assert.equal((await q('response_code=500')).pagination.total, 0);
    const t1 = new Date(t.clock.now - 2 * 3600_000).toISOString();
    assert.equal((await q(`posted_after=${t1}&action=vehicle_upserted`)).pagination.total, 2);
    assert.equal((await q(`posted_before=${t1}&action=vehicle_upserted`)).pagination.total, 2);
    const page = await q('per_page=1&page_no=2');
    assert.deepEqual(page.pagination, { per_page: 1, page_no: 2, total: 4 });
    assert.deepEqual(Object.keys(page), ['company_webhook_requests', 'pagination']);
    const bad = await t.call({ as: c, method: 'GET', url: '/v1/company_webhook_requests?posted_after=yesterday' });
    assert.equal(bad.status, 400);
  });
});
