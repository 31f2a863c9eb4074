/**
 * ELD devices and phone trackers in the console over HTTP: provision an ELD (its credential shown once
 * and accepted by the device API), a phone tracker (the settings shown are the address that takes its
 * positions), move a device to another vehicle, revoke it after confirming; refusals carry the devices
 * service's messages (as `fleet device create` prints them) and keep the form; CSRF on every form; a
 * device of another company is not found, nor one outside a group-limited manager's groups. Each change
 * is read back through /v1/eld_devices.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachDialect } from '../../helper.js';
import { useOAuthApp, vehicle, type OAuthTestApp } from '../../auth/oauth/flows.js';
import { uniq } from '../fixtures.js';
import { assertAlert, consoleAndApi, type Api, limitedManager } from './manage-helper.js';
import { consoleBrowser } from './kit.js';
import { provisionDevice } from '../../../src/domain/devices/service.js';
import { PASSWORD } from '../../auth/oauth/flows.js';
import { createGroup } from './manage-helper.js';
import { escapeHtml } from '../../../src/http/plumbing/html.js';

async function eldDevices(api: Api): Promise<Array<Record<string, any>>> {
  const res = await api.call({ method: 'GET', url: '/v1/eld_devices?per_page=100' });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.eld_devices.map((d: any) => d.eld_device);
}

const value = (body: string, id: string) => new RegExp(`id="${id}"[^>]* value="([^"]*)"`).exec(body)?.[1];

/** Posts a batch with one fix through the device API with `token`; its status. */
async function report(t: OAuthTestApp, token: string): Promise<number> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/device/v1/batches',
    headers: { authorization: `Bearer ${token}` },
    payload: { records: [{ seq: 1, type: 'location', time: new Date().toISOString(), lat: 41.25, lon: -95.99 }] },
  });
  return res.statusCode;
}

eachDialect('console: devices', (dialect) => {
  const getApp = useOAuthApp(dialect, { OSMAND_PORT: '0' });

  test('provision an ELD: the credential once, working; refusals with the service messages; move; revoke', async () => {
    const t = await getApp();
    const fleet = await t.newFleet('Device Freight');
    const { b, csrf, api } = await consoleAndApi(t, fleet, fleet.manager.email);
    const [v1, v2] = [await vehicle(t, fleet), await vehicle(t, fleet)];
    const serial = `SN-${uniq()}`;

    const list = await b.get('/console/devices');
    assert.equal(list.status, 200);
    assert.match(list.body, /<a href="\/console\/devices" aria-current="page">Devices<\/a>/);
    assert.match(list.body, /No live devices\./);

    const noCsrf = await b.post('/console/devices', { type: 'eld', identifier: serial, vehicle: String(v1) });
    assert.equal(noCsrf.status, 400);
    assert.deepEqual(await eldDevices(api), [], 'nothing provisioned without the token');

    const made = await b.post('/console/devices', {
      csrf_token: csrf,
      type: 'eld',
      identifier: serial,
      model: 'VG3',
      vehicle: String(v1),
    });
    assert.equal(made.status, 201, made.body);
    const token = value(made.body, 'new-credential')!;
    assert.match(token, /^fd_/);
    assert.match(made.body, /You will not see it again/);
    assert.equal(await report(t, token), 200, 'the device API takes the credential shown');
    const [eld] = await eldDevices(api);
    assert.deepEqual([eld.identifier, eld.model, eld.vehicle.id], [serial, 'VG3', v1]);
    const again = await b.get('/console/devices');
    assert.ok(!again.body.includes(token), 'the credential is not shown again');
    assert.match(
      again.body,
      new RegExp(`<th scope="row" data-label="Device" class="code">${serial}</th>\\s*<td data-label="Type">ELD</td>`),
    );

    // The same refusal the service gives `fleet device create`, the form keeping what was typed.
    let refusal = '';
    await provisionDevice(t.db, { companyId: fleet.companyId }, { identifier: serial, vehicleId: v2 }).catch(
      (e: Error) => (refusal = e.message),
    );
    assert.equal(refusal, `identifier "${serial}" is already taken`);
    const taken = await b.post('/console/devices', {
      csrf_token: csrf,
      type: 'eld',
      identifier: serial,
      vehicle: String(v2),
    });
    assert.equal(taken.status, 400);
    assertAlert(taken.body, 'provision-error', refusal);
    assert.equal(value(taken.body, 'identifier'), serial);
    assert.match(taken.body, /id="identifier" name="identifier"[^>]*aria-invalid="true"/);
    const busy = await b.post('/console/devices', {
      csrf_token: csrf,
      type: 'eld',
      identifier: `SN-${uniq()}`,
      vehicle: String(v1),
    });
    assert.equal(busy.status, 400);
    assert.match(
      busy.body,
      new RegExp(`vehicle ${v1} already has ELD device ${eld.id} \\(${serial}\\); revoke it first`),
    );
    const none = await b.post('/console/devices', { csrf_token: csrf, type: 'eld', identifier: 'X-1', vehicle: '' });
    assertAlert(none.body, 'provision-error', 'vehicle is required: choose the vehicle the device is on');
    const bad = await b.post('/console/devices', {
      csrf_token: csrf,
      type: 'eld',
      identifier: '-bad',
      vehicle: String(v2),
    });
    assertAlert(
      bad.body,
      'provision-error',
      'identifier must be 1 to 64 letters, digits, ".", "_", ":" or "-", starting with a letter or digit',
    );

    // Move it to the other vehicle.
    const page = await b.get(`/console/devices/${eld.id}`);
    assert.equal(page.status, 200);
    assert.match(page.body, new RegExp(`<option value="${v1}" selected>`));
    const moved = await b.post(`/console/devices/${eld.id}/vehicle`, { csrf_token: csrf, vehicle: String(v2) });
    assert.equal(moved.status, 303);
    assert.equal(moved.headers.location, `/console/devices/${eld.id}?done=moved`);
    assert.equal((await eldDevices(api))[0].vehicle.id, v2);
    assert.match((await b.get(moved.headers.location)).body, /The device now reports for this vehicle\./);

    // Revoke: a confirmation first, then the credential is refused.
    const confirm = await b.get(`/console/devices/${eld.id}/revoke`);
    assert.equal(confirm.status, 200);
    assert.match(confirm.body, new RegExp(`<h1 id="confirm-title">Revoke ELD ${serial}\\?</h1>`));
    assert.equal(await report(t, token), 200, 'not before it is confirmed');
    assert.equal((await b.post(`/console/devices/${eld.id}/revoke`, {})).status, 400, 'CSRF');
    const revoked = await b.post(`/console/devices/${eld.id}/revoke`, { csrf_token: csrf });
    assert.equal(revoked.status, 303);
    assert.equal(await report(t, token), 403);
    assert.deepEqual(await eldDevices(api), []);
    const shown = await b.get('/console/devices?revoked=1');
    assert.match(shown.body, new RegExp(`<tr data-id="${eld.id}" class="revoked">`));

    // Another company's console does not find it.
    const other = await t.newFleet('Elsewhere Devices');
    const stranger = await consoleBrowser(t, other.admin.email);
    assert.equal((await stranger.b.get(`/console/devices/${eld.id}`)).status, 404);
    assert.equal(
      (await stranger.b.post(`/console/devices/${eld.id}/revoke`, { csrf_token: stranger.csrf })).status,
      404,
    );
  });

  test("a phone tracker: its app's settings name the listener that takes its positions", async () => {
    const t = await getApp();
    const fleet = await t.newFleet('Phone Freight');
    const { b, csrf, api } = await consoleAndApi(t, fleet, fleet.admin.email);
    const v = await vehicle(t, fleet);
    const listener = new URL(t.app.sideListeners.get('OsmAnd')!);

    const made = await b.post('/console/devices', {
      csrf_token: csrf,
      type: 'phone',
      identifier: '',
      vehicle: String(v),
    });
    assert.equal(made.status, 201, made.body);
    const id = value(made.body, 'traccar-id')!;
    assert.match(id, /^phone-[A-Za-z0-9]{14}$/, 'an id that cannot be guessed');
    const server = value(made.body, 'traccar-url')!;
    // The browser reached the console at "localhost" (inject's host) and PUBLIC_URL is a loopback address.
    assert.equal(server, `http://localhost:${listener.port}`);
    assert.match(made.body, /localhost is this computer's own address: a phone cannot reach it/);
    assert.equal(
      escapeHtml(`${server}/?id=${id}&lat={0}&lon={1}&timestamp={2}&hdop={3}&altitude={4}&bearing={6}`),
      value(made.body, 'osmand-url'),
    );
    const [phone] = await eldDevices(api);
    assert.deepEqual([phone.identifier, phone.model], [id, 'phone']);

    // What the phone sends with those settings is stored for the vehicle.
    const at = Math.floor(Date.now() / 1000);
    const res = await fetch(`http://127.0.0.1:${listener.port}/?id=${id}&lat=41.25&lon=-95.99&timestamp=${at}`);
    assert.equal(res.status, 200, await res.text());
    const page = await b.get(`/console/devices/${phone.id}`);
    assert.match(page.body, /<dt>Type<\/dt><dd>Phone tracker<\/dd>/);
    assert.equal(value(page.body, 'traccar-id'), id, 'the settings stay on the device page');
    assert.doesNotMatch(page.body, /<dt>Last heard<\/dt><dd><span class="muted">Never/);
  });

  test("a group-limited manager sees and provisions devices only on their groups' vehicles", async () => {
    const t = await getApp();
    const fleet = await t.newFleet('Limited Devices Co');
    const { api } = await consoleAndApi(t, fleet, fleet.admin.email);
    const mine = await createGroup(api, 'Mine');
    const { email } = await limitedManager(t, fleet, api, [mine]);
    const make = async (group_ids: number[]) =>
      (await api.call({ method: 'POST', url: '/v1/vehicles', payload: { number: `G-${uniq()}`, group_ids } })).body
        .vehicle.id as number;
    const [own, other] = [await make([mine]), await make([])];
    const hidden = await provisionDevice(
      t.db,
      { companyId: fleet.companyId },
      { identifier: `H-${uniq()}`, vehicleId: other },
    );
    const { b, csrf } = await consoleBrowser(t, email);

    const list = await b.get('/console/devices');
    assert.match(list.body, /No live devices\./, 'the device of a vehicle outside their groups is not listed');
    assert.doesNotMatch(list.body, new RegExp(`<option value="${other}"`), 'nor offered');
    assert.equal((await b.get(`/console/devices/${hidden.id}`)).status, 404);
    const refused = await b.post('/console/devices', {
      csrf_token: csrf,
      type: 'eld',
      identifier: `X-${uniq()}`,
      vehicle: String(other),
    });
    assert.equal(refused.status, 404);
    assertAlert(refused.body, 'provision-error', `vehicle ${other} not found`);
    const made = await b.post('/console/devices', {
      csrf_token: csrf,
      type: 'eld',
      identifier: `O-${uniq()}`,
      vehicle: String(own),
    });
    assert.equal(made.status, 201, made.body);
    assert.deepEqual((await eldDevices(api)).map((d) => d.vehicle.id).sort(), [own, other].sort());
  });
});
