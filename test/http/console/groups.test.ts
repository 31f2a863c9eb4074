/**
 * Groups in the console over HTTP: create (an empty name refused with the API's message), rename, add
 * and remove vehicles and users, delete after a confirmation — each change read back through
 * /v1/groups; what a fleet manager and a group-limited fleet manager may do; CSRF on every form.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachDialect } from '../../helper.js';
import { useOAuthApp } from '../../auth/oauth/flows.js';
import { apiRefusal, assertAlert, consoleAndApi, createGroup, type Api, limitedManager } from './manage-helper.js';
import { consoleBrowser } from './kit.js';

const groupIdOf = (location: string) => Number(/^\/console\/groups\/(\d+)\?done=created$/.exec(location)![1]);

async function members(api: Api, id: number, kind: 'vehicles' | 'users'): Promise<number[]> {
  const res = await api.call({ method: 'GET', url: `/v1/groups/${id}/${kind}` });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body[kind].map((x: any) => (kind === 'vehicles' ? x.vehicle.id : x.user.id));
}

eachDialect('console: groups', (dialect) => {
  const getApp = useOAuthApp(dialect);

  test('an admin creates, renames, fills, empties and deletes a group; the API reads every change', async () => {
    const t = await getApp();
    const fleet = await t.newFleet('Group Freight');
    const { b, csrf, api } = await consoleAndApi(t, fleet, fleet.admin.email);
    const truck = (await api.call({ method: 'POST', url: '/v1/vehicles', payload: { number: 'G-1' } })).body.vehicle.id;

    const list = await b.get('/console/groups');
    assert.equal(list.status, 200);
    assert.match(list.body, /<a href="\/console\/groups" aria-current="page">Groups<\/a>/);
    assert.match(list.body, /No groups/);

    const empty = await b.post('/console/groups', { csrf_token: csrf, name: '  ' });
    const apiEmpty = await apiRefusal(api, 'POST', '/v1/groups', { name: '  ' });
    assert.deepEqual([empty.status, apiEmpty.status], [400, 400]);
    assertAlert(empty.body, 'group-error', apiEmpty.message);
    const long = await b.post('/console/groups', { csrf_token: csrf, name: 'x'.repeat(256) });
    assertAlert(
      long.body,
      'group-error',
      (await apiRefusal(api, 'POST', '/v1/groups', { name: 'x'.repeat(256) })).message,
    );

    const created = await b.post('/console/groups', { csrf_token: csrf, name: 'Dallas terminal' });
    assert.equal(created.status, 303, created.body);
    const id = groupIdOf(created.headers.location);
    const g = (await api.call({ method: 'GET', url: `/v1/groups/${id}` })).body.group;
    assert.deepEqual([g.name, g.parent_id, g.user.id], ['Dallas terminal', null, fleet.admin.id]);

    assert.equal((await b.post(`/console/groups/${id}`, { csrf_token: csrf, name: 'Dallas' })).status, 303);
    assert.equal((await api.call({ method: 'GET', url: `/v1/groups/${id}` })).body.group.name, 'Dallas');

    assert.equal(
      (await b.post(`/console/groups/${id}/vehicles`, { csrf_token: csrf, ids: String(truck) })).status,
      303,
    );
    assert.equal(
      (await b.post(`/console/groups/${id}/users`, { csrf_token: csrf, ids: String(fleet.driver.id) })).status,
      303,
    );
    assert.deepEqual(await members(api, id, 'vehicles'), [truck]);
    assert.deepEqual(await members(api, id, 'users'), [fleet.driver.id]);
    const page = await b.get(`/console/groups/${id}`);
    assert.match(page.body, /<h2 id="vehicles-title">Vehicles \(1\)<\/h2>/);
    assert.match(page.body, /aria-label="Take G-1 out of Dallas"/);
    assert.match((await b.get('/console/groups')).body, /<td data-label="Vehicles" class="num">1<\/td>/);

    // Nothing chosen: the API's message for an empty ids list.
    const none = await b.post(`/console/groups/${id}/vehicles`, { csrf_token: csrf, ids: '' });
    const apiNone = await apiRefusal(api, 'POST', `/v1/groups/${id}/vehicles`, { ids: [] });
    assert.equal(none.status, apiNone.status);
    assertAlert(none.body, 'vehicles-error', apiNone.message);

    assert.equal(
      (await b.post(`/console/groups/${id}/vehicles/remove`, { csrf_token: csrf, ids: String(truck) })).status,
      303,
    );
    assert.deepEqual(await members(api, id, 'vehicles'), []);

    const confirm = await b.get(`/console/groups/${id}/delete`);
    assert.match(confirm.body, /<h1 id="confirm-title">Delete Dallas\?<\/h1>/);
    assert.equal((await b.post(`/console/groups/${id}/delete`, {})).status, 400, 'no CSRF token');
    assert.equal((await api.call({ method: 'GET', url: `/v1/groups/${id}` })).status, 200);
    const deleted = await b.post(`/console/groups/${id}/delete`, { csrf_token: csrf });
    assert.equal(deleted.headers.location, '/console/groups?done=deleted');
    assert.equal((await api.call({ method: 'GET', url: `/v1/groups/${id}` })).status, 404);
    assert.equal((await api.call({ method: 'GET', url: `/v1/users/${fleet.driver.id}` })).status, 200);
  });

  test('a fleet manager fills groups with vehicles and drivers; managers and deletion are for admins', async () => {
    const t = await getApp();
    const fleet = await t.newFleet('Group Managers Co');
    const { b, csrf, api } = await consoleAndApi(t, fleet, fleet.manager.email);
    const created = await b.post('/console/groups', { csrf_token: csrf, name: 'Yard' });
    assert.equal(created.status, 303);
    const id = groupIdOf(created.headers.location);
    assert.equal(
      (await b.post(`/console/groups/${id}/users`, { csrf_token: csrf, ids: String(fleet.driver.id) })).status,
      303,
    );
    const manager = await b.post(`/console/groups/${id}/users`, { csrf_token: csrf, ids: String(fleet.admin.id) });
    assert.equal(manager.status, 403);
    assertAlert(manager.body, 'users-error', 'Only admins put admins and fleet managers in groups or take them out.');
    assert.deepEqual(await members(api, id, 'users'), [fleet.driver.id]);
    assert.equal((await b.get(`/console/groups/${id}/delete`)).status, 403);
    assert.equal((await b.post(`/console/groups/${id}/delete`, { csrf_token: csrf })).status, 403);
    assert.equal((await api.call({ method: 'GET', url: `/v1/groups/${id}` })).status, 200);
  });

  test('a group-limited fleet manager sees their own groups and changes none', async () => {
    const t = await getApp();
    const fleet = await t.newFleet('Group Limited Co');
    const { api } = await consoleAndApi(t, fleet, fleet.admin.email);
    const [mine, theirs] = [await createGroup(api, 'Mine'), await createGroup(api, 'Theirs')];
    const { email } = await limitedManager(t, fleet, api, [mine]);
    const { b, csrf } = await consoleBrowser(t, email);
    const list = await b.get('/console/groups');
    assert.deepEqual(
      [...list.body.matchAll(/<tr data-id="(\d+)"/g)].map((m) => Number(m[1])),
      [mine],
    );
    assert.doesNotMatch(list.body, /action="\/console\/groups"/);
    assert.equal((await b.get(`/console/groups/${theirs}`)).status, 404);
    const own = await b.get(`/console/groups/${mine}`);
    assert.equal(own.status, 200);
    assert.match(own.body, /Lim Ited/);
    assert.doesNotMatch(own.body, /method="post"[^>]*action="\/console\/groups/);
    assert.equal((await b.post('/console/groups', { csrf_token: csrf, name: 'Nope' })).status, 403);
    assert.equal((await b.post(`/console/groups/${mine}`, { csrf_token: csrf, name: 'Renamed' })).status, 403);
    assert.equal((await api.call({ method: 'GET', url: `/v1/groups/${mine}` })).body.group.name, 'Mine');
  });
});
