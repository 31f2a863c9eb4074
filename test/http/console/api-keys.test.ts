/**
 * API keys in the console over HTTP: an admin creates a key that is shown once and works on
 * /v1/vehicles, revokes it after a confirmation step and it then answers 401; names are checked;
 * another company's key is not found; a fleet manager gets 403 and changes nothing; CSRF on every form.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachDialect } from '../../helper.js';
import { inputValue, useOAuthApp } from '../../auth/oauth/flows.js';
import { listApiKeys } from '../../../src/auth/api-keys.js';
import { assertAlert } from './manage-helper.js';
import { consoleBrowser } from './kit.js';

eachDialect('console: API keys', (dialect) => {
  const getApp = useOAuthApp(dialect);

  test('create a key, shown once, that reads /v1/vehicles; revoke it after confirming, then 401', async () => {
    const t = await getApp();
    const fleet = await t.newFleet('Keys Co');
    const { b, csrf } = await consoleBrowser(t, fleet.admin.email);
    const vehicles = (key: string) =>
      t.app.inject({ method: 'GET', url: '/v1/vehicles', headers: { 'x-api-key': key } });

    const page = await b.get('/console/api-keys');
    assert.equal(page.status, 200);
    assert.match(page.body, /<a href="\/console\/api-keys" aria-current="page">API keys<\/a>/);
    assert.match(page.body, /<label for="key-name">Name<\/label>/);
    assert.match(page.body, /<th scope="row" data-label="Name">test<\/th>/, 'the key the fixture made');

    const created = await b.post('/console/api-keys', { csrf_token: csrf, name: '  Route planner ' });
    assert.equal(created.status, 201, created.body);
    assert.equal(created.headers['cache-control'], 'no-store');
    const key = /<input id="new-key" [^>]*value="([^"]+)">/.exec(created.body)?.[1];
    assert.match(key!, /^fk_/);
    assert.match(created.body, /You will not see it again/);
    assert.match(
      created.body,
      /<button type="button" data-copy="new-key" data-copy-status="copy-status" hidden>Copy<\/button>/,
    );
    assert.match(created.body, /<script type="module" src="\/console\/assets\/copy.js"><\/script>/);
    const row = new RegExp(
      `<tr data-id="(\\d+)">\\s*<th scope="row" data-label="Name">Route planner</th>\\s*<td data-label="Key" class="code">${key!.slice(0, 7)}…</td>`,
    );
    const id = Number(row.exec(created.body)![1]);
    assert.equal((await vehicles(key!)).statusCode, 200);
    const again = await b.get('/console/api-keys');
    assert.ok(!again.body.includes(key!), 'the key is never shown again');
    assert.ok(row.test(again.body));

    const confirm = await b.get(`/console/api-keys/${id}/revoke`);
    assert.equal(confirm.status, 200);
    assert.match(confirm.body, /<h1 id="confirm-title">Revoke “Route planner”\?<\/h1>/);
    assert.equal((await vehicles(key!)).statusCode, 200, 'opening the confirmation revokes nothing');
    const revoked = await b.post(`/console/api-keys/${id}/revoke`, { csrf_token: csrf });
    assert.equal(revoked.status, 303);
    assert.equal(revoked.headers.location, `/console/api-keys?revoked=${id}`);
    const res = await vehicles(key!);
    assert.equal(res.statusCode, 401);
    assert.equal(res.body, '{"error_message":"invalid API key"}');
    const after = await b.get(revoked.headers.location);
    // The key's first seven characters (a random part that may hold - or _).
    const notice = `<p role="status" class="notice">Revoked “Route planner” (${key!.slice(0, 7)}…): requests with it are refused.</p>`;
    assert.ok(after.body.includes(notice), after.body);
    assert.match(after.body, new RegExp(`<tr data-id="${id}" class="revoked">`));
    assert.doesNotMatch(after.body, new RegExp(`/console/api-keys/${id}/revoke`), 'no Revoke on a revoked key');
    assert.equal((await b.get(`/console/api-keys/${id}/revoke`)).status, 303, 'already revoked');
    assert.equal((await vehicles(fleet.apiKey)).statusCode, 200, 'the other key still works');
  });

  test('a key needs a name; another company’s key is not found; CSRF on every form', async () => {
    const t = await getApp();
    const fleet = await t.newFleet('Careful Co');
    const other = await t.newFleet('Other Keys Co');
    const { b, csrf } = await consoleBrowser(t, fleet.admin.email);
    const keys = async (companyId: number) =>
      (await listApiKeys(t.db, companyId, { revoked: true }, 100, 0)).rows.map((k) => [k.id, k.revoked_at]);
    const before = [await keys(fleet.companyId), await keys(other.companyId)];

    const blank = await b.post('/console/api-keys', { csrf_token: csrf, name: '   ' });
    assert.equal(blank.status, 400);
    assertAlert(blank.body, 'key-error', 'name must not be empty');
    assert.equal(inputValue(blank.body, 'name'), '   ');
    const long = await b.post('/console/api-keys', { csrf_token: csrf, name: 'k'.repeat(256) });
    assert.equal(long.status, 400);
    assertAlert(long.body, 'key-error', 'name must be at most 255 characters long');

    const theirs = (await listApiKeys(t.db, other.companyId, {}, 1, 0)).rows[0].id;
    assert.equal((await b.get(`/console/api-keys/${theirs}/revoke`)).status, 404);
    const denied = await b.post(`/console/api-keys/${theirs}/revoke`, { csrf_token: csrf });
    assert.equal(denied.status, 404);
    assert.match(denied.body, new RegExp(`API key ${theirs} not found`));
    assert.equal((await b.get('/console/api-keys/99999999999/revoke')).status, 404);

    const mine = (await listApiKeys(t.db, fleet.companyId, {}, 1, 0)).rows[0].id;
    for (const [url, form] of [
      ['/console/api-keys', { name: 'forged' }],
      [`/console/api-keys/${mine}/revoke`, {}],
    ] as const) {
      const missing = await b.post(url, form);
      assert.equal(missing.status, 400, url);
      assert.match(missing.body, /missing CSRF token/);
      const wrong = await b.post(url, { ...form, csrf_token: 'x'.repeat(43) });
      assert.equal(wrong.status, 403, url);
      assert.match(wrong.body, /wrong CSRF token/);
    }
    assert.deepEqual([await keys(fleet.companyId), await keys(other.companyId)], before, 'nothing changed');
  });

  test('a fleet manager cannot open or use the API keys pages (403) and changes nothing', async () => {
    const t = await getApp();
    const fleet = await t.newFleet('Managed Co');
    const { b, csrf, page } = await consoleBrowser(t, fleet.manager.email);
    assert.doesNotMatch(page.body, /href="\/console\/api-keys"/, 'no API keys link for a fleet manager');
    assert.match(page.body, /<a href="\/console\/vehicles">Vehicles<\/a>/);
    const key = (await listApiKeys(t.db, fleet.companyId, {}, 1, 0)).rows[0].id;
    const message =
      'Only company admins manage API keys: a key acts as the company&#39;s admin with every scope. Ask an admin of your company for a key.';
    for (const res of [
      await b.get('/console/api-keys'),
      await b.get(`/console/api-keys/${key}/revoke`),
      await b.post('/console/api-keys', { csrf_token: csrf, name: 'mine' }),
      await b.post(`/console/api-keys/${key}/revoke`, { csrf_token: csrf }),
    ]) {
      assert.equal(res.status, 403);
      assert.ok(res.body.includes(`<p class="error" role="alert">${message}</p>`), res.body);
      assert.doesNotMatch(res.body, /fk_/);
    }
    const rows = (await listApiKeys(t.db, fleet.companyId, { revoked: true }, 100, 0)).rows;
    assert.deepEqual(
      rows.map((k) => [k.name, k.revoked_at]),
      [['test', null]],
    );
    assert.equal((await b.get('/console/vehicles')).status, 200, 'vehicles are theirs to manage');
    const signedOut = await t.app.inject({ method: 'GET', url: '/console/api-keys' });
    assert.equal(signedOut.statusCode, 303);
    assert.equal(signedOut.headers.location, '/sign-in?return_to=%2Fconsole%2Fapi-keys');
  });
});
