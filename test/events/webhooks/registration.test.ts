/**
 * /v1/company_webhooks (docs/reference/wire.md §7.2, R37–R40): the JSON body real clients send, the bodyless
 * query-string form, form-encoded bodies, partial PUT, DELETE, tenancy, validation and scopes.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { eachDialect } from '../../helper.js';
import { freshPath, useHookApp, useReceiver, type HookApp, type Receiver } from './receiver.js';
import { tokensFor, useOAuthApp, api } from '../../auth/oauth/flows.js';

eachDialect('company_webhooks registration', (dialect) => {
  const getApp = useHookApp(dialect);
  const getReceiver = useReceiver();
  let t: HookApp;
  let r: Receiver;
  before(async () => {
    t = await getApp();
    r = await getReceiver();
  });

  it('JSON body as Pipedream sends it → 201 {"company_webhook": {...}} with the secret kept as given', async () => {
    const path = freshPath();
    const secret = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const res = await t.call({
      method: 'POST',
      url: '/v1/company_webhooks',
      payload: {
        url: r.url + path,
        secret,
        actions: ['hos_violation_upserted', 'user_upserted'],
        format: 'json',
        enabled: true,
        webhook_type: 'POST',
      },
    });
    assert.equal(res.status, 201, res.raw);
    assert.deepEqual(Object.keys(res.body), ['company_webhook']);
    const w = res.body.company_webhook;
    assert.ok(Number.isInteger(w.id));
    assert.deepEqual(
      { ...w, id: 0 },
      {
        id: 0,
        url: r.url + path,
        secret,
        format: 'json',
        actions: ['hos_violation_upserted', 'user_upserted'],
        enabled: true,
        webhook_type: 'POST',
      },
    );
    const got = await t.call({ method: 'GET', url: `/v1/company_webhooks/${w.id}` });
    assert.deepEqual(got.body, { company_webhook: w });
  });

  it('the query-string form of Exspeedite (no body, enabled="true", actions[0]=…) → 201, with X-User-Id', async () => {
    const admin = await t.call({
      method: 'POST',
      url: '/v1/users',
      payload: {
        first_name: 'Ada',
        last_name: 'Admin',
        role: 'admin',
        email: `ada.${dialect}@x.test`,
        password: 'long-enough-passphrase',
      },
    });
    const path = freshPath();
    const qs = `url=${encodeURIComponent(r.url + path)}&secret=8cbd43f98ba1e33c28c9&enabled=true&format=json&actions%5B0%5D=vehicle_location_updated&actions%5B1%5D=user_upserted`;
    for (const headers of [{}, { 'content-type': 'application/json' }]) {
      const res = await t.call({
        method: 'POST',
        url: `/v1/company_webhooks?${qs}`,
        headers: { 'x-user-id': String(admin.body.user.id), ...headers },
      });
      assert.equal(res.status, 201, res.raw);
      assert.match(res.raw, /company_webhook/);
      assert.deepEqual(res.body.company_webhook.actions, ['vehicle_location_updated', 'user_upserted']);
      assert.equal(res.body.company_webhook.enabled, true);
      assert.equal(res.body.company_webhook.secret, '8cbd43f98ba1e33c28c9');
    }
    const notAdmin = await t.call({
      method: 'POST',
      url: `/v1/company_webhooks?${qs}`,
      headers: { 'x-user-id': '999999' },
    });
    assert.equal(notAdmin.status, 403);
  });

  it('a field in both the body and the query string: the body wins; "false" is false and sends no test', async () => {
    const path = freshPath();
    const res = await t.call({
      method: 'POST',
      url: `/v1/company_webhooks?url=${encodeURIComponent(r.url + '/ignored')}&enabled=true&actions=user_upserted,vehicle_upserted`,
      payload: { url: r.url + path, enabled: 'false' },
    });
    assert.equal(res.status, 201, res.raw);
    assert.equal(res.body.company_webhook.url, r.url + path);
    assert.equal(res.body.company_webhook.enabled, false);
    assert.deepEqual(res.body.company_webhook.actions, ['user_upserted', 'vehicle_upserted']);
    assert.equal(r.at(path).length + r.at('/ignored').length, 0, 'no test delivery for a disabled webhook');
  });

  it('a form-encoded body works too; a blank secret is generated (20 characters)', async () => {
    const path = freshPath();
    const form = `url=${encodeURIComponent(r.url + path)}&secret=&actions[]=user_upserted&actions[]=dispatch_upserted&enabled=1`;
    const res = await t.call({
      method: 'POST',
      url: '/v1/company_webhooks',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form,
    });
    assert.equal(res.status, 201, res.raw);
    assert.match(res.body.company_webhook.secret, /^[0-9a-f]{20}$/);
    assert.deepEqual(res.body.company_webhook.actions, ['user_upserted', 'dispatch_upserted']);
    const omitted = await t.call({
      method: 'POST',
      url: '/v1/company_webhooks',
      payload: { url: r.url + path, enabled: false },
    });
    assert.match(omitted.body.company_webhook.secret, /^[0-9a-f]{20}$/);
    assert.notEqual(omitted.body.company_webhook.secret, res.body.company_webhook.secret);
    assert.deepEqual(omitted.body.company_webhook.actions, []);
    assert.equal(omitted.body.company_webhook.webhook_type, null);
  });

  it('GET lists them wrapped and paginated; PUT takes a partial body; DELETE → {"success": true}', async () => {
    const c = await t.newCompany('Listing Co');
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.call({
        as: c,
        method: 'POST',
        url: '/v1/company_webhooks',
        payload: { url: `${r.url}${freshPath()}`, actions: ['user_upserted'] },
      });
      ids.push(res.body.company_webhook.id);
    }
    const page = await t.call({ as: c, method: 'GET', url: '/v1/company_webhooks?per_page=2&page_no=2' });
    assert.deepEqual(Object.keys(page.body), ['company_webhooks', 'pagination']);
    assert.deepEqual(page.body.pagination, { per_page: 2, page_no: 2, total: 3 });
    assert.deepEqual(
      page.body.company_webhooks.map((x: any) => x.company_webhook.id),
      [ids[2]],
    );

    const off = await t.call({
      as: c,
      method: 'PUT',
      url: `/v1/company_webhooks/${ids[0]}`,
      payload: { enabled: false },
    });
    assert.equal(off.status, 200);
    assert.equal(off.body.company_webhook.enabled, false);
    assert.deepEqual(off.body.company_webhook.actions, ['user_upserted'], 'untouched fields stay');
    const acts = await t.call({
      as: c,
      method: 'PUT',
      url: `/v1/company_webhooks/${ids[0]}?actions[0]=vehicle_upserted`,
    });
    assert.deepEqual(acts.body.company_webhook.actions, ['vehicle_upserted']);

    const del = await t.call({ as: c, method: 'DELETE', url: `/v1/company_webhooks/${ids[1]}` });
    assert.deepEqual(del.body, { success: true });
    assert.equal((await t.call({ as: c, method: 'GET', url: `/v1/company_webhooks/${ids[1]}` })).status, 404);
    assert.equal((await t.call({ as: c, method: 'GET', url: '/v1/company_webhooks' })).body.pagination.total, 2);
    const log = await t.call({
      as: c,
      method: 'GET',
      url: `/v1/company_webhook_requests?company_webhook_id=${ids[1]}`,
    });
    assert.equal(log.body.pagination.total, 0, 'its delivery log went with it');
  });

  it("another company's webhook is not found (GET, PUT, DELETE)", async () => {
    const other = await t.newCompany('Other Co');
    const mine = await t.call({
      method: 'POST',
      url: '/v1/company_webhooks',
      payload: { url: `${r.url}${freshPath()}`, enabled: false },
    });
    const id = mine.body.company_webhook.id;
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await t.call({
        as: other,
        method,
        url: `/v1/company_webhooks/${id}`,
        ...(method === 'PUT' ? { payload: { enabled: false } } : {}),
      });
      assert.equal(res.status, 404, method);
      assert.deepEqual(Object.keys(res.body), ['error_message']);
    }
    assert.equal((await t.call({ as: other, method: 'GET', url: '/v1/company_webhooks' })).body.pagination.total, 0);
  });

  it('refuses what cannot work: no url, another scheme, another format or webhook_type, bad action names', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ actions: ['user_upserted'] }, /^url is required$/],
      [{ url: 'ftp://example.com/x' }, /^url must use http or https/],
      [{ url: 'not a url' }, /^url must be an absolute http or https URL/],
      [{ url: `${r.url}/x`, format: 'xml' }, /^format must be one of: json$/],
      [{ url: `${r.url}/x`, webhook_type: 'SQS' }, /^webhook_type must be POST/],
      [{ url: `${r.url}/x`, actions: ['User Upserted'] }, /^actions\[0\] has an invalid format$/],
      [{ url: `${r.url}/x`, enabled: 'maybe' }, /^enabled must be a boolean$/],
    ];
    for (const [payload, message] of cases) {
      const res = await t.call({ method: 'POST', url: '/v1/company_webhooks', payload: payload as object });
      assert.equal(res.status, 400, JSON.stringify(payload));
      assert.match(res.body.error_message, message);
    }
  });
});

eachDialect('company_webhooks scopes', (dialect) => {
  const getApp = useOAuthApp(dialect, { WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_TIMEOUT_MS: '500' });
  const getReceiver = useReceiver();

  it('company_webhooks.manage alone lets a token read and write webhooks and the delivery log; another scope gets 403', async () => {
    const [t, r] = [await getApp(), await getReceiver()];
    const client = await t.newClient({ scopes: ['company_webhooks.manage', 'vehicles.read'] });
    const manage = await tokensFor(t, 'company_webhooks.manage', { client });
    const created = await api(t, manage.access_token, {
      method: 'POST',
      url: '/v1/company_webhooks',
      payload: { url: `${r.url}${freshPath()}`, actions: ['user_upserted'] },
    });
    assert.equal(created.status, 201, created.body);
    for (const url of [
      '/v1/company_webhooks',
      `/v1/company_webhooks/${created.json.company_webhook.id}`,
      '/v1/company_webhook_requests',
    ]) {
      assert.equal((await api(t, manage.access_token, { url })).status, 200, url);
    }
    const other = await tokensFor(t, 'vehicles.read', { client });
    const refused = await api(t, other.access_token, { url: '/v1/company_webhooks' });
    assert.equal(refused.status, 403);
    assert.match(refused.json.error_message, /company_webhooks\.read/);
    assert.equal(
      (
        await api(t, other.access_token, {
          method: 'DELETE',
          url: `/v1/company_webhooks/${created.json.company_webhook.id}`,
        })
      ).status,
      403,
    );
  });
});
