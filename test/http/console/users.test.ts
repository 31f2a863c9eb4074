/**
 * Managing drivers and users in the console over HTTP: the table and its filters; add, edit,
 * deactivate and reactivate through the pages' form posts, each change read back through /v1/users; a
 * refused form shows the API's own message for the same input and keeps what was typed; passwords set
 * under the policy, invite and reset links that work once; who may manage whom (admin, fleet manager,
 * group-limited fleet manager); CSRF on every form.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachDialect } from '../../helper.js';
import { Browser, PASSWORD, inputValue, useOAuthApp, type OAuthTestApp } from '../../auth/oauth/flows.js';
import { uniq } from '../fixtures.js';
import { apiRefusal, assertAlert, consoleAndApi, createGroup, type Api, limitedManager } from './manage-helper.js';
import { consoleBrowser } from './kit.js';

async function apiUser(api: Api, id: number): Promise<Record<string, any>> {
  const res = await api.call({ method: 'GET', url: `/v1/users/${id}` });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.user;
}

const idOf = (location: string) => Number(/^\/console\/users\/(\d+)(\?|$)/.exec(location)![1]);
const rowIds = (body: string) => [...body.matchAll(/<tr data-id="(\d+)"/g)].map((m) => Number(m[1]));
/** The one-time link on a page, as a path on this server. */
function linkPath(body: string): string {
  const url = inputValue(body, 'password-link') ?? /id="password-link"[^>]*value="([^"]+)"/.exec(body)?.[1];
  assert.ok(url, 'no link on the page');
  const u = new URL(url.replace(/&amp;/g, '&'));
  return u.pathname + u.search;
}

/** Chooses a password through the link's page in a fresh signed-out browser. */
async function useLink(t: OAuthTestApp, path: string, password: string) {
  const anon = new Browser(t.app);
  const form = await anon.get(path);
  if (form.status !== 200) return form;
  return anon.post('/set-password', {
    csrf_token: inputValue(form.body, 'csrf_token'),
    password_token: inputValue(form.body, 'password_token'),
    password,
  });
}

async function canSignIn(t: OAuthTestApp, email: string, password: string): Promise<boolean> {
  const b = new Browser(t.app);
  const form = await b.get('/sign-in');
  const res = await b.post('/sign-in', { csrf_token: inputValue(form.body, 'csrf_token'), email, password });
  return res.status === 303;
}

eachDialect('console: managing drivers and users', (dialect) => {
  const getApp = useOAuthApp(dialect);

  test('an admin adds, edits, deactivates and reactivates users; the API reads every change', async () => {
    const t = await getApp();
    const fleet = await t.newFleet('People Freight');
    const { b, csrf, api } = await consoleAndApi(t, fleet, fleet.admin.email);
    const east = await createGroup(api, 'East');

    const list = await b.get('/console/users');
    assert.equal(list.status, 200);
    assert.match(list.body, /<a href="\/console\/users" aria-current="page">Drivers &amp; users<\/a>/);
    assert.match(list.body, /<a href="\/console\/groups">Groups<\/a>/);
    assert.deepEqual(rowIds(list.body), [fleet.admin.id, fleet.manager.id, fleet.driver.id]);

    // A taken email: the API's message for the same body, the form kept, nothing created.
    const form = {
      csrf_token: csrf,
      role: 'driver',
      first_name: 'Sam',
      last_name: 'Rivera',
      email: fleet.manager.email,
      phone: '+1 555 0100',
      time_zone: 'Central Time (US & Canada)',
      username: `sam${uniq()}`,
      driver_company_id: 'D-77',
      drivers_license_number: 'R123',
      drivers_license_state: 'TX',
      group_ids: String(east),
      access: 'password',
      password: 'a long passphrase for the road',
    };
    const dup = await b.post('/console/users', form);
    const expected = await apiRefusal(api, 'POST', '/v1/users', {
      role: 'driver',
      first_name: 'Sam',
      last_name: 'Rivera',
      email: fleet.manager.email,
    });
    assert.deepEqual([dup.status, expected.status], [400, 400]);
    assertAlert(dup.body, 'details-error', expected.message);
    assert.match(dup.body, /id="email" name="email"[^>]*aria-invalid="true"/);
    assert.equal(inputValue(dup.body, 'driver_company_id'), 'D-77');
    assert.equal((await api.call({ method: 'GET', url: '/v1/users?per_page=100' })).body.users.length, 3);

    const email = `sam.${uniq()}@people.test`;
    const created = await b.post('/console/users', { ...form, email });
    assert.equal(created.status, 303, created.body);
    const id = idOf(created.headers.location);
    const u = await apiUser(api, id);
    assert.deepEqual(
      [u.role, u.first_name, u.email, u.phone, u.time_zone, u.username, u.driver_company_id, u.drivers_license_state],
      ['driver', 'Sam', email, '+1 555 0100', 'Central Time (US & Canada)', form.username, 'D-77', 'TX'],
    );
    const inEast = await api.call({ method: 'GET', url: `/v1/groups/${east}/drivers` });
    assert.deepEqual(
      inEast.body.users.map((x: any) => x.user.id),
      [id],
      "a driver's group is a membership",
    );
    const page = await b.get(created.headers.location);
    assert.match(page.body, /<p role="status" class="notice">Sam Rivera was added.<\/p>/);
    assert.match(page.body, /Has a password\./);

    // Edit: an emptied field is cleared; a fleet manager gets group_ids and group visibility.
    const saved = await b.post(`/console/users/${id}`, {
      ...form,
      email,
      phone: '',
      first_name: 'Samuel',
      role: 'fleet_user',
      group_visibility: 'limited',
    });
    assert.equal(saved.status, 303, saved.body);
    const edited = await apiUser(api, id);
    assert.deepEqual(
      [edited.first_name, edited.phone, edited.role, edited.group_ids],
      ['Samuel', null, 'fleet_user', [east]],
    );

    // A role the API refuses a field for: the API's message.
    const admin = await b.post(`/console/users/${id}`, { ...form, email, role: 'admin', group_ids: String(east) });
    const refusal = await apiRefusal(api, 'PUT', `/v1/users/${id}`, { role: 'admin', group_ids: [east] });
    assert.equal(admin.status, refusal.status);
    assertAlert(admin.body, 'details-error', refusal.message);

    const confirm = await b.get(`/console/users/${id}/deactivate`);
    assert.equal(confirm.status, 200);
    assert.match(confirm.body, /<h1 id="confirm-title">Deactivate Samuel Rivera\?<\/h1>/);
    assert.equal((await apiUser(api, id)).status, 'active', 'the confirmation page changes nothing');
    const off = await b.post(`/console/users/${id}/deactivate`, { csrf_token: csrf });
    assert.equal(off.status, 303);
    assert.equal((await apiUser(api, id)).status, 'deactivated');
    assert.equal(await canSignIn(t, email, form.password), false, 'a deactivated user cannot sign in');
    const filtered = await b.get('/console/users?status=deactivated');
    assert.deepEqual(rowIds(filtered.body), [id]);
    assert.equal((await b.post(`/console/users/${id}/reactivate`, { csrf_token: csrf })).status, 303);
    assert.equal((await apiUser(api, id)).status, 'active');
    assert.equal(await canSignIn(t, email, form.password), true);

    // Search by name or email, role filter.
    assert.deepEqual(rowIds((await b.get('/console/users?q=samuel')).body), [id]);
    assert.deepEqual(rowIds((await b.get(`/console/users?q=${encodeURIComponent(fleet.driver.email)}`)).body), [
      fleet.driver.id,
    ]);
    assert.deepEqual(rowIds((await b.get('/console/users?role=admin')).body), [fleet.admin.id]);

    // Nobody deactivates their own account; every form needs the session's CSRF token.
    assert.equal((await b.post(`/console/users/${fleet.admin.id}/deactivate`, { csrf_token: csrf })).status, 403);
    assert.equal((await b.post(`/console/users/${id}/deactivate`, {})).status, 400);
    assert.equal((await b.post(`/console/users/${id}/deactivate`, { csrf_token: 'x'.repeat(43) })).status, 403);
    assert.equal((await apiUser(api, id)).status, 'active');
  });

  test('passwords: set under the policy, an invite link and a reset link, each working once', async () => {
    const t = await getApp();
    const fleet = await t.newFleet('Password Freight');
    const { b, csrf, api } = await consoleAndApi(t, fleet, fleet.admin.email);
    const email = `fm.${uniq()}@people.test`;
    const created = await b.post('/console/users', {
      csrf_token: csrf,
      role: 'fleet_user',
      first_name: 'Fran',
      last_name: 'Manager',
      email,
      access: 'invite',
    });
    assert.equal(created.status, 201, created.body);
    assert.match(created.body, /Invite link for Fran Manager/);
    const id = Number(/action="\/console\/users\/(\d+)"/.exec(created.body)![1]);
    const invite = linkPath(created.body);
    assert.match(invite, /^\/set-password\?password_token=pwl_[A-Za-z0-9_-]{43}$/);
    assert.doesNotMatch((await b.get(`/console/users/${id}`)).body, /password_token/, 'the link is shown once');
    assert.match((await b.get(`/console/users/${id}`)).body, /an invite link is open until/);

    // The link's page refuses a weak password with the policy's message, and stays usable.
    const weak = await useLink(t, invite, 'short');
    const policy = await apiRefusal(api, 'PUT', `/v1/users/${id}`, { password: 'passwordpassword' });
    assert.equal(weak.status, 400);
    assert.match(weak.body, /password must be at least 15 characters long \(it has 5\)/);
    assert.equal(policy.message, 'password is too common: it is on a list of often-used passwords; choose another');
    const common = await useLink(t, invite, 'passwordpassword');
    assert.match(common.body, new RegExp(policy.message));
    const set = await useLink(t, invite, PASSWORD);
    assert.equal(set.status, 200, set.body);
    assert.match(set.body, /The password of Fran Manager is set\./);
    assert.equal((await useLink(t, invite, PASSWORD)).status, 404, 'a link works once');
    const fran = await consoleBrowser(t, email);
    assert.equal((await fran.b.get('/console/users')).status, 200);

    // The admin sets a password: the API's messages first.
    const short = await b.post(`/console/users/${id}/password`, { csrf_token: csrf, password: 'too short' });
    const apiShort = await apiRefusal(api, 'PUT', `/v1/users/${id}`, { password: 'too short' });
    assert.equal(short.status, apiShort.status);
    assertAlert(short.body, 'password-error', apiShort.message);
    const newPassword = 'another long phrase for fran';
    assert.equal(
      (await b.post(`/console/users/${id}/password`, { csrf_token: csrf, password: newPassword })).status,
      303,
    );
    assert.equal(await canSignIn(t, email, newPassword), true);
    assert.equal(
      (await b.post(`/console/users/${id}/invite`, { csrf_token: csrf })).status,
      400,
      'a user with a password gets a reset, not an invite',
    );

    // Reset: the old password stops working at once, their sessions end, and a link is shown once.
    assert.match((await b.get(`/console/users/${id}/reset-password`)).body, /Reset the password of Fran Manager\?/);
    const reset = await b.post(`/console/users/${id}/reset-password`, { csrf_token: csrf });
    assert.equal(reset.status, 201, reset.body);
    assert.match(reset.body, /Password reset link for Fran Manager/);
    assert.equal(await canSignIn(t, email, newPassword), false);
    assert.equal((await fran.b.get('/console/users')).status, 303, 'signed out');
    assert.equal((await useLink(t, invite, PASSWORD)).status, 404, 'the old link stays used');
    assert.equal((await useLink(t, linkPath(reset.body), PASSWORD)).status, 200);
    assert.equal(await canSignIn(t, email, PASSWORD), true);
  });

  test('a fleet manager manages drivers only; admins and fleet managers are read-only to them', async () => {
    const t = await getApp();
    const fleet = await t.newFleet('Manager Freight');
    const { b, csrf, api } = await consoleAndApi(t, fleet, fleet.manager.email);
    const list = await b.get('/console/users');
    assert.deepEqual(rowIds(list.body), [fleet.admin.id, fleet.manager.id, fleet.driver.id]);

    const adminForm = {
      csrf_token: csrf,
      role: 'admin',
      first_name: 'No',
      last_name: 'Way',
      email: `x.${uniq()}@p.test`,
    };
    const refused = await b.post('/console/users', adminForm);
    assert.equal(refused.status, 403);
    assertAlert(
      refused.body,
      'details-error',
      'role must be driver: only admins add or change admins and fleet managers',
    );
    const driver = await b.post('/console/users', { ...adminForm, role: 'driver', access: 'none' });
    assert.equal(driver.status, 303, driver.body);
    assert.equal((await apiUser(api, idOf(driver.headers.location))).role, 'driver');

    const adminPage = await b.get(`/console/users/${fleet.admin.id}`);
    assert.equal(adminPage.status, 200);
    assert.match(adminPage.body, /admins and fleet managers are managed by an admin/);
    assert.doesNotMatch(adminPage.body, /action="\/console\/users\/\d+\/password"/);
    const edit = await b.post(`/console/users/${fleet.admin.id}`, { ...adminForm, role: 'admin' });
    assert.equal(edit.status, 403);
    assert.equal((await b.post(`/console/users/${fleet.admin.id}/deactivate`, { csrf_token: csrf })).status, 403);
    assert.equal((await b.post(`/console/users/${fleet.driver.id}/deactivate`, { csrf_token: csrf })).status, 303);
    assert.equal((await apiUser(api, fleet.driver.id)).status, 'deactivated');
    assert.equal((await apiUser(api, fleet.admin.id)).status, 'active');
  });

  test("a group-limited fleet manager sees and adds only their groups' drivers", async () => {
    const t = await getApp();
    const fleet = await t.newFleet('Limited People Co');
    const { api } = await consoleAndApi(t, fleet, fleet.admin.email);
    const [mine, theirs] = [await createGroup(api, 'Mine'), await createGroup(api, 'Theirs')];
    const { email } = await limitedManager(t, fleet, api, [mine]);
    await api.call({ method: 'POST', url: `/v1/groups/${theirs}/users`, payload: { ids: [fleet.driver.id] } });
    const { b, csrf } = await consoleBrowser(t, email);
    assert.deepEqual(rowIds((await b.get('/console/users')).body), []);
    assert.equal((await b.get(`/console/users/${fleet.driver.id}`)).status, 404);
    assert.equal((await b.get(`/console/users/${fleet.admin.id}`)).status, 404);

    const form = {
      csrf_token: csrf,
      role: 'driver',
      first_name: 'Gil',
      last_name: 'Roads',
      username: `gil${uniq()}`,
      access: 'none',
    };
    const none = await b.post('/console/users', form);
    assert.equal(none.status, 400);
    assertAlert(
      none.body,
      'details-error',
      'group_ids must name at least one of your groups: outside them the driver would leave your view',
    );
    assert.equal((await b.post('/console/users', { ...form, group_ids: String(theirs) })).status, 404);
    const ok = await b.post('/console/users', { ...form, group_ids: String(mine) });
    assert.equal(ok.status, 303, ok.body);
    const id = idOf(ok.headers.location);
    assert.deepEqual((await apiUser(api, id)).group_ids, [mine]);
    assert.deepEqual(rowIds((await b.get('/console/users')).body), [id]);
  });
});
