/**
 * Managing vehicles in the console over HTTP: add, edit, out of service and back, deactivate and
 * reactivate through the pages' form posts, each change read back through /v1/vehicles; a refused form
 * shows the API's own message for the same input, keeps what was typed and changes nothing; CSRF on
 * every form (group-limited fleet managers: vehicles-limited.test.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachDialect } from '../../helper.js';
import { inputValue, useOAuthApp } from '../../auth/oauth/flows.js';
import { apiRefusal, apiVehicle, apiVehicles, assertAlert, consoleAndApi, createGroup } from './manage-helper.js';
import { FUEL_TYPES } from '../../../src/domain/vehicles/fields.js';

const FORM = {
  number: 'C-1',
  year: '2022',
  make: 'Freightliner',
  model: 'Cascadia',
  vin: '3AKJHHDR5NSNA1234',
  license_plate_number: 'P 4411',
  license_plate_state: 'IL',
  fuel_type: 'diesel',
  notes: 'Night runs',
};

eachDialect('console: managing vehicles', (dialect) => {
  const getApp = useOAuthApp(dialect);

  test('add, edit, out of service, back in service, deactivate, reactivate: the API reads every change', async () => {
    const t = await getApp();
    const fleet = await t.newFleet('Forms Freight');
    const { b, csrf, api } = await consoleAndApi(t, fleet, fleet.admin.email);
    const west = await createGroup(api, 'West');

    const list = await b.get('/console/vehicles');
    assert.equal(list.status, 200);
    assert.match(list.body, /<a href="\/console\/vehicles" aria-current="page">Vehicles<\/a>/);
    assert.match(list.body, /No vehicles/);
    const blank = await b.get('/console/vehicles/new');
    for (const [name, label] of [
      ['number', 'Number'],
      ['vin', 'VIN'],
      ['license_plate_state', 'Plate state or province'],
      ['fuel_type', 'Fuel type'],
    ])
      assert.match(blank.body, new RegExp(`<label for="${name}">${label}</label>`), label);

    const created = await b.post('/console/vehicles', { csrf_token: csrf, ...FORM, group_ids: String(west) });
    assert.equal(created.status, 303, created.body);
    const id = Number(/^\/console\/vehicles\/(\d+)\/edit\?done=created$/.exec(created.headers.location)![1]);
    const v = await apiVehicle(api, id);
    assert.deepEqual(
      {
        number: v.number,
        status: v.status,
        year: v.year,
        make: v.make,
        model: v.model,
        vin: v.vin,
        license_plate_number: v.license_plate_number,
        license_plate_state: v.license_plate_state,
        fuel_type: v.fuel_type,
        notes: v.notes,
        group_ids: v.group_ids,
        availability: v.availability_details.availability_status,
      },
      { ...FORM, status: 'active', group_ids: [west], availability: 'in_service' },
    );
    const edit = await b.get(created.headers.location);
    assert.match(edit.body, /<p role="status" class="notice">Vehicle C-1 was created.<\/p>/);
    assert.equal(inputValue(edit.body, 'vin'), FORM.vin);
    assert.match(edit.body, new RegExp(`name="group_ids" value="${west}" checked`));

    // Emptied fields are cleared, as null in the API; no group chosen removes the vehicle from West.
    const saved = await b.post(`/console/vehicles/${id}`, {
      csrf_token: csrf,
      ...FORM,
      number: 'C-1A',
      make: '',
      notes: '',
      fuel_type: 'gasoline',
    });
    assert.equal(saved.status, 303, saved.body);
    assert.equal(saved.headers.location, `/console/vehicles/${id}/edit?done=updated`);
    const updated = await apiVehicle(api, id);
    assert.deepEqual(
      [updated.number, updated.make, updated.notes, updated.fuel_type, updated.group_ids, updated.model],
      ['C-1A', null, null, 'gasoline', [], 'Cascadia'],
    );

    const out = await b.post(`/console/vehicles/${id}/availability`, {
      csrf_token: csrf,
      availability_status: 'out_of_service',
      out_of_service_reason: 'Brake repair',
      custom_driver_app_warning_prompt: 'Do not drive',
      additional_note: 'Back Friday',
    });
    assert.equal(out.status, 303, out.body);
    const oos = (await apiVehicle(api, id)).availability_details;
    assert.deepEqual(
      [oos.availability_status, oos.out_of_service_reason, oos.custom_driver_app_warning_prompt, oos.additional_note],
      ['out_of_service', 'Brake repair', 'Do not drive', 'Back Friday'],
    );
    assert.equal(oos.updated_by_user.id, fleet.admin.id, 'the signed-in user made the change');
    const shown = await b.get(out.headers.location);
    assert.match(shown.body, /C-1A is out of service\./);
    assert.match(shown.body, /<strong>Out of service<\/strong>: Brake repair/);
    assert.match((await b.get('/console/vehicles')).body, /Out of service: Brake repair/);

    assert.equal(
      (await b.post(`/console/vehicles/${id}/availability`, { csrf_token: csrf, availability_status: 'in_service' }))
        .status,
      303,
    );
    const back = (await apiVehicle(api, id)).availability_details;
    assert.deepEqual([back.availability_status, back.out_of_service_reason], ['in_service', null]);

    const confirm = await b.get(`/console/vehicles/${id}/deactivate`);
    assert.equal(confirm.status, 200);
    assert.match(confirm.body, /<h1 id="confirm-title">Deactivate C-1A\?<\/h1>/);
    assert.match(confirm.body, /<form method="post" action="\/console\/vehicles\/\d+\/deactivate"/);
    assert.equal((await apiVehicle(api, id)).status, 'active', 'opening the confirmation changes nothing');
    const deactivated = await b.post(`/console/vehicles/${id}/deactivate`, { csrf_token: csrf });
    assert.equal(deactivated.status, 303);
    assert.equal((await apiVehicle(api, id)).status, 'deactivated');
    const listed = await api.call({ method: 'GET', url: '/v1/vehicles?status=deactivated' });
    assert.deepEqual(
      listed.body.vehicles.map((x: any) => x.vehicle.id),
      [id],
    );
    assert.match((await b.get('/console/vehicles?status=deactivated')).body, /<span class="badge deactivated">/);
    assert.equal((await b.get(`/console/vehicles/${id}/deactivate`)).status, 303, 'already deactivated');
    assert.equal((await b.post(`/console/vehicles/${id}/reactivate`, { csrf_token: csrf })).status, 303);
    assert.equal((await apiVehicle(api, id)).status, 'active');
    const events = await t.db.kysely
      .selectFrom('domain_events')
      .select(['action', 'trigger'])
      .where('company_id', '=', fleet.companyId)
      .where('subject_type', '=', 'vehicle')
      .where('subject_id', '=', String(id))
      .orderBy('id')
      .execute();
    assert.deepEqual(
      events.map((e) => `${e.action} ${e.trigger}`),
      ['vehicle_upserted created', ...Array(5).fill('vehicle_upserted updated')],
      'each change announced as the API announces it',
    );
  });

  test("a refused form shows the API's message for the same input, keeps what was typed, changes nothing", async () => {
    const t = await getApp();
    const fleet = await t.newFleet('Refusals Co');
    const { b, csrf, api } = await consoleAndApi(t, fleet, fleet.manager.email);
    const taken = (await api.call({ method: 'POST', url: '/v1/vehicles', payload: { number: 'R-1' } })).body.vehicle.id;
    const other = (await api.call({ method: 'POST', url: '/v1/vehicles', payload: { number: 'R-2', make: 'Mack' } }))
      .body.vehicle.id;
    const before = await apiVehicles(api);

    const cases: Array<[Record<string, string>, Record<string, unknown>, string]> = [
      [{ number: 'R-1', make: 'Volvo' }, { number: 'R-1' }, 'number "R-1" is already taken'],
      [
        { number: 'R-9', vin: 'V'.repeat(256) },
        { number: 'R-9', vin: 'V'.repeat(256) },
        'vin must be at most 255 characters long',
      ],
      [{ number: '  ', make: 'Volvo' }, { number: '  ' }, 'number must not be empty'],
      [
        { number: 'R-9', year: '2022-2023' },
        { number: 'R-9', year: '2022-2023' },
        'year must be at most 8 characters long',
      ],
      [
        { number: 'R-9', fuel_type: 'coal' },
        { number: 'R-9', fuel_type: 'coal' },
        `fuel_type must be one of: ${FUEL_TYPES.join(', ')}`,
      ],
    ];
    for (const [form, payload, message] of cases) {
      const viaApi = await apiRefusal(api, 'POST', '/v1/vehicles', payload);
      assert.deepEqual(viaApi, { status: 400, message }, JSON.stringify(payload));
      const res = await b.post('/console/vehicles', { csrf_token: csrf, ...form });
      assert.equal(res.status, 400, message);
      assertAlert(res.body, 'details-error', message);
      for (const [name, value] of Object.entries(form))
        if (name !== 'fuel_type') assert.equal(inputValue(res.body, name), value, `${name} keeps what was typed`);
    }
    const dup = await b.post('/console/vehicles', { csrf_token: csrf, number: 'R-1', make: 'Volvo' });
    assert.match(
      dup.body,
      /id="number" name="number" required maxlength="64" aria-describedby="details-error" aria-invalid="true"/,
    );

    // An edit and an availability change refused the same way.
    const edit = await b.post(`/console/vehicles/${other}`, { csrf_token: csrf, number: 'R-1', make: 'Volvo' });
    assert.equal(edit.status, 400);
    assertAlert(
      edit.body,
      'details-error',
      (await apiRefusal(api, 'PUT', `/v1/vehicles/${other}`, { number: 'R-1' })).message,
    );
    const long = 'x'.repeat(256);
    const viaApi = await apiRefusal(api, 'PUT', `/v1/vehicles/${other}`, {
      availability_details: { availability_status: 'out_of_service', out_of_service_reason: long },
    });
    assert.deepEqual(viaApi, {
      status: 400,
      message: 'availability_details.out_of_service_reason must be at most 255 characters long',
    });
    const oos = await b.post(`/console/vehicles/${other}/availability`, {
      csrf_token: csrf,
      availability_status: 'out_of_service',
      out_of_service_reason: long,
      additional_note: 'kept',
    });
    assert.equal(oos.status, 400);
    assertAlert(oos.body, 'availability-error', viaApi.message);
    assert.equal(inputValue(oos.body, 'out_of_service_reason'), long);
    assert.match(oos.body, />kept<\/textarea>/);
    assert.equal(inputValue(oos.body, 'make'), 'Mack', 'the details form shows the stored vehicle');

    // A group of another company is not found, as the API says.
    const elsewhere = await t.newFleet('Other Groups Co');
    const foreign = await createGroup((await consoleAndApi(t, elsewhere, elsewhere.admin.email)).api, 'Theirs');
    const viaApiGroup = await apiRefusal(api, 'POST', '/v1/vehicles', { number: 'R-9', group_ids: [foreign] });
    assert.deepEqual(viaApiGroup, { status: 404, message: `group ${foreign} not found` });
    const grouped = await b.post('/console/vehicles', { csrf_token: csrf, number: 'R-9', group_ids: String(foreign) });
    assert.equal(grouped.status, 404);
    assertAlert(grouped.body, 'details-error', viaApiGroup.message);

    assert.deepEqual(await apiVehicles(api), before, 'nothing changed');
    assert.equal((await b.post(`/console/vehicles/${taken + 100000}`, { csrf_token: csrf, number: 'Z' })).status, 404);
  });

  test('CSRF: every form post without the token or with another is refused and changes nothing', async () => {
    const t = await getApp();
    const fleet = await t.newFleet('Forgery Co');
    const { b, api } = await consoleAndApi(t, fleet, fleet.admin.email);
    const id = (await api.call({ method: 'POST', url: '/v1/vehicles', payload: { number: 'F-1' } })).body.vehicle.id;
    const before = await apiVehicles(api);
    const posts: Array<[string, Record<string, string>]> = [
      ['/console/vehicles', { number: 'F-2' }],
      [`/console/vehicles/${id}`, { number: 'F-9' }],
      [`/console/vehicles/${id}/availability`, { availability_status: 'out_of_service' }],
      [`/console/vehicles/${id}/deactivate`, {}],
    ];
    for (const [url, form] of posts) {
      const missing = await b.post(url, form);
      assert.equal(missing.status, 400, url);
      assert.match(missing.body, /missing CSRF token/);
      const wrong = await b.post(url, { ...form, csrf_token: 'x'.repeat(43) });
      assert.equal(wrong.status, 403, url);
      assert.match(wrong.body, /wrong CSRF token/);
    }
    const signedOut = await b.app.inject({ method: 'POST', url: '/console/vehicles', payload: { number: 'F-3' } });
    assert.equal(signedOut.statusCode, 401);
    assert.deepEqual(await apiVehicles(api), before);
  });
});
