/**
 * Devices and dispatches in a real browser: provision a phone tracker, read its app's settings, and
 * report a position to the address shown; create a dispatch with three stops (one row added without
 * script), edit it, activate it, and cancel it after the confirmation page. Each change is read back
 * through the public API. Pages are photographed at desktop width and at 390 px under test-results/.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { eachDialect } from '../../helper.js';
import { useOAuthApp, vehicle, type OAuthTestApp } from '../../auth/oauth/flows.js';
import { createUser } from '../fixtures.js';
import { createLocation } from '../../domain/dispatch/fixtures.js';
import { asCompany } from './kit.js';
import { openConsoleBrowser, shoot, type ConsoleBrowser } from './browser-kit.js';

eachDialect('console devices and dispatches in a real browser', (dialect) => {
  const getApp = useOAuthApp(dialect, { OSMAND_PORT: '0' });
  let t: OAuthTestApp;
  let web: ConsoleBrowser;

  before(async () => {
    t = await getApp();
    web = await openConsoleBrowser(t);
  });

  after(async () => {
    await web?.close();
  });

  const apiGet = async (apiKey: string, path: string) => {
    const res = await fetch(`${web.base}${path}`, { headers: { 'x-api-key': apiKey } });
    assert.equal(res.status, 200, path);
    return (await res.json()) as any;
  };

  test('provision a phone tracker and report a position with the settings shown', async () => {
    const fleet = await t.newFleet('Browser Phones Co');
    const truckId = await vehicle(t, fleet);
    const number = (await apiGet(fleet.apiKey, `/v1/vehicles/${truckId}`)).vehicle.number;
    const page = await web.signedIn(fleet.manager.email, '/console');
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Devices', exact: true }).click();
    await page.getByRole('heading', { name: 'Provision a device' }).waitFor();

    await page.getByLabel('Phone tracker').check();
    await page.getByLabel('Vehicle', { exact: true }).selectOption({ label: number });
    await page.getByRole('button', { name: 'Provision device' }).click();
    const settings = page.getByRole('region', { name: 'Phone settings' });
    await settings.waitFor();
    const server = await settings.getByLabel('Server URL').inputValue();
    const id = await settings.getByLabel('Device identifier').inputValue();
    const listener = new URL(t.app.sideListeners.get('OsmAnd')!);
    assert.equal(server, `http://127.0.0.1:${listener.port}`, 'the host the browser reached, the listener port');
    assert.match(id, /^phone-/);
    assert.equal(
      await settings.getByLabel('Web address').inputValue(),
      `${server}/?id=${id}&lat={0}&lon={1}&timestamp={2}&hdop={3}&altitude={4}&bearing={6}`,
    );
    await shoot(page, 'console-phone-tracker', dialect);

    const at = Math.floor(Date.now() / 1000);
    const sent = await fetch(`${server}/?id=${encodeURIComponent(id)}&lat=41.2565&lon=-95.9345&timestamp=${at}`);
    assert.equal(sent.status, 200, await sent.text());
    const devices = (await apiGet(fleet.apiKey, '/v1/eld_devices')).eld_devices.map((d: any) => d.eld_device);
    assert.deepEqual(
      devices.map((d: any) => [d.identifier, d.model, d.vehicle.id]),
      [[id, 'phone', truckId]],
    );
    await page.getByRole('link', { name: `Open ${id}` }).click();
    await page.getByRole('heading', { name: `Phone tracker ${id}` }).waitFor();
    assert.doesNotMatch(await page.getByRole('region', { name: 'About' }).innerText(), /Last heard\s+Never/);
    await shoot(page, 'console-device', dialect);
    assert.deepEqual(web.problemsOf(page), [], 'no script errors or CSP violations');
    await page.context().close();
  });

  test('create a dispatch with stops, edit it, activate it, cancel it after confirming', async () => {
    const fleet = await t.newFleet('Browser Dispatch Co');
    const api = asCompany(t, fleet);
    const driver = await createUser(api, { role: 'driver', first_name: 'Ana', last_name: 'Lopez' });
    const truckId = await vehicle(t, fleet);
    const number = (await apiGet(fleet.apiKey, `/v1/vehicles/${truckId}`)).vehicle.number;
    const [yard, mill, port] = [
      await createLocation(api, { name: 'Yard', city: 'Omaha', state: 'NE' }),
      await createLocation(api, { name: 'Mill', city: 'Lincoln', state: 'NE' }),
      await createLocation(api, { name: 'Port', city: 'Kansas City', state: 'MO' }),
    ];
    const dispatch = async () =>
      (await apiGet(fleet.apiKey, '/v1/dispatches?vendor_ids[]=WEB-1')).dispatches[0]?.dispatch;

    const page = await web.signedIn(fleet.manager.email, '/console/dispatches');
    await page.getByRole('link', { name: 'New dispatch' }).click();
    await page.getByRole('heading', { name: 'New dispatch' }).waitFor();
    await page.getByLabel('Reference').fill('WEB-1');
    await page.getByLabel('Driver', { exact: true }).selectOption({ label: 'Ana Lopez' });
    await page.getByLabel('Vehicle', { exact: true }).selectOption({ label: number });
    const pickup = page.getByRole('group', { name: 'Pickup' });
    await pickup.getByLabel('Location').selectOption({ label: 'Yard, Omaha NE' });
    await pickup.getByLabel('Earliest').fill('2026-03-02T08:00');
    await page
      .getByRole('group', { name: 'Delivery' })
      .getByLabel('Location')
      .selectOption({ label: 'Port, Kansas City MO' });
    await page.getByRole('button', { name: 'Add a stop' }).click();
    const between = page.getByRole('group', { name: 'Stop 1' });
    await between.waitFor();
    assert.equal(await pickup.getByLabel('Earliest').inputValue(), '2026-03-02T08:00', 'the form keeps what was typed');
    await between.getByLabel('Location').selectOption({ label: 'Mill, Lincoln NE' });
    await between.getByLabel('What happens').fill('Drop trailer');
    await shoot(page, 'console-dispatch-new', dialect);
    await page.getByRole('button', { name: 'Create dispatch' }).click();
    await page.getByRole('status').filter({ hasText: 'Dispatch WEB-1 was created.' }).waitFor();
    let d = await dispatch();
    assert.deepEqual(
      [d.status, d.driver_id, d.vehicle_id, d.shipper_dispatch_location_id, d.consignee_dispatch_location_id],
      ['planned', driver.id, truckId, yard.id, port.id],
    );
    assert.deepEqual(
      d.dispatch_stops.map((s: any) => [s.dispatch_stop.dispatch_location_id, s.dispatch_stop.type]),
      [[mill.id, 'Drop trailer']],
    );
    assert.equal(d.pickup_early_date, '2026-03-02T13:00:00Z', '08:00 in New York');

    await page.getByRole('group', { name: 'Delivery' }).getByLabel('What happens').fill('Unload at dock 4');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Changes to WEB-1 were saved.' }).waitFor();
    assert.equal((await dispatch()).consignee_type, 'Unload at dock 4');

    await page.getByRole('link', { name: 'Back to the board' }).click();
    await page.getByRole('button', { name: 'Activate WEB-1' }).click();
    await page.getByRole('status').filter({ hasText: 'The dispatch is now active.' }).waitFor();
    assert.equal((await dispatch()).status, 'active');
    await shoot(page, 'console-dispatch-board', dialect);

    await page.getByRole('link', { name: 'Cancel… WEB-1' }).click();
    await page.getByRole('heading', { name: 'Cancel dispatch WEB-1?' }).waitFor();
    assert.equal((await dispatch()).status, 'active', 'not before it is confirmed');
    await shoot(page, 'console-dispatch-cancel', dialect);
    await page.getByRole('button', { name: 'Cancel the dispatch' }).click();
    await page.getByRole('status').filter({ hasText: 'The dispatch is now cancelled.' }).waitFor();
    d = await dispatch();
    assert.equal(d.status, 'cancelled');
    await page.locator('ul[data-status="cancelled"] li[data-dispatch="WEB-1"]').waitFor();
    assert.deepEqual(web.problemsOf(page), [], 'no script errors or CSP violations');
    await page.context().close();
  });
});
