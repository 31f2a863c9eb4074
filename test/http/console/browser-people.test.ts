/**
 * People and groups in a real browser: add a fleet manager through the form (a taken email first,
 * refused with the API's message and the form kept), with a password set on the way, and sign in as
 * them; create a group and add a vehicle to it. Each change is read back through the public API, and
 * each page is photographed at desktop width and at 390 px under test-results/.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { eachDialect } from '../../helper.js';
import { PASSWORD, useOAuthApp, type OAuthTestApp } from '../../auth/oauth/flows.js';
import { uniq } from '../fixtures.js';
import { asCompany } from './kit.js';
import { openConsoleBrowser, shoot, type ConsoleBrowser } from './browser-kit.js';

eachDialect('people and groups in a real browser', (dialect) => {
  const getApp = useOAuthApp(dialect);
  let t: OAuthTestApp;
  let web: ConsoleBrowser;

  before(async () => {
    t = await getApp();
    web = await openConsoleBrowser(t);
  });

  after(async () => {
    await web?.close();
  });

  test('add a fleet manager with a password and sign in as them; create a group and add a vehicle', async () => {
    const fleet = await t.newFleet('Browser People Co');
    const api = asCompany(t, fleet);
    await api.call({ method: 'POST', url: '/v1/vehicles', payload: { number: 'P-7', make: 'Volvo' } });
    const page = await web.signedIn(fleet.admin.email, '/console');
    const nav = page.getByRole('navigation', { name: 'Console' });
    await nav.getByRole('link', { name: 'Drivers & users' }).click();
    await page.getByRole('heading', { name: 'Drivers & users' }).waitFor();
    await page.getByRole('link', { name: 'Add user' }).click();
    await page.getByRole('heading', { name: 'Add a user' }).waitFor();

    await page.getByLabel('Role', { exact: true }).selectOption('fleet_user');
    await page.getByLabel('First name').fill('Morgan');
    await page.getByLabel('Last name').fill('Lee');
    await page.getByLabel('Email', { exact: true }).fill(fleet.driver.email);
    await page.getByLabel('Set a password now').check();
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Add user' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: `email "${fleet.driver.email}" is already taken` })
      .waitFor();
    assert.equal(await page.getByLabel('First name').inputValue(), 'Morgan', 'the form keeps what was typed');
    assert.equal(await page.getByLabel('Email', { exact: true }).getAttribute('aria-invalid'), 'true');
    await shoot(page, 'console-user-refused', dialect);

    const email = `morgan.${uniq()}@people.test`;
    await page.getByLabel('Email', { exact: true }).fill(email);
    assert.ok(await page.getByLabel('Set a password now').isChecked());
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Add user' }).click();
    await page.getByRole('status').filter({ hasText: 'Morgan Lee was added.' }).waitFor();
    await shoot(page, 'console-user', dialect);
    const found = await api.call({ method: 'GET', url: `/v1/users/lookup?email=${encodeURIComponent(email)}` });
    assert.deepEqual(
      [found.status, found.body.user.role, found.body.user.first_name, found.body.user.status],
      [200, 'fleet_user', 'Morgan', 'active'],
    );

    const morgan = await web.signedIn(email, '/console/users');
    await morgan.getByRole('heading', { name: 'Drivers & users' }).waitFor();
    await morgan.getByText('Morgan Lee', { exact: true }).first().waitFor();
    await morgan.context().close();

    await nav.getByRole('link', { name: 'Groups' }).click();
    await page.getByRole('heading', { name: 'Groups', exact: true, level: 1 }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Harbor');
    await page.getByRole('button', { name: 'Create group' }).click();
    await page.getByRole('status').filter({ hasText: 'The group was created.' }).waitFor();
    await page.getByLabel('Add a vehicle').selectOption({ label: 'P-7' });
    await page.getByRole('button', { name: 'Add' }).first().click();
    await page.getByRole('status').filter({ hasText: 'Added to the group.' }).waitFor();
    await page.getByRole('heading', { name: 'Vehicles (1)' }).waitFor();
    await shoot(page, 'console-group', dialect);
    const groups = (await api.call({ method: 'GET', url: '/v1/groups' })).body.groups;
    assert.deepEqual(
      groups.map((g: any) => g.group.name),
      ['Harbor'],
    );
    const inGroup = await api.call({ method: 'GET', url: `/v1/groups/${groups[0].group.id}/vehicles` });
    assert.deepEqual(
      inGroup.body.vehicles.map((v: any) => v.vehicle.number),
      ['P-7'],
    );
    await nav.getByRole('link', { name: 'Groups' }).click();
    await page
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: 'Harbor' }) })
      .waitFor();
    await shoot(page, 'console-groups', dialect);
    assert.deepEqual(
      web.problemsOf(page),
      ['Failed to load resource: the server responded with a status of 400 (Bad Request)'],
      "the refused form's own answer, and no script errors or CSP violations",
    );
    await page.context().close();
  });
});
