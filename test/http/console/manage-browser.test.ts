/**
 * Managing the fleet in a real browser: add a vehicle (a duplicate number first, refused with the API's
 * message and the form kept), mark it out of service and find it in the table, read it back through
 * the API; create an API key, copy it, use it, revoke it after confirming, and see it refused. Each
 * page is photographed at desktop width and at 390 px under test-results/.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { eachDialect } from '../../helper.js';
import { useOAuthApp, type OAuthTestApp } from '../../auth/oauth/flows.js';
import { asCompany } from './kit.js';
import { createGroup } from './manage-helper.js';
import { openConsoleBrowser, shoot, type ConsoleBrowser } from './browser-kit.js';

eachDialect('console management in a real browser', (dialect) => {
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

  test('add a vehicle through the form, mark it out of service, find it in the table and the API', async () => {
    const fleet = await t.newFleet('Browser Vehicles Co');
    const api = asCompany(t, fleet);
    const north = await createGroup(api, 'North');
    await api.call({ method: 'POST', url: '/v1/vehicles', payload: { number: 'B-1', make: 'Mack' } });
    const page = await web.signedIn(fleet.admin.email, '/console');
    const nav = page.getByRole('navigation', { name: 'Console' });
    await nav.getByRole('link', { name: 'Vehicles', exact: true }).click();
    await page.getByRole('heading', { name: 'Vehicles', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Add vehicle' }).click();
    await page.getByRole('heading', { name: 'Add a vehicle' }).waitFor();

    await page.getByLabel('Number', { exact: true }).fill('B-1');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'year', 'Tab goes from Number to Year');
    await page.keyboard.type('2023');
    await page.getByLabel('Make', { exact: true }).fill('Kenworth');
    await page.getByLabel('Model', { exact: true }).fill('T680');
    await page.getByLabel('VIN', { exact: true }).fill('1XKYD49X8PJ123456');
    await page.getByLabel('License plate', { exact: true }).fill('KW 680');
    await page.getByLabel('Plate state or province', { exact: true }).fill('IA');
    await page.getByLabel('Fuel type', { exact: true }).selectOption('diesel');
    await page.getByLabel('North', { exact: true }).check();
    await page.getByRole('button', { name: 'Create vehicle' }).click();
    const alert = page.getByRole('alert');
    await alert.filter({ hasText: 'number "B-1" is already taken' }).waitFor();
    assert.equal(
      await page.getByLabel('Make', { exact: true }).inputValue(),
      'Kenworth',
      'the form keeps what was typed',
    );
    assert.equal(await page.getByLabel('Number', { exact: true }).getAttribute('aria-invalid'), 'true');
    assert.ok(await page.getByLabel('North', { exact: true }).isChecked());
    await shoot(page, 'console-vehicle-refused', dialect);

    await page.getByLabel('Number', { exact: true }).fill('B-2');
    await page.getByRole('button', { name: 'Create vehicle' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Vehicle B-2 was created.' }).waitFor();
    await page.getByLabel('Reason', { exact: true }).fill('Tire replacement');
    await page.getByRole('button', { name: 'Mark out of service' }).click();
    await page.getByRole('status').filter({ hasText: 'B-2 is out of service.' }).waitFor();
    await shoot(page, 'console-vehicle-form', dialect);

    await nav.getByRole('link', { name: 'Vehicles', exact: true }).click();
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'B-2' }) });
    await row.waitFor();
    assert.match(
      await row.innerText(),
      /2023 Kenworth T680[\s\S]*1XKYD49X8PJ123456[\s\S]*active[\s\S]*Out of service: Tire replacement[\s\S]*North/,
    );
    await shoot(page, 'console-vehicles', dialect);

    const res = await fetch(`${web.base}/v1/vehicles`, { headers: { 'x-api-key': fleet.apiKey } });
    const b2 = ((await res.json()) as any).vehicles.map((v: any) => v.vehicle).find((v: any) => v.number === 'B-2');
    assert.deepEqual(
      [b2.year, b2.make, b2.model, b2.vin, b2.license_plate_number, b2.license_plate_state, b2.fuel_type, b2.group_ids],
      ['2023', 'Kenworth', 'T680', '1XKYD49X8PJ123456', 'KW 680', 'IA', 'diesel', [north]],
    );
    assert.deepEqual(
      [b2.availability_details.availability_status, b2.availability_details.out_of_service_reason],
      ['out_of_service', 'Tire replacement'],
    );
    assert.deepEqual(
      web.problemsOf(page),
      ['Failed to load resource: the server responded with a status of 400 (Bad Request)'],
      "the refused form's own answer, and no script errors or CSP violations",
    );
    await page.context().close();
  });

  test('create an API key, copy it, use it, revoke it after confirming: then 401', async () => {
    const fleet = await t.newFleet('Browser Keys Co');
    const page = await web.signedIn(fleet.admin.email, '/console/api-keys', {
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    await page.getByLabel('Name', { exact: true }).fill('Browser integration');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const panel = page.getByRole('region', { name: 'New API key “Browser integration”' });
    await panel.waitFor();
    assert.match(await panel.innerText(), /You will not see it again/);
    const key = await page.getByLabel('API key', { exact: true }).inputValue();
    assert.match(key, /^fk_/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied.' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), key);
    await shoot(page, 'console-api-keys', dialect);

    const read = () => fetch(`${web.base}/v1/vehicles`, { headers: { 'x-api-key': key } });
    assert.equal((await read()).status, 200);
    await page.getByRole('link', { name: `Revoke Browser integration (${key.slice(0, 7)}…)` }).click();
    await page.getByRole('heading', { name: 'Revoke “Browser integration”?' }).waitFor();
    assert.equal((await read()).status, 200, 'not before it is confirmed');
    await shoot(page, 'console-api-key-revoke', dialect);
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('status').filter({ hasText: 'Revoked “Browser integration”' }).waitFor();
    assert.equal((await read()).status, 401);
    assert.equal(await page.getByRole('region', { name: /New API key/ }).count(), 0, 'the key is not shown again');
    assert.deepEqual(web.problemsOf(page), [], 'no script errors or CSP violations');
    await page.context().close();
  });
});
