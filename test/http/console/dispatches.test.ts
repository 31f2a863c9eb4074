/**
 * Dispatches in the console over HTTP: create one with its stops (a row added without script first),
 * dates typed in the company's zone and stored as UTC instants; a refused form carries the API's message
 * for the same body and keeps what was typed; edit while planned (driver, a stop removed, a stop
 * changed), not once active; activate from the board; cancel and complete only after a confirmation
 * page. Each change is read back through /v1/dispatches; CSRF on every form.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachDialect } from '../../helper.js';
import { useOAuthApp, vehicle, type OAuthTestApp } from '../../auth/oauth/flows.js';
import { createUser } from '../fixtures.js';
import { createLocation } from '../../domain/dispatch/fixtures.js';
import { apiRefusal, assertAlert, consoleAndApi, type Api } from './manage-helper.js';
import type { Fleet } from '../../auth/oauth/flows.js';

async function apiDispatch(api: Api, vendorId: string): Promise<Record<string, any>> {
  const res = await api.call({ method: 'GET', url: `/v1/dispatches?vendor_ids[]=${encodeURIComponent(vendorId)}` });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.dispatches.length, 1, `dispatch ${vendorId}`);
  return res.body.dispatches[0].dispatch;
}

/** Two drivers, two vehicles and three locations of the fleet, through the API. */
async function world(t: OAuthTestApp, fleet: Fleet, api: Api) {
  const driver = await createUser(api, { role: 'driver', first_name: 'Dana', last_name: 'Reyes' });
  const driver2 = await createUser(api, { role: 'driver', first_name: 'Eli', last_name: 'Stone' });
  const truck = await vehicle(t, fleet);
  const locations = [];
  for (const name of ['Yard', 'Mill', 'Port']) locations.push(await createLocation(api, { name }));
  return { driver, driver2, truck, locations };
}

/** The form's rows as the browser sends them: every field of every row, in order. */
function rows(stops: Array<Partial<Record<'vendor_id' | 'location' | 'type' | 'early' | 'late', string>>>) {
  const column = (k: string) => stops.map((s) => (s as Record<string, string>)[k] ?? '');
  return {
    stop_vendor_id: column('vendor_id'),
    stop_location: column('location'),
    stop_type: column('type'),
    stop_early: column('early'),
    stop_late: column('late'),
  };
}

eachDialect('console: dispatches', (dialect) => {
  const getApp = useOAuthApp(dialect);

  test('create with stops, refusals as the API words them, edit while planned', async () => {
    const t = await getApp();
    const fleet = await t.newFleet('Dispatch Forms Co');
    const { b, csrf, api } = await consoleAndApi(t, fleet, fleet.manager.email);
    const { driver, driver2, truck, locations } = await world(t, fleet, api);
    const [yard, mill, port] = locations.map((l) => String(l.id));

    const blank = await b.get('/console/dispatches/new');
    assert.equal(blank.status, 200);
    assert.match(blank.body, /<legend>Pickup<\/legend>[\s\S]*<legend>Delivery<\/legend>/);
    assert.match(blank.body, /Dates are in the company's time zone \(America\/New_York\)/);

    const typed = {
      csrf_token: csrf,
      vendor_id: 'LOAD-1',
      driver_id: String(driver.id),
      vehicle_id: String(truck),
    };
    const first = { location: yard, type: 'Pickup', early: '2026-03-02T08:00', late: '2026-03-02T10:30' };
    const last = { location: port, type: 'Delivery', early: '2026-07-01T08:00' };
    // "Add a stop" draws the form again with a row before the delivery, keeping what was typed; nothing is saved.
    const added = await b.post('/console/dispatches', { ...typed, ...rows([first, last]), step: 'add' });
    assert.equal(added.status, 200);
    assert.match(
      added.body,
      /<legend>Pickup<\/legend>[\s\S]*<legend>Stop 1<\/legend>[\s\S]*<legend>Delivery<\/legend>/,
    );
    assert.match(added.body, /id="stop-0-early" value="2026-03-02T08:00"/);
    assert.equal((await api.call({ method: 'GET', url: '/v1/dispatches' })).body.dispatches.length, 0);

    // A stop without a location: the API's own message for the same body.
    const viaApi = await apiRefusal(api, 'POST', '/v1/dispatches', {
      vendor_id: 'LOAD-1',
      driver_id: driver.id,
      vehicle_id: truck,
      vendor_shipper_id: 'S1',
      shipper_dispatch_location_id: Number(yard),
      vendor_consignee_id: 'S2',
    });
    assert.equal(viaApi.status, 400);
    const refused = await b.post('/console/dispatches', { ...typed, ...rows([first, {}, { type: 'Delivery' }]) });
    assert.equal(refused.status, 400);
    assertAlert(refused.body, 'dispatch-error', viaApi.message);
    assert.match(refused.body, /id="stop-2-type" aria-invalid="true"/, 'the delivery row is marked');
    assert.match(refused.body, /id="stop-0-late" value="2026-03-02T10:30"/, 'what was typed is kept');

    const noToken = await b.post('/console/dispatches', { ...typed, csrf_token: undefined, ...rows([first, last]) });
    assert.equal(noToken.status, 400);

    const middle = { location: mill, type: 'Drop trailer' };
    const created = await b.post('/console/dispatches', { ...typed, ...rows([first, middle, last]), step: 'save' });
    assert.equal(created.status, 303, created.body);
    assert.equal(created.headers.location, '/console/dispatches/LOAD-1/edit?done=created');
    const d = await apiDispatch(api, 'LOAD-1');
    assert.deepEqual(
      {
        status: d.status,
        driver_id: d.driver_id,
        vehicle_id: d.vehicle_id,
        shipper: [d.vendor_shipper_id, d.shipper_dispatch_location_id, d.shipper_type],
        pickup: [d.pickup_early_date, d.pickup_late_date],
        stops: d.dispatch_stops.map((s: any) => [
          s.dispatch_stop.vendor_id,
          s.dispatch_stop.dispatch_location_id,
          s.dispatch_stop.type,
        ]),
        consignee: [d.vendor_consignee_id, d.consignee_dispatch_location_id, d.consignee_type],
        delivery: [d.delivery_early_date, d.delivery_late_date],
      },
      {
        status: 'planned',
        driver_id: driver.id,
        vehicle_id: truck,
        shipper: ['S1', Number(yard), 'Pickup'],
        // 08:00 in New York: EST in March, EDT in July.
        pickup: ['2026-03-02T13:00:00Z', '2026-03-02T15:30:00Z'],
        stops: [['S2', Number(mill), 'Drop trailer']],
        consignee: ['S3', Number(port), 'Delivery'],
        delivery: ['2026-07-01T12:00:00Z', null],
      },
    );
    const edit = await b.get(created.headers.location);
    assert.match(edit.body, /<p role="status" class="notice">Dispatch LOAD-1 was created.<\/p>/);
    assert.match(edit.body, /id="stop-2-early" value="2026-07-01T08:00"/, 'dates shown in the company zone');

    // Edit: another driver, the stop between removed, the delivery's type changed.
    const removed = await b.post('/console/dispatches/LOAD-1', {
      csrf_token: csrf,
      driver_id: String(driver2.id),
      vehicle_id: String(truck),
      ...rows([
        { ...first, vendor_id: 'S1' },
        { ...middle, vendor_id: 'S2' },
        { ...last, vendor_id: 'S3', type: 'Unload' },
      ]),
      step: 'remove-1',
    });
    assert.equal(removed.status, 200);
    assert.doesNotMatch(removed.body, /<legend>Stop 1<\/legend>/);
    const saved = await b.post('/console/dispatches/LOAD-1', {
      csrf_token: csrf,
      driver_id: String(driver2.id),
      vehicle_id: String(truck),
      ...rows([
        { ...first, vendor_id: 'S1' },
        { ...last, vendor_id: 'S3', type: 'Unload' },
      ]),
    });
    assert.equal(saved.status, 303, saved.body);
    const after = await apiDispatch(api, 'LOAD-1');
    assert.deepEqual(
      [after.driver_id, after.dispatch_stops, after.vendor_shipper_id, after.vendor_consignee_id, after.consignee_type],
      [driver2.id, [], 'S1', 'S3', 'Unload'],
    );
    assert.equal(after.pickup_early_date, '2026-03-02T13:00:00Z', 'what was not changed stays');

    // A dispatch without a reference typed gets one, so it can still be changed.
    const unnamed = await b.post('/console/dispatches', { ...typed, vendor_id: '', ...rows([first, last]) });
    assert.equal(unnamed.status, 303, unnamed.body);
    const vid = /^\/console\/dispatches\/(D-[A-Z0-9]{10})\/edit\?done=created$/.exec(unnamed.headers.location)?.[1];
    assert.ok(vid, unnamed.headers.location);
    assert.equal((await apiDispatch(api, vid)).driver_id, driver.id);
  });

  test('activate from the board; cancel and complete only after confirming; no edit once active', async () => {
    const t = await getApp();
    const fleet = await t.newFleet('Dispatch Board Co');
    const { b, csrf, api } = await consoleAndApi(t, fleet, fleet.admin.email);
    const { driver, driver2, truck, locations } = await world(t, fleet, api);
    const make = async (vendorId: string, driverId: number) => {
      const res = await b.post('/console/dispatches', {
        csrf_token: csrf,
        vendor_id: vendorId,
        driver_id: String(driverId),
        vehicle_id: String(truck),
        ...rows([{ location: String(locations[0].id) }, { location: String(locations[1].id) }]),
      });
      assert.equal(res.status, 303, res.body);
    };
    await make('RUN-1', driver.id);
    await make('RUN-2', driver2.id);

    const board = await b.get('/console/dispatches');
    assert.match(
      board.body,
      /<a href="\/console\/dispatches\/RUN-1\/cancel" class="button danger" aria-label="Cancel… RUN-1">/,
    );
    const activated = await b.post('/console/dispatches/RUN-1/status', { csrf_token: csrf, status: 'active' });
    assert.equal(activated.status, 303);
    assert.equal((await apiDispatch(api, 'RUN-1')).status, 'active');

    const noEdit = await b.get('/console/dispatches/RUN-1/edit');
    assert.equal(noEdit.status, 400);
    assert.match(noEdit.body, /dispatch &quot;RUN-1&quot;: only a planned dispatch can be edited; it is active/);

    // Cancel: a page that explains, and nothing changes until its button is pressed.
    const confirm = await b.get('/console/dispatches/RUN-2/cancel');
    assert.equal(confirm.status, 200);
    assert.match(confirm.body, /<h1 id="confirm-title">Cancel dispatch RUN-2\?<\/h1>/);
    assert.match(confirm.body, /<form method="post" action="\/console\/dispatches\/RUN-2\/cancel" class="actions">/);
    assert.match(confirm.body, /<a href="\/console\/dispatches" class="button secondary">Keep it<\/a>/);
    assert.equal((await apiDispatch(api, 'RUN-2')).status, 'planned');
    assert.equal((await b.post('/console/dispatches/RUN-2/cancel', {})).status, 400, 'CSRF');
    const cancelled = await b.post('/console/dispatches/RUN-2/cancel', { csrf_token: csrf });
    assert.equal(cancelled.status, 303);
    assert.equal(cancelled.headers.location, '/console/dispatches?done=cancelled');
    assert.equal((await apiDispatch(api, 'RUN-2')).status, 'cancelled');
    assert.match((await b.get(cancelled.headers.location)).body, /The dispatch is now cancelled\./);

    // Complete the active one after confirming; completing it again is the state machine's refusal.
    assert.match((await b.get('/console/dispatches/RUN-1/complete')).body, /Complete dispatch RUN-1\?/);
    assert.equal((await b.post('/console/dispatches/RUN-1/complete', { csrf_token: csrf })).status, 303);
    assert.equal((await apiDispatch(api, 'RUN-1')).status, 'completed');
    const viaApi = await apiRefusal(api, 'PUT', '/v1/dispatches', { vendor_id: 'RUN-2', status: 'active' });
    const refused = await b.post('/console/dispatches/RUN-2/status', { csrf_token: csrf, status: 'active' });
    assert.equal(refused.status, viaApi.status);
    assert.ok(refused.body.includes(viaApi.message.replace(/"/g, '&quot;')), refused.body);

    const other = await t.newFleet('Elsewhere Dispatch');
    const stranger = await consoleAndApi(t, other, other.admin.email);
    assert.equal((await stranger.b.get('/console/dispatches/RUN-2/cancel')).status, 404);
    assert.equal((await stranger.b.get('/console/dispatches/RUN-1/edit')).status, 404);
  });
});
